"""The escalation ladder: strikes within a window climb, old strikes are forgotten."""

from __future__ import annotations

from datetime import timedelta

import pytest

from railbird.detectors.findings import Category, Evidence, Finding, Severity
from railbird.rules.flags import Flag
from railbird.rules.policy import RuleBook
from tests.builders import at


def flag(category: Category, t: float, severity: Severity = "medium", player: str = "p-1") -> Flag:
    return Flag.from_finding(
        Finding(
            detector="test",
            category=category,
            severity=severity,
            score=0.9,
            ts=at(t),
            player_ids=(player,),
            evidence=Evidence(kind="test", summary="test"),
            message_ids=(f"m-{t}",),
        )
    )


def test_profanity_climbs_warn_then_mutes() -> None:
    book = RuleBook()
    steps = [book.decide(flag("profanity", t)) for t in (0, 60, 120)]
    assert [(a.kind, a.duration) for (a,) in steps] == [
        ("warn", None),
        ("mute_chat", timedelta(minutes=10)),
        ("mute_chat", timedelta(hours=1)),
    ]


def test_strikes_expire_after_the_window() -> None:
    book = RuleBook()
    book.decide(flag("profanity", 0))
    (action,) = book.decide(flag("profanity", 2 * 86400))
    assert action.kind == "warn"


def test_critical_in_hand_leak_suspends_and_refers() -> None:
    actions = RuleBook().decide(flag("in_hand_influence", 0, severity="critical"))
    assert {a.kind for a in actions} == {"suspend_communication", "refer_investigator"}


@pytest.mark.parametrize("category", ["coordinated_sit_out", "bounty_collusion", "chip_dumping"])
def test_collusion_is_referred_never_punished_automatically(category: Category) -> None:
    actions = RuleBook().decide(flag(category, 0, severity="high"))
    assert [a.kind for a in actions] == ["refer_investigator"]


def test_action_ids_are_deterministic() -> None:
    first = RuleBook().decide(flag("harassment", 0))
    second = RuleBook().decide(flag("harassment", 0))
    assert [a.action_id for a in first] == [a.action_id for a in second]
