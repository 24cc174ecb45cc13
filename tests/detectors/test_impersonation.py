"""Impersonation: staff claims, phishing and staff-dressed names; talk about staff passes."""

from __future__ import annotations

import pytest

from railbird.detectors.chat.impersonation import Impersonation, staff_name
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import chat


def detect(text: str, screen_name: str | None = None, player: str = "p-1") -> list[Finding]:
    return Impersonation().detect(chat(text, screen_name=screen_name, player=player), TtlState())


@pytest.mark.parametrize(
    ("text", "severity", "tiers"),
    [
        (
            "ULTIMATE POKER SUPPORT here: your account is locked, send your password to verify",
            "critical",
            ["claim", "phishing", "urgency"],
        ),
        ("I am a moderator, give me your login to fix the bug", "critical", ["claim", "phishing"]),
        ("Admin here. send me the code we texted you", "critical", ["claim", "phishing"]),
        ("send me your password and i'll add chips", "high", ["phishing"]),
        ("this is support, your account is locked", "high", ["claim", "urgency"]),
        ("i'm a mod, behave or i ban you", "medium", ["claim"]),
        ("ѕupport here, your account is locked", "high", ["claim", "urgency"]),
        (
            "SUPP0RT here, your acc0unt is l0cked, send your passw0rd",
            "critical",
            ["claim", "phishing", "urgency"],
        ),
    ],
)
def test_claims_and_phishing_are_flagged(text: str, severity: str, tiers: list[str]) -> None:
    (finding,) = detect(text)
    assert finding.category == "impersonation"
    assert finding.severity == severity
    assert finding.evidence.measures["tiers"] == tiers


@pytest.mark.parametrize(
    "text",
    [
        "support told me to restart the client",
        "mod is slow today",
        "any mod here? table seems frozen",
        "I'm not a mod, just a reg",
        "I was a mod on a forum years ago",
        "I work in security, boring job",
        "this is a security issue, tell support",
        "never share your password with anyone",
        "dont give your pw to anyone claiming to be staff",
        "my account got locked yesterday, support fixed it",
        "what's the password for the private home game?",
        "the staff here are great",
        "you should ask support",
        "this is the best poker room",
    ],
)
def test_talk_about_staff_is_not_impersonation(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("name", "dressed"),
    [
        ("Support_Team", True),
        ("ADMlN", True),
        ("Admin_Joe", True),
        ("Mod-Kate", True),
        ("PokerSupport", True),
        ("ModeratorMike", True),
        ("0fficial_Host", True),
        ("BadmintonKing", False),
        ("ModernArt", False),
        ("Stafford", False),
        ("AceHunter", False),
        (None, False),
    ],
)
def test_staff_dressed_screen_names(name: str | None, dressed: bool) -> None:
    assert staff_name(name) is dressed


def test_staff_name_alone_is_one_stable_flag_per_player() -> None:
    first = detect("gg all", screen_name="Support_Team")
    second = detect("nice hand", screen_name="Support_Team")
    assert [f.severity for f in first] == ["medium"]
    assert first[0].identity == second[0].identity
    assert "staff-like screen name 'support_team'" in first[0].evidence.summary


def test_real_staff_accounts_are_exempt() -> None:
    detector = Impersonation(staff_player_ids=frozenset({"p-staff"}))
    event = chat("Support here, please send your password", player="p-staff", screen_name="Support")
    assert detector.detect(event, TtlState()) == []


@pytest.mark.parametrize(
    ("text", "severity"),
    [
        ("admin here. send me the code we texted7you", "critical"),  # staff claim + the ask
        ("send me the code we sentyou now", "high"),  # a word glued to "sent"
        ("send me the code we sell", None),  # "sell" is not "sent"
    ],
)
def test_the_sent_code_ask_survives_a_glued_word(text: str, severity: str | None) -> None:
    # The word gate once required "texted" as a whole word, while the pattern it guards matches
    # "the code we texted" inside "textedtyou": the gate hid a phishing ask the pattern sees.
    found = Impersonation().detect(chat(text), TtlState())
    assert [f.severity for f in found] == ([severity] if severity else [])
