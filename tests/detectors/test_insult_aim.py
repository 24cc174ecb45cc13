"""Who an insult word is aimed at: read from a few words around it, never from the word alone."""

from __future__ import annotations

import pytest

from railbird.detectors.chat.insult_aim import AIMED, Strength, aim_of, subject_of


def aim(text: str, word: str, strength: Strength = "label", mention_at: int | None = None) -> str:
    words = text.replace("?", "").split()
    mentions = frozenset() if mention_at is None else frozenset({mention_at})
    return aim_of(
        words,
        words.index(word),
        mentions=mentions,
        strength=strength,
        question="?" in text,
    )


@pytest.mark.parametrize(
    ("text", "word", "strength", "expected"),
    [
        ("you noob", "noob", "label", "you"),
        ("noob u", "noob", "label", "you"),
        ("you re such a noob", "noob", "label", "you"),
        ("ur trash", "trash", "weak", "you"),
        ("u might be stupid", "stupid", "weak", "you"),
        ("my team is trash", "trash", "weak", "team"),
        ("noob team", "noob", "label", "team"),
        ("report this trash", "trash", "weak", "report"),
        ("fucking noob", "noob", "label", "pointed"),
        ("trash players", "trash", "weak", "pointed"),
        ("gg noob", "noob", "label", "vocative"),
        ("noob sf", "noob", "label", "vocative"),
        ("he s a noob at this", "noob", "label", "third"),
        ("they trash", "trash", "weak", "third"),
        ("bob is a noob", "noob", "label", "third"),
        ("you bot", "bot", "weakest", "you"),
        ("u r a bot", "bot", "weakest", "you"),
    ],
)
def test_aimed_uses(text: str, word: str, strength: Strength, expected: str) -> None:
    assert aim(text, word, strength) == expected


@pytest.mark.parametrize(
    ("text", "word", "strength", "expected"),
    [
        ("i m such a noob", "noob", "label", "self"),
        ("we were all noobs once", "noobs", "label", "self"),
        ("noob here first tourney", "noob", "label", "self"),
        ("i played that like a total noob", "noob", "label", "self"),
        ("noob question", "noob", "label", "thing"),
        ("trash hand", "trash", "weak", "thing"),
        ("my hand is trash", "trash", "weak", "thing"),
        ("that river was trash", "trash", "weak", "thing"),
        ("this is trash", "trash", "weak", "thing"),
        ("any noobs here?", "noobs", "label", "players"),
        ("tips for noobs", "noobs", "label", "players"),
        ("bot at seat 3?", "bot", "weakest", "unclear"),
        ("are you a bot?", "bot", "weakest", "unclear"),
        ("nice hand monkey", "monkey", "weakest", "unclear"),
        ("lakers are trash", "trash", "weak", "unclear"),
        ("you take out the trash", "trash", "weak", "unclear"),
    ],
)
def test_near_misses_are_not_aimed(text: str, word: str, strength: Strength, expected: str) -> None:
    found = aim(text, word, strength)
    assert found == expected
    assert found not in AIMED


def test_a_mention_aims_only_when_it_names_the_insulted() -> None:
    assert aim("@bob noob", "noob", mention_at=0) == "you"
    assert aim("@bob ur trash", "trash", "weak", mention_at=0) == "you"
    # a tweet's routing mention before a remark about someone else
    assert aim("@bob lakers trash", "trash", "weak", mention_at=0) == "unclear"


@pytest.mark.parametrize(
    ("text", "word", "subject"),
    [
        ("you are such a noob", "noob", "you"),
        ("ur trash", "trash", "you"),
        ("im a noob", "noob", "i"),
        ("my hand is trash", "trash", "hand"),
        ("you will always be a noob", "noob", "you"),
        ("trash hand", "trash", None),
    ],
)
def test_subject_of_a_predicated_insult(text: str, word: str, subject: str | None) -> None:
    words = text.split()
    assert subject_of(words, words.index(word)) == subject
