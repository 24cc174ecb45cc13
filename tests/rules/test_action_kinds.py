"""The action kinds and what each restriction stops: one table the chat check, the join check,
the store and the policy file read."""

from __future__ import annotations

import pytest

from railbird.detectors.events import MESSAGE_KINDS
from railbird.rules.action_kinds import (
    ACTION_KINDS,
    LADDER_KINDS,
    RESTRICTING_KINDS,
    RESTRICTION_KINDS,
    STOPS,
    UNTIMED_KINDS,
    stops,
)
from railbird.rules.policy_file import PolicyError, parse_policy

ACTIVITIES = (*MESSAGE_KINDS, "table_join")


@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_a_restriction_stops_something_and_nothing_else_stops_anything(kind: str) -> None:
    stopped = {a for a in ACTIVITIES if stops(kind, a)}
    assert bool(stopped) == (kind in RESTRICTING_KINDS)


def test_what_each_restriction_stops() -> None:
    assert set(STOPS) == set(RESTRICTION_KINDS) == RESTRICTING_KINDS
    assert {k: {a for a in ACTIVITIES if stops(k, a)} for k in RESTRICTION_KINDS} == {
        "mute_chat": {"text", "emoji"},
        "chat_ban": {"text", "emoji"},
        "snapcam_ban": {"snapcam"},
        "suspend_communication": {"text", "emoji", "snapcam"},
        "block_table_join": {"table_join"},
    }


def test_the_restrict_form_offers_the_mildest_chat_restriction_first() -> None:
    assert RESTRICTION_KINDS[0] == "mute_chat"
    assert set(ACTION_KINDS) >= UNTIMED_KINDS and not UNTIMED_KINDS & RESTRICTING_KINDS


@pytest.mark.parametrize(
    ("step", "message"),
    [
        ('{ kind = "block_table_join", minutes = 5 }', "unknown kind 'block_table_join'"),
        ('{ kind = "lift" }', "unknown kind 'lift'"),
        ('{ kind = "warn", minutes = 5 }', "a warn has no `minutes`"),
    ],
)
def test_a_ladder_takes_only_the_kinds_a_ladder_may_give(step: str, message: str) -> None:
    assert "block_table_join" not in LADDER_KINDS and "lift" not in LADDER_KINDS
    text = f'version = "t"\n\n[ladders.spam]\nsteps = [{step}]\n'
    with pytest.raises(PolicyError) as refused:
        parse_policy(text, "policy.toml")
    assert message in str(refused.value) and "policy.toml line 3:" in str(refused.value)
