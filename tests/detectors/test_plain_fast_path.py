"""The plain-message fast path must decide exactly what the full normalise-and-scan path does.

The fast path proves a plain message clean with set operations instead of building tokens; a
mistake there would silently miss abuse, so every corpus we have is run both ways and compared:
the poker-chat set, the simulator's table talk and abuse lines, and a slice of the Davidson and
SMS corpora (when the shared data is present).
"""

from __future__ import annotations

import pytest

from railbird.detectors.chat import harassment, hate
from railbird.detectors.text import abuse_lexicon
from railbird.detectors.text.normalise import normalise
from railbird.detectors.text.plain_text import plain_words
from tests.corpora import csv_texts, mixed_chat
from tests.paths import DATA, REPO

_SHARED_SAMPLE = 2500


def _corpus() -> list[str]:
    texts = mixed_chat(seed=5, sim_seed=3, shared_sample=_SHARED_SAMPLE, sim_hours=1.0)
    # Game chat and hate without slurs: the game-word tier and the group remarks.
    texts += csv_texts(REPO / "tests" / "data" / "poker_game_slang.csv")
    texts += csv_texts(DATA / "hatecheck.csv")[::3] + csv_texts(DATA / "conda_train.csv")[::10]
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
        "gg noob",
        "noob question",
        "my hand is trash",
        "you bot",
        "women are disgusting",
        "women are disgusting.",
        "saying 'women are disgusting' is bigoted",
        "kill all muslims",
    ]
    return list(dict.fromkeys(texts))


CORPUS = _corpus()


def _full_path(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (abuse_lexicon, harassment, hate):
        monkeypatch.setattr(module, "plain_words", lambda _text: None)
    _clear_memos()


def _clear_memos() -> None:
    """The per-text memos would otherwise answer the second run from the first one's results."""
    abuse_lexicon.scan.cache_clear()
    harassment._verdict.cache_clear()
    hate._verdict.cache_clear()


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
    _clear_memos()
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
