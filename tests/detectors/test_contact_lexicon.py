"""`ascii_words` keeps its last answer: it must never serve it for a different text."""

from __future__ import annotations

import re

import pytest

from railbird.detectors.text.contact_lexicon import ascii_words


def _oracle(text: str) -> tuple[str, ...] | None:
    return tuple(re.findall(r"\w+", text, re.ASCII)) if text.isascii() else None


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("add me on telegram", "add me on telegrem"),
        ("add me on telegram", "add me on telegram "),
        ("dm me", "dm m\u00e9"),  # the same length, but not ASCII
        ("", "gg"),
        ("gg", ""),
    ],
)
def test_the_last_answer_is_never_served_for_a_near_miss(first: str, second: str) -> None:
    assert ascii_words(first) == _oracle(first)
    assert ascii_words(second) == _oracle(second)
    assert ascii_words(second) == _oracle(second)
    assert ascii_words(first) == _oracle(first)


def test_words_are_lower_case_word_runs() -> None:
    assert ascii_words("hit me @ Dealz_99, ok?") == ("hit", "me", "dealz_99", "ok")
    assert ascii_words("caf\u00e9 au lait") is None
