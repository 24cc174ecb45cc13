"""Refusal to play (house rule "Cash tables"), clause by clause: the 10-hand line, zero hands,
both exceptions (everyone else sitting out, alone), both excluded formats, tournaments, and
where the blind level is read from."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest

from railbird.detectors.cash.leave_refusal import LeaveRefusal, blind_level
from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import hand, table

OTHERS = ("p-b", "p-c")
LEVEL = {"small_blind": 100, "big_blind": 200}


@dataclass(frozen=True)
class Session:
    """p-a joins a cash table where p-b and p-c already sit, is dealt `hands`, and leaves."""

    hands: int
    sitting_out: tuple[str, ...] = ()  # others who sit out before p-a leaves
    leave_first: tuple[str, ...] = ()  # others who leave before p-a does
    join_fields: dict[str, Any] = field(default_factory=lambda: dict(LEVEL))
    tournament: str | None = None
    hand_blinds: tuple[int, int, int] | None = None  # finished hand histories, if sent
    start_fields: dict[str, Any] = field(default_factory=dict)
    others_seen_joining: bool = True


def events_of(s: Session) -> list[AnyEvent]:
    def t(action: str, at: float, **kw: Any) -> AnyEvent:
        return table(action, t=at, table_id="t-c1", tournament=s.tournament, **kw)

    out: list[AnyEvent] = []
    if s.others_seen_joining:
        out += [t("join", 0, player=p, extra=s.join_fields) for p in OTHERS]
    out.append(t("join", 10, player="p-a", extra=s.join_fields))
    clock = 20.0
    for n in range(s.hands):
        hid = f"h-{n}"
        dealt = ["p-a", *OTHERS]
        out.append(t("hand_start", clock, hand_id=hid, players=dealt, extra=s.start_fields))
        out.append(t("hand_end", clock + 40, hand_id=hid))
        if s.hand_blinds is not None:
            seats = [{"seat": k + 1, "player_id": p, "stack": 10_000} for k, p in enumerate(dealt)]
            out.append(
                hand(
                    hid,
                    start=clock,
                    end=clock + 40,
                    seats=seats,
                    table_id="t-c1",
                    tournament=s.tournament,
                    blinds=s.hand_blinds,
                )
            )
        clock += 45
    for p in s.sitting_out:
        out.append(t("sit_out", clock, player=p))
    for p in s.leave_first:
        out.append(t("leave", clock + 1, player=p))
    out.append(t("leave", clock + 5, player="p-a", event_id="e-leave-a"))
    return out


def run(events: list[AnyEvent], detector: LeaveRefusal | None = None) -> list[Finding]:
    det = detector or LeaveRefusal()
    state = TtlState()
    found: list[Finding] = []
    for event in events:
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


def fmt(table_format: str) -> dict[str, Any]:
    return {**LEVEL, "table_format": table_format}


CASES = {
    # the 10-hand line
    "one hand then leave": (Session(hands=1), True),
    "nine hands is a refusal": (Session(hands=9), True),
    "ten hands is not": (Session(hands=10), False),
    "twenty hands is not": (Session(hands=20), False),
    "zero hands is not": (Session(hands=0), False),
    # the exceptions
    "every other player sitting out": (Session(hands=3, sitting_out=OTHERS), False),
    "one other player sitting out, one playing": (Session(hands=3, sitting_out=("p-b",)), True),
    "alone at the table": (Session(hands=3, leave_first=OTHERS), False),
    "the one left sits out": (Session(hands=3, leave_first=("p-b",), sitting_out=("p-c",)), False),
    # the formats
    "ring game (named)": (Session(hands=3, join_fields=fmt("ring")), True),
    "Rush & Cash": (Session(hands=3, join_fields=fmt("rush_and_cash")), False),
    "All-In or Fold": (Session(hands=3, join_fields=fmt("all_in_or_fold")), False),
    "format named on hand_start": (
        Session(hands=3, start_fields={"table_format": "all_in_or_fold"}),
        False,
    ),
    # tournaments are not cash tables
    "tournament table": (Session(hands=3, tournament="trn-1"), False),
}  # fmt: skip


@pytest.mark.parametrize("name", CASES)
def test_each_clause_of_the_rule(name: str) -> None:
    session, refusal = CASES[name]
    # Others who leave first after a few hands refuse too; the case is about p-a.
    found = [f for f in run(events_of(session)) if f.player_ids == ("p-a",)]
    assert len(found) == int(refusal), [f.evidence.summary for f in found]
    if refusal:
        (f,) = found
        assert f.category == "refusal_to_play" and f.player_ids == ("p-a",)
        assert f.table_id == "t-c1" and f.dedupe_key == "e-leave-a"
        assert f.evidence.measures["hands_played"] == session.hands


def test_the_evidence_names_the_table_hands_times_and_the_others_state() -> None:
    (f,) = run(events_of(Session(hands=4, sitting_out=("p-b",))))
    m = f.evidence.measures
    assert m["blind_level"] == "100/200" and m["table_format"] == "ring"
    assert m["others_seated"] == 2 and m["others_sitting_out"] == 1
    assert m["joined_at"] is not None and m["left_at"] > m["joined_at"]
    assert f.evidence.event_ids[-1] == "e-leave-a" and len(f.evidence.event_ids) == 2
    assert "4 hands" in f.evidence.summary and "100/200" in f.evidence.summary
    assert f.severity == "low" and f.score == 1.0


@pytest.mark.parametrize(
    ("session", "level"),
    [
        (Session(hands=2), "100/200"),  # from the join
        (Session(hands=2, join_fields={}, start_fields={"small_blind": 5, "big_blind": 10}),
         "5/10"),
        (Session(hands=2, join_fields={}, hand_blinds=(25, 50, 0)), "25/50"),  # latest hand
        (Session(hands=2, join_fields={}), "unknown"),  # nothing said it
    ],
    ids=["join", "hand_start", "latest hand", "unknown"],
)  # fmt: skip
def test_the_blind_level_comes_from_the_join_the_hand_start_or_the_latest_hand(
    session: Session, level: str
) -> None:
    (f,) = run(events_of(session))
    assert f.evidence.measures["blind_level"] == level


def test_a_player_seated_before_railbird_watched_is_never_flagged() -> None:
    """p-b and p-c were seated before the stream began: their hand counts are unknown, so their
    short-looking stays prove nothing; they still count as others seated for p-a."""
    events = events_of(Session(hands=3, others_seen_joining=False))
    events.append(table("leave", t=9_000, table_id="t-c1", tournament=None, player="p-b"))
    found = run(events)
    assert [f.player_ids for f in found] == [("p-a",)]


def test_a_rejoin_starts_a_new_count_and_each_short_stay_is_its_own_refusal() -> None:
    first = events_of(Session(hands=2))
    again = [
        table("join", t=500, table_id="t-c1", tournament=None, player="p-a", extra=dict(LEVEL)),
        table("hand_start", t=510, table_id="t-c1", tournament=None, hand_id="h-x",
              players=["p-a", *OTHERS]),
        table("leave", t=560, table_id="t-c1", tournament=None, player="p-a"),
    ]  # fmt: skip
    found = run(first + again)
    assert [f.evidence.measures["hands_played"] for f in found] == [2, 1]
    assert len({f.dedupe_key for f in found}) == 2


def test_the_limit_is_a_setting() -> None:
    assert not run(events_of(Session(hands=5)), LeaveRefusal(min_hands=5))
    assert run(events_of(Session(hands=4)), LeaveRefusal(min_hands=5))


def test_blind_level_names() -> None:
    assert blind_level(50, 100) == "50/100"
    assert blind_level(None, None) == blind_level(0, 0) == "unknown"
