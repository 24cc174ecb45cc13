"""`ascii_words` keeps its last answer: it must never serve it for a different text."""

from __future__ import annotations

import re

import pytest

from railbird.detectors.text.contact_lexicon import CONTACT_REQUEST, ascii_words, may_ask_contact


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


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("send me your email for the deal", "send me your email"),
        ("drop yr number", "drop yr number"),
        ("give me ur e-mail", "give me ur e-mail"),
        ("reply with your name and age", "reply with your name"),
        ("txt back NAME & AGE", "txt back name & age"),
        ("email me for details", "email me"),
        ("e-mail us today", "e-mail us"),
    ],
)
def test_contact_requests(text: str, asked: str) -> None:
    lowered = text.lower()
    assert may_ask_contact(lowered)
    found = CONTACT_REQUEST.search(lowered)
    assert found is not None
    assert found.group(0) == asked


@pytest.mark.parametrize(
    "text",
    [
        "what's your stack",
        "send it",
        "tell me your outs",
        "your number of outs is 9",
        "my gmail got hacked",
        "the mail is slow",
        "name the river card",
    ],
)
def test_poker_talk_asks_for_no_contact(text: str) -> None:
    assert CONTACT_REQUEST.search(text.lower()) is None
