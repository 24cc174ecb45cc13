"""The policy file: the shipped one reads as the ladder always was; a bad one is refused with
its line; a changed one changes the decisions and is stamped on them; SnapCam misuse costs
SnapCam."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest

from railbird.rules.policy import RuleBook
from railbird.rules.policy_file import (
    PolicyError,
    default_policy,
    default_policy_text,
    parse_policy,
)
from railbird.rules.policy_watch import PolicyWatch
from tests.rules.test_policy import flag


def test_the_shipped_policy_is_the_ladder_the_house_rules_ask_for() -> None:
    policy = default_policy()
    assert policy.strike_window == timedelta(hours=24)
    assert policy.ladders["profanity"][0] == ("warn", None)
    assert policy.ladders["in_hand_influence"][-1] == ("suspend_communication", timedelta(days=1))
    assert "bounty_collusion" in policy.only_refer and "bounty_collusion" not in policy.ladders
    book = RuleBook(policy)
    (action,) = book.decide(flag("profanity", 0))
    assert action.reason.endswith(f"; policy {policy.version}")


def _replace(old: str, new: str) -> str:
    text = default_policy_text()
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            _replace(
                '{ kind = "warn" }, { kind = "mute_chat", minutes = 10 }', '{ kind = "shout" }'
            ),
            "unknown kind 'shout'",
        ),
        (_replace("[ladders.spam]", "[ladders.spamm]"), "unknown category 'spamm'"),
        (
            _replace('only = ["coordinated_sit_out"', 'only = ["spam", "coordinated_sit_out"'),
            "'spam' is in [refer] only",
        ),
        (_replace("strike_window_hours = 24", "strike_window_hours = true"), "strike_window_hours"),
        (_replace("minutes = 43200", "minutes = -1"), "minutes must be"),
        (_replace('version = "2026-12-03.1"', 'version = "x"\nmystery = 1'), "unknown setting"),
        (_replace("[refer]", "[refer"), "not TOML"),
    ],
)
def test_a_bad_policy_is_refused_naming_the_line(text: str, message: str) -> None:
    with pytest.raises(PolicyError, match="line") as caught:
        parse_policy(text, "my-policy.toml")
    assert message in str(caught.value) and "my-policy.toml" in str(caught.value)


def test_the_line_named_is_the_one_at_fault() -> None:
    text = _replace("[ladders.spam]", "[ladders.spamm]")
    line = next(n for n, t in enumerate(text.splitlines(), 1) if t.startswith("[ladders.spamm]"))
    with pytest.raises(PolicyError, match=f"line {line}:"):
        parse_policy(text, "p.toml")


def test_a_changed_policy_changes_the_decisions_and_a_watched_file_is_followed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(default_policy_text())
    watch = PolicyWatch(path, every=0.0)
    assert RuleBook(watch.current()).decide(flag("profanity", 0))[0].kind == "warn"
    stricter = _replace(
        '{ kind = "warn" }, { kind = "mute_chat", minutes = 10 }',
        '{ kind = "chat_ban", minutes = 10 }',
    ).replace('version = "2026-12-03.1"', 'version = "strict-1"')
    time.sleep(0.01)
    path.write_text(stricter)
    assert watch.changed()
    (action,) = RuleBook(watch.current()).decide(flag("profanity", 0))
    assert (action.kind, action.duration) == ("chat_ban", timedelta(minutes=10))
    assert action.reason.endswith("; policy strict-1")
    path.write_text("this is not a policy [")
    assert not watch.changed() and watch.current().version == "strict-1"
    with pytest.raises(PolicyError):
        watch.reload()


def test_snapcam_misuse_costs_snapcam_as_well_as_the_ladder_step() -> None:
    book = RuleBook(default_policy())
    kinds = [a.kind for a in book.decide(flag("harassment", 0), medium="snapcam")]
    assert kinds == ["mute_chat", "snapcam_ban"]
    assert [a.kind for a in book.decide(flag("harassment", 60), medium="text")] == ["mute_chat"]
    (ban,) = [a for a in book.decide(flag("profanity", 90), "snapcam") if a.kind == "snapcam_ban"]
    assert ban.duration == timedelta(days=30) and "by SnapCam" in ban.reason


def test_referral_only_categories_are_never_restricted() -> None:
    actions = RuleBook(default_policy()).decide(flag("soft_play", 0, severity="critical"))
    assert [a.kind for a in actions] == ["refer_investigator"]
