from __future__ import annotations

import pytest

from railbird.detectors.chat import personal_info as personal
from railbird.detectors.chat.advertising import Advertising
from railbird.detectors.chat.personal_info import PersonalInfo
from railbird.detectors.state import TtlState
from railbird.detectors.text import pii_patterns as pii
from railbird.detectors.text.contact_lexicon import ascii_words
from tests.builders import chat
from tests.detectors.test_chat_gates import corpus, ref_find_pii, ref_solicitation


def categories(text: str, channel: str = "table") -> dict[str, str]:
    recipient = "p-2" if channel == "private" else None
    found = PersonalInfo().detect(chat(text, channel=channel, recipient=recipient), TtlState())
    return {f.category: f.evidence.summary for f in found}


@pytest.mark.parametrize(
    "text",
    [
        "ann whats your real name and number? add me on whatsapp",
        "what's your email",
        "can i get ur phone number",
        "add me on discord",
        "where do u live",
        "what city and street do you live on",
        "send me your home address",
        "do you have snapchat?",
    ],
)
def test_solicitation(text: str) -> None:
    assert list(categories(text)) == ["pii_solicitation"]


@pytest.mark.parametrize(
    ("text", "kinds"),
    [
        ("call me 555-123-4567", "phone"),
        ("whatsapp +44 7700 900123", "phone"),
        ("my number is 07700900123", "phone"),
        ("mail me bob.smith@gmail.com", "email"),
        ("john dot doe at gmail dot com", "email"),
        ("card 4111 1111 1111 1111 exp 12/29", "card"),
        ("i live at 221 baker street", "address"),
        ("my addy is 14 elm drive", "address"),
    ],
)
def test_disclosure(text: str, kinds: str) -> None:
    found = categories(text)
    assert found["pii_disclosure"] == f"message discloses personal data: {kinds} (redacted)"


@pytest.mark.parametrize(
    "text",
    [
        "what's your stack",
        "whats ur hand there",
        "your number of outs is 9",
        "raise to 1500 2500 3500",
        "pot 1,250,000 chips",
        "hand #4111111111111111",
        "hand 23456789012 was rigged",
        "at 20:15 i shove",
        "blinds 500/1000 ante 100",
        "I raised 3 times on the road",
        "we went 5 handed all the way",
        "4111 1111 1111 1112 chips lol",
        "msg me on telegram @chipdealz for rakeback",
        "use code POKER100 at luckyspins.io",
        "is that your screen name",
        "nice hand",
    ],
)
def test_poker_numbers_and_talk_pass(text: str) -> None:
    assert categories(text) == {}


def test_evidence_never_contains_the_value() -> None:
    found = PersonalInfo().detect(chat("call me 555-123-4567"), TtlState())
    assert "555" not in found[0].evidence.summary
    assert "555" not in str(found[0].evidence.measures)


def test_private_solicitation_is_high() -> None:
    found = PersonalInfo().detect(
        chat("whats your email", channel="private", recipient="p-2"), TtlState()
    )
    assert found[0].severity == "high"


def test_reading_equals_the_ungated_readings_on_every_corpus_text() -> None:
    """`_read` shares one lower-casing and one word split between both readings and memoises
    them; the oracles are the ungated pattern runs of tests/detectors/test_chat_gates.py."""
    asked = 0
    for text in corpus():
        spans = ref_find_pii(text)
        expected = (tuple(sorted({s.kind for s in spans})), len(spans), ref_solicitation(text))
        lowered = text.lower()
        assert pii.find_pii(text, lowered, ascii_words(lowered)) == spans, text
        assert personal._read(text) == expected, text
        assert personal._read(text) == expected, text  # from the memo
        asked += expected[2] is not None
    assert asked > 50


@pytest.mark.parametrize(
    "text",
    [
        "whats your real na\u212ae",  # the Kelvin sign lower-cases to an ASCII "k"
        "call me on 0207\u212a946 0018",
        "my number is 0207 946 0018",
        "my number is 0207 946 001",  # near miss: one digit short
        "add me on telegram",
        "add me on telegrem",  # near miss: no messenger
    ],
)
def test_shared_lowering_agrees_on_corners(text: str) -> None:
    lowered = text.lower()
    assert pii.find_pii(text, lowered, ascii_words(lowered)) == pii.find_pii(text)
    assert personal._read(text)[2] == ref_solicitation(text)
    assert personal._read(text)[:2] == (
        tuple(sorted({s.kind for s in ref_find_pii(text)})),
        len(ref_find_pii(text)),
    )


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("what's your email?", '"what\'s your email"'),
        ("whats ur e mail", '"whats ur e mail"'),
        ("what's your e-mail address", '"what\'s your e-mail address"'),
        ("send me ur mail id", '"send me ur mail id"'),
        ("whats your gmail", '"whats your gmail"'),
        ("yr email?", '"yr email"'),
        ("drop me your email and i'll send the details", '"drop me your email"'),
        ("your e mail pls", '"your e mail"'),
    ],
)
def test_requests_for_an_email_address(text: str, asked: str) -> None:
    """Issue 16: the spellings of "e-mail" people type, all asked for."""
    found = categories(text)
    assert found == {"pii_solicitation": f"asks for personal contact details: {asked}"}


@pytest.mark.parametrize(
    "text",
    [
        "email me the hand history later",  # an offer to be written to, no ask
        "my gmail got hacked lol",
        "the mail is slow today",
        "yr stack is bigger than mine",
        "e mail from the site said the freeroll moved",
    ],
)
def test_email_talk_that_asks_for_nothing_passes(text: str) -> None:
    assert categories(text) == {}


def test_an_ask_with_a_pitch_is_also_advertising() -> None:
    """The ask stays a solicitation here; `advertising` flags the pitch beside it (one shared
    reading of the ask, `contact_lexicon.CONTACT_REQUEST`)."""
    text = "send me your email for free chips"
    assert categories(text) == {
        "pii_solicitation": 'asks for personal contact details: "send me your email"'
    }
    ads = Advertising().detect(chat(text), TtlState())
    assert [f.category for f in ads] == ["advertising"]
    assert Advertising().detect(chat("send me your email"), TtlState()) == []
