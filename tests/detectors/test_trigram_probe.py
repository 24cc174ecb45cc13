"""`repeated_messages` compares lines by trigram Jaccard with two shortcuts: trigrams as tuples
built by `zip` instead of substrings, and a `probe` (a third of a line's trigrams, looked up
as substrings of the other line) that rules a pair out before any set is built. The oracle is
the plain definition: substring trigram sets and their Jaccard. The probe may let a pair
through that then fails, never rule out one that reaches the threshold.
"""

from __future__ import annotations

import random

import pytest

from railbird.detectors.text.fingerprint import jaccard, misses, probe, trigrams

SIMILARITIES = [0.7, 0.5, 0.9, 1.0, 0.0, -0.5, 1.5, 0.05, 2 / 3, 0.75]


def _grams(fp: str) -> set[str]:
    return {fp[i : i + 3] for i in range(max(1, len(fp) - 2))}


def _plain_jaccard(a: str, b: str) -> float:
    ga, gb = _grams(a), _grams(b)
    return len(ga & gb) / len(ga | gb)


def _near(fp: str, rng: random.Random, alphabet: str) -> str:
    """A line a few edits away: the pairs that sit around the threshold."""
    chars = list(fp)
    for _ in range(rng.randint(0, 4)):
        op = rng.random()
        at = rng.randrange(len(chars) + 1)
        if op < 0.4 and chars:
            chars[min(at, len(chars) - 1)] = rng.choice(alphabet)
        elif op < 0.7:
            chars.insert(at, rng.choice(alphabet))
        elif chars:
            del chars[min(at, len(chars) - 1)]
    return "".join(chars)


def _pairs(count: int, seed: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    for _ in range(count):
        alphabet = rng.choice(["ab", "abc", "abcdefghij", "etaoinshr0123", "aé€😀b"])
        fp = "".join(rng.choices(alphabet, k=rng.randint(0, 40)))
        other = _near(fp, rng, alphabet) if rng.random() < 0.7 else fp[::-1]
        pairs.append((fp, other))
    pairs += [("aaa", "aaaa"), ("abcabc", "abcab"), ("ab", "abc"), ("", "abc"), ("a", "a")]
    return pairs


@pytest.fixture(scope="module")
def pairs() -> list[tuple[str, str]]:
    return _pairs(6000, seed=11)


def test_tuple_trigrams_give_the_substring_jaccard(pairs: list[tuple[str, str]]) -> None:
    wrong = [
        (a, b)
        for a, b in pairs
        if a and b and jaccard(trigrams(a), trigrams(b)) != _plain_jaccard(a, b)
    ]
    assert wrong == []
    assert trigrams("ab") == frozenset({("ab",)})  # short lines: one gram, never a trigram
    assert len(trigrams("abcabc")) == 3  # abc, bca, cab


@pytest.mark.parametrize("similarity", SIMILARITIES)
def test_probe_never_rules_out_a_pair_that_reaches_the_threshold(
    pairs: list[tuple[str, str]], similarity: float
) -> None:
    ruled_out = 0
    wrong: list[tuple[str, str]] = []
    for a, b in pairs:
        if not a or not b:
            continue
        chunks, slack = probe(a, similarity)
        if misses(chunks, b) > slack:
            ruled_out += 1
            if _plain_jaccard(a, b) >= similarity:
                wrong.append((a, b))
    assert wrong == []
    if 0 < similarity <= 1:
        assert ruled_out > 0  # it does rule lines out, or it is no shortcut


def test_probe_near_misses() -> None:
    chunks, slack = probe("buychipscheapnow", 0.7)
    assert chunks == {"buy", "chi", "psc", "hea", "pno"}
    assert slack == pytest.approx(0.3 * 14)
    # One chunk lost ("hea"): far inside the slack, so the exact comparison decides.
    assert misses(chunks, "buychipscheepnow") == 1
    assert _plain_jaccard("buychipscheapnow", "buychipscheepnow") < 0.7  # and it says no
    assert misses(chunks, "totallyunrelatedline") == 5  # ruled out without a trigram set
    assert misses(chunks, "ab") == 5  # a short line holds no trigram
    assert probe("ab", 0.7)[0] == set()  # nothing to probe with: never rules out
    assert probe("abcdef", 0.0)[1] == float("inf")
    assert probe("abcdef", float("nan"))[1] == float("inf")
