"""The plain-message fast path must decide exactly what the full normalise-and-scan path does.

The fast path proves a plain message clean with set operations instead of building tokens; a
mistake there would silently miss abuse, so every corpus we have is run both ways and compared:
the poker-chat set, the simulator's table talk and abuse lines, and a slice of the Davidson and
SMS corpora (when the shared data is present).
"""

from __future__ import annotations

import csv
import random
from collections.abc import Iterator

import pytest

from detectors import abuse_lexicon, harassment, hate
from detectors.text_normalise import normalise, plain_words
from sim.config import SimConfig
from sim.run import simulate
from tests.paths import DATA, REPO

_SHARED_SAMPLE = 2500


def _csv_texts(path: str, column: str) -> Iterator[str]:
    with open(path, encoding="utf-8", newline="") as handle:
        yield from (row[column] for row in csv.DictReader(handle))


def _corpus() -> list[str]:
    texts = list(_csv_texts(str(REPO / "tests" / "data" / "poker_chat.csv"), "text"))
    config = SimConfig(seed=3, tournaments=1, cash_tables=2, hours=1.0, violation_scale=4.0)
    texts += [r["text"] for k, r in simulate(config) if k == "event" and r.get("text")]
    rng = random.Random(5)
    for name in ("davidson_train.csv", "sms_spam_train.csv"):
        path = DATA / name
        if path.exists():
            rows = list(_csv_texts(str(path), "text"))
            texts += rng.sample(rows, min(_SHARED_SAMPLE, len(rows)))
    # Hand-made edge cases around the fast path's conditions.
    texts += [
        "fu ck off",
        "f u c k",
        "you are a fuuuuck",
        "shitshow tonight",
        "gg 1000 chips",
        "a b c",
        "kill the pot",
        "nice_hand you_idiot",
        "go kill yourself",
        "son of a bitch",
        "",
        "ok",
        "nice hand 😂",
        "gg 👍👍👍",
        "😂😂😂 loser u are",
        "❤️ u idiot",
        "fu\u200bck 😂",
        "ｆｕｃｋ off",
        "™ you moron 😎",
        "ship it!! 🔥",
        "had Jc 5d!",
    ]
    return list(dict.fromkeys(texts))


CORPUS = _corpus()


def _full_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (abuse_lexicon, harassment, hate):
        monkeypatch.setattr(module, "plain_words", lambda _text: None)
    abuse_lexicon.scan.cache_clear()


def test_corpus_exercises_both_paths() -> None:
    plain = sum(plain_words(t) is not None for t in CORPUS)
    assert 0.2 * len(CORPUS) < plain < len(CORPUS)


def test_plain_words_are_normalised_forms() -> None:
    for text in CORPUS:
        words = plain_words(text)
        if words is None:
            continue
        parsed = normalise(text)
        assert words == tuple(t.form for t in parsed.tokens), text
        assert all(t.squeezed == t.form and not t.alt and not t.mention for t in parsed.tokens)
        assert parsed.joined == ()


def test_fast_path_finds_exactly_what_the_full_path_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    abuse_lexicon.scan.cache_clear()
    fast = [
        (abuse_lexicon.scan(t), harassment.harassment_reasons(t), hate.hate_reasons(t))
        for t in CORPUS
    ]
    _full_path(monkeypatch)
    full = [
        (abuse_lexicon.scan(t), harassment.harassment_reasons(t), hate.hate_reasons(t))
        for t in CORPUS
    ]
    mismatched = [t for t, a, b in zip(CORPUS, fast, full, strict=True) if a != b]
    assert mismatched == []
    assert sum(bool(s) for s, _, _ in full) > 50  # the corpus holds plenty of abuse
