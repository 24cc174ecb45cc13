from __future__ import annotations

import pytest

from detectors.personal_info import PersonalInfo
from detectors.state import TtlState
from tests.builders import chat


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
