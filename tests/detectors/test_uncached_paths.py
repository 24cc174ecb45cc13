"""Round 2 of the chat detectors' CPU work: cheaper paths for text never seen before.

A plain message holding a phrase's first word ("nice hand", "deep stack", "son") is proven
clean without tokens unless the whole phrase is there, and harassment, hate and impersonation
run their patterns on a plain message's words instead of normalising it. The oracle for each is
the full path: the same functions with `plain_words` switched off.
"""

from __future__ import annotations

import importlib
import itertools
import random
import re
from typing import Any

import pytest

from railbird.detectors.chat import harassment, harassment_patterns, hate, impersonation
from railbird.detectors.chat.harassment_gate import NEEDS, possible_patterns
from railbird.detectors.text import abuse_lexicon, abuse_terms, plain_text
from railbird.detectors.text import normalise as text_normalise
from railbird.detectors.text.plain_text import plain_words
from tests.detectors.test_chat_memos import _old_plain_words, _round2_plainly_clean

_PHRASE_EDGES = [
    "nice hand",
    "hand job",
    "nice hand job",
    "hand jobs",
    "handjob",
    "deep stack",
    "deep throat",
    "deepthroat pls",
    "dog style",
    "dog styles",
    "my dog fucker",
    "son of a bitch",
    "son of a gun",
    "son of",
    "bull shit",
    "bull run",
    "piss off",
    "god dam",
    "god damned river",
    "god damn",
    "jack off",
    "jack of all trades",
    "2 girls 1 cup",
    "2 girls",
    "mother fucker",
    "mother of god",
    "brown showers",
    "g spot",
    "m fucking",
    "mo fo",
    "noob question",
    "gg noob",
    "report this trash",
    "my team is trash",
    "u guys suck",
    "this team sucks",
    "learn to play",
    "uninstall the old client",
    "women are disgusting",
    "muslims should not be allowed to play",
    "kill all immigrants",
    "i despise gay people",
    "ching chong",
    "towel head",
]


def _texts() -> list[str]:
    """Phrases, their first words in table talk, and random mixes of phrase words."""
    lex = abuse_terms.lexicon()
    phrase_words = sorted({w for found in lex.phrases.values() for _, e in found for w in
                           e.term.split()})  # fmt: skip
    table_talk = ["nice", "hand", "gg", "you", "the", "deep", "stack", "are", "a", "idiot",
                  "back", "home", "bad", "play", "support", "send", "your", "password", "people",
                  "go", "to", "country", "kill", "yourself", "white", "shut", "up", "noob",
                  "trash", "bot", "team", "report", "women", "muslims", "disgusting",
                  "should", "not", "all", "people", "gay", "hate"]  # fmt: skip
    rng = random.Random(2026)
    pool = phrase_words + table_talk
    mixed = [" ".join(rng.choices(pool, k=rng.randint(1, 7))) for _ in range(4000)]
    pairs = [f"{a} {b}" for a, b in itertools.product(phrase_words, repeat=2)]
    return list(dict.fromkeys(_PHRASE_EDGES + pairs + mixed))


TEXTS = _texts()


def _answers(texts: list[str]) -> list[tuple[Any, ...]]:
    for memo in (
        abuse_lexicon.scan,
        harassment._verdict,
        hate._verdict,
        impersonation._read,
    ):
        memo.cache_clear()
    return [
        (
            abuse_lexicon.scan(t),
            harassment.harassment_reasons(t),
            hate.hate_reasons(t),
            impersonation.impersonation_reasons(t),
        )
        for t in texts
    ]


def test_plain_path_answers_exactly_what_the_full_path_answers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fast = _answers(TEXTS)
    for module in (abuse_lexicon, harassment, hate, impersonation):
        monkeypatch.setattr(module, "plain_words", lambda _text: None)
    full = _answers(TEXTS)
    mismatched = [t for t, a, b in zip(TEXTS, fast, full, strict=True) if a != b]
    assert mismatched == []
    assert sum(bool(a[0]) for a in full) > 100  # whole phrases were found
    assert sum(bool(a[1][0]) for a in full) > 100  # and harassment patterns


@pytest.mark.parametrize(
    ("text", "clean"),
    [
        ("nice hand", True),
        ("hand job", False),
        ("hand jobs", True),  # near-miss: "\bhand job\b" does not match "hand jobs"
        ("deep stack", True),
        ("deep throat", False),
        ("son of a gun", True),
        ("son of a bitch", False),
        ("dog styles", True),
        ("god damned river", False),
    ],
)
def test_a_phrase_first_word_alone_is_clean(text: str, clean: bool) -> None:
    words = plain_words(text)
    assert words is not None
    assert abuse_lexicon._plainly_clean(abuse_terms.lexicon(), words) is clean
    abuse_lexicon.scan.cache_clear()
    assert (abuse_lexicon.scan(text) == ()) is clean


# -- harassment's pattern gate ---------------------------------------------------------------

_PARSER: Any = importlib.import_module("re._parser")  # the regex parser, to sample matches
_FILLER = ["you", "u", "the", "gg", "nice", "hand", "a", "i", "so", "back", "bad", "play", "up"]


def _sample(tree: Any, rng: random.Random) -> str:
    """One random string the parsed pattern can match (lookarounds and anchors ignored)."""
    out: list[str] = []
    for op, arg in tree:
        name = str(op)
        if name == "LITERAL":
            out.append(chr(arg))
        elif name == "IN":
            chars = [chr(a) for o, a in arg if str(o) == "LITERAL"] or ["x"]
            out.append(rng.choice(chars))
        elif name == "BRANCH":
            out.append(_sample(rng.choice(arg[1]), rng))
        elif name == "SUBPATTERN":
            out.append(_sample(arg[-1], rng))
        elif name in ("MAX_REPEAT", "MIN_REPEAT"):
            low, high, sub = arg
            count = rng.randint(low, min(high, low + 2))
            out.append("".join(_sample(sub, rng) for _ in range(count)))
        elif name == "CATEGORY":
            out.append(rng.choice(_FILLER))  # \w: a whole word stands in
    return "".join(out)


def _streams_matching(pattern: re.Pattern[str], rng: random.Random, count: int) -> list[str]:
    tree = _PARSER.parse(pattern.pattern)
    found = []
    for _ in range(count):
        core = _sample(tree, rng)
        before = " ".join(rng.choices(_FILLER, k=rng.randint(0, 3)))
        after = " ".join(rng.choices(_FILLER, k=rng.randint(0, 3)))
        stream = " ".join(w for w in f"{before} {core} {after}".split(" ") if w)
        if pattern.search(stream) is not None:
            found.append(stream)
    return found


def _all_patterns() -> list[re.Pattern[str]]:
    patterns = harassment_patterns
    return [p for p, *_ in patterns.PATTERNS] + [p for p, _ in patterns.SELF_PATTERNS]


def test_the_gate_lists_one_word_need_per_pattern() -> None:
    assert len(NEEDS) == len(_all_patterns())


def test_every_pattern_that_matches_is_let_through_by_the_gate() -> None:
    rng = random.Random(31)
    patterns = _all_patterns()
    checked = 0
    for index, pattern in enumerate(patterns):
        streams = _streams_matching(pattern, rng, 300)
        assert len(streams) > 50, pattern.pattern  # the sampler does reach the pattern
        for stream in streams:
            words = stream.split(" ")
            for other, candidate in enumerate(patterns):  # the other patterns it matches too
                if candidate.search(stream) is not None:
                    assert other in possible_patterns(words), (index, other, stream)
                    checked += 1
    assert checked > 2000


@pytest.mark.parametrize(
    ("text", "flags"),
    [
        ("watch your back", True),
        ("watch my back", False),  # near-miss: "back" and "watch" without "you"
        ("bad beat again", False),
        ("you are so bad", True),
        ("i play like a fish", False),
        ("u play like a child", True),
        ("back home soon", False),
        ("im coming to your house", True),
        ("go die lo*l", True),  # a "*" in a token: the gate stands aside
        ("go dies lo*l", False),
        ("go die", True),
        ("go dies", False),
    ],
)
def test_gated_harassment_reads_like_every_pattern_run(text: str, flags: bool) -> None:
    harassment._verdict.cache_clear()
    reasons, _severity = harassment.harassment_reasons(text)
    assert bool(reasons) is flags
    parsed = text_normalise.normalise(text)
    ungated = [p for p in _all_patterns() if p.search(parsed.stream) is not None]
    assert bool(ungated) is flags or bool(abuse_lexicon.scan(text))


# -- the word memos of `plain_words` and `_plainly_clean` --------------------------------------


_MEMO_WORDS = (
    "gg nh fuck fu ck hand job aaa 1000 100 22 a i 2 shitshow sick ab ba aab son of bitch n1 x "
    "deep throat ass hole is up Gg GG! f*ck"
)


def test_word_memos_answer_as_the_checks_they_skip() -> None:
    rng = random.Random(17)
    vocabulary = _MEMO_WORDS.split()
    texts = [" ".join(rng.choices(vocabulary, k=rng.randint(0, 6))) for _ in range(4000)]
    lex = abuse_terms.lexicon()
    for _ in range(2):  # the first pass fills the memos, the second is answered from them
        for text in texts:
            words = plain_text.plain_words.__wrapped__(text)
            assert words == _old_plain_words(text), text
            if words is not None:
                assert abuse_lexicon._plainly_clean(lex, words) is _round2_plainly_clean(words)
    assert {"gg", "100", "hand"} <= plain_text._simple_words
    assert {"aaa", "1000", "a", "n1"}.isdisjoint(plain_text._simple_words)
    assert {"gg", "hand", "ck"} <= abuse_lexicon._inert_words  # "hand" needs "job" to hit
    assert "fuck" not in abuse_lexicon._inert_words
    assert "shitshow" not in abuse_lexicon._inert_words


def test_dead_words_take_no_part_in_any_hit() -> None:
    """A dead word answers `_plainly_clean` alone: it must start no phrase ("hand", "son"),
    be no half of a short split ("fu", "ck", "gg"), and hold no entry or glued stem."""
    lex = abuse_terms.lexicon()
    for word in ("nh", "sick", "job", "of", "ab"):
        assert abuse_lexicon.is_dead_word(lex, word), word
    for word in ("fu", "ck", "gg", "hand", "son", "deep", "fuck", "shitshow", "ba"):
        assert not abuse_lexicon.is_dead_word(lex, word), word
    words = ("nh", "sick", "fu", "ck", "hand", "job", "son", "of", "a", "bitch", "shitshow")
    for pair in itertools.product(words, repeat=3):
        abuse_lexicon._plainly_clean(lex, pair)
    assert {"nh", "sick", "job", "of"} <= abuse_lexicon._dead_words
    for dead in abuse_lexicon._dead_words:
        assert abuse_lexicon.is_dead_word(lex, dead), dead
    # served from the dead set or not, the answer is the full check's
    for pair in itertools.product(words, repeat=3):
        assert abuse_lexicon._plainly_clean(lex, pair) is _round2_plainly_clean(pair), pair
