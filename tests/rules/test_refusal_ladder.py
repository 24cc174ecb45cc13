"""The refusal-to-play ladder (house rule "Cash tables"): per player and blind level, over any
12 hours; 1st nothing, 2nd a 5-minute join block, 3rd 15, 4th 30, 5th and later 60."""

from __future__ import annotations

from datetime import timedelta

import pytest

from railbird.detectors.findings import Evidence, Finding
from railbird.rules.actions import Action
from railbird.rules.escalation import Escalation, Raised, place_of
from railbird.rules.flags import Flag
from railbird.rules.policy import Offence, RuleBook
from railbird.rules.policy_file import PolicyError, default_policy_text, parse_policy
from tests.builders import at

HOUR = 3600.0


def refusal(t: float, level: str = "1/2", player: str = "p-1") -> Flag:
    return Flag.from_finding(
        Finding(
            detector="leave_refusal",
            category="refusal_to_play",
            severity="low",
            score=1.0,
            ts=at(t),
            player_ids=(player,),
            table_id="t-c1",
            dedupe_key=f"e-leave-{player}-{t}-{level}",
            evidence=Evidence(
                kind="refusal_to_play",
                summary="left after 2 hands",
                measures={"blind_level": level, "hands_played": 2},
            ),
        )
    )


def blocks(book: RuleBook, flags: list[Flag]) -> list[float | None]:
    """The block each flag earned, in minutes (None: no action)."""
    out: list[float | None] = []
    for f in flags:
        actions = book.decide(f)
        assert len(actions) <= 1
        out.append(
            actions[0].duration.total_seconds() / 60 if actions and actions[0].duration else None
        )
    return out


def test_the_ladder_is_none_5_15_30_then_60_for_ever() -> None:
    flags = [refusal(k * 600) for k in range(7)]
    assert blocks(RuleBook(), flags) == [None, 5, 15, 30, 60, 60, 60]


def test_a_refusal_12_hours_and_1_minute_ago_no_longer_counts() -> None:
    book = RuleBook()
    assert blocks(book, [refusal(0), refusal(120)]) == [None, 5]
    # At 12 h + 1 min the first has left the window; the second (11 h 59 min ago) has not.
    assert blocks(book, [refusal(12 * HOUR + 60)]) == [5]
    assert blocks(RuleBook(), [refusal(0), refusal(12 * HOUR - 60)]) == [None, 5]
    exactly = RuleBook()
    assert blocks(exactly, [refusal(0), refusal(12 * HOUR)]) == [None, None]  # "within" 12 h


def test_refusals_at_one_level_do_not_block_another() -> None:
    book = RuleBook()
    assert blocks(book, [refusal(0, "1/2"), refusal(60, "1/2"), refusal(120, "2/5")]) == [
        None,
        5,
        None,
    ]
    assert blocks(book, [refusal(180, "2/5"), refusal(240, "1/2")]) == [5, 15]


def test_refusals_are_counted_per_player() -> None:
    book = RuleBook()
    assert blocks(book, [refusal(0, player="p-1"), refusal(60, player="p-2")]) == [None, None]


def test_the_action_is_a_join_block_at_that_level_with_its_end() -> None:
    book = RuleBook()
    book.decide(refusal(0, "50/100"))
    (action,) = book.decide(second := refusal(600, "50/100"))
    assert action.kind == "block_table_join" and action.restricts
    assert action.player_id == "p-1" and action.flag_ids == (second.flag_id,)
    assert action.scope == "50/100" and action.expires_at == at(600) + timedelta(minutes=5)
    shape = action.to_dict()
    assert shape["blind_level"] == "50/100" and shape["duration_s"] == 300
    assert "blind level 50/100" in action.reason and "refusal 2 in 12 h" in action.reason
    assert action.reason.endswith(f"policy {book.policy.version}")


def test_the_ladder_and_window_are_policy() -> None:
    text = default_policy_text().replace(
        "window_hours = 12\nblock_minutes = [0, 5, 15, 30, 60]",
        "window_hours = 1\nblock_minutes = [10]",
    )
    book = RuleBook(parse_policy(text, "test"))
    assert blocks(book, [refusal(0), refusal(2 * HOUR)]) == [10, 10]
    assert book.policy.describe()["refusals"] == {"window_hours": 1.0, "block_minutes": [10.0]}


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("window_hours = 12", "window_hours = 0", "window_hours must be"),
        ("block_minutes = [0, 5, 15, 30, 60]", "block_minutes = []", "non-empty list"),
        ("block_minutes = [0, 5, 15, 30, 60]", "block_minutes = [0, -5]", "refusal 2's block"),
        ("window_hours = 12", "window_hours = 12\nstrikes = 3", "[refusals] takes"),
    ],
)
def test_a_bad_refusals_table_is_refused_with_its_line(old: str, new: str, message: str) -> None:
    text = default_policy_text()
    assert old in text
    with pytest.raises(PolicyError, match=r"line \d+") as raised:
        parse_policy(text.replace(old, new), "test.toml")
    assert message in str(raised.value)


def test_refusals_cannot_also_have_an_ordinary_ladder_referral_or_snapcam_ban() -> None:
    text = default_policy_text() + '\n[ladders.refusal_to_play]\nsteps = [{ kind = "warn" }]\n'
    with pytest.raises(PolicyError, match="own ladder"):
        parse_policy(text, "test.toml")
    for old, new in (
        ('categories = ["hate",', 'categories = ["refusal_to_play", "hate",'),
        ('ban_categories = ["profanity",', 'ban_categories = ["refusal_to_play", "profanity",'),
    ):
        assert old in default_policy_text()
        with pytest.raises(PolicyError, match=r"line \d+: 'refusal_to_play' is decided by"):
            parse_policy(default_policy_text().replace(old, new), "test.toml")


def test_the_escalation_stage_counts_levels_as_scan_does_and_keeps_them_in_its_snapshot() -> None:
    """Offences carry their level to the player's escalation partition; a restart restores
    the refusals in the window from the snapshot."""
    flags = [refusal(k * 600, level) for k, level in enumerate(["1/2", "1/2", "2/5", "1/2"])]
    expected = []
    book = RuleBook()
    for f in flags:
        expected.extend(book.decide(f))

    def raise_(f: Flag, n: int) -> Raised:
        return Raised(
            Offence.of(f, "p-1"), f.finding.ts, place_of("table", f"e-{n}", "leave_refusal", 0)
        )

    first = Escalation(["site"])
    decided: list[Action] = []
    for n, f in enumerate(flags[:2]):
        first.offer(raise_(f, n))
    decided += first.mark("site", at(1_000))
    restarted = Escalation(["site"])
    restarted.restore(first.snapshot())
    for n, f in enumerate(flags[2:], 2):
        restarted.offer(raise_(f, n))
    decided += restarted.mark("site", at(10_000))
    assert [(a.kind, a.scope, a.duration) for a in decided] == [
        (a.kind, a.scope, a.duration) for a in expected
    ]
    assert [a.scope for a in decided] == ["1/2", "1/2"]
