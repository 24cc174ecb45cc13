"""Coordinated sit-outs: coinciding onsets flag; breaks, mass drops and lone sit-outs do not."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from railbird.detectors.collusion.coordinated_sit_out import CoordinatedSitOut
from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import chat, table

FIELD = [f"p-{i:03d}" for i in range(60)]


def run(events: Iterable[AnyEvent], detector: CoordinatedSitOut | None = None) -> list[Finding]:
    det = detector or CoordinatedSitOut()
    state = TtlState()
    found: list[Finding] = []
    for event in sorted(events, key=lambda e: e.time):
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


def ticks(until: float, every: float = 20.0) -> list[AnyEvent]:
    """Hands starting on six tables: the tournament clock that settles pending onsets."""
    out: list[AnyEvent] = []
    t = 0.0
    while t <= until:
        for k in range(6):
            seated = FIELD[k * 10 : k * 10 + 10]
            out.append(table("hand_start", t=t + k, table_id=f"t-{k}", players=seated))
        t += every
    return out


def sit_out(player: str, t: float, table_id: str = "t-0") -> AnyEvent:
    return table("sit_out", t=t, player=player, table_id=table_id, event_id=f"so-{player}-{t:g}")


def background(seed: int = 7) -> list[AnyEvent]:
    """Honest lone sit-outs: 20 players, a few each, spread over two hours."""
    import random

    rng = random.Random(seed)
    return [
        sit_out(p, rng.uniform(0, 7200), f"t-{i % 6}")
        for i, p in enumerate(FIELD[20:40])
        for _ in range(rng.randint(1, 4))
    ]


def pair_flags(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.evidence.kind == "coinciding_sit_outs"]


def test_pair_coinciding_at_two_tables_is_flagged_with_the_onsets() -> None:
    times = [600.0, 1900.0, 3300.0, 5100.0]
    events = [*ticks(7200), *background()]
    for t in times:
        events += [sit_out("p-001", t, "t-0"), sit_out("p-015", t + 1.5, "t-1")]
    flags = pair_flags(run(events))
    assert flags, "four coinciding sit-outs should flag"
    first = flags[0]
    assert first.player_ids == ("p-001", "p-015")
    assert first.category == "coordinated_sit_out"
    m = first.evidence.measures
    assert m["coincidences"] == 3 and m["onsets_a"] == 3 and m["onsets_b"] == 3
    assert isinstance(m["p_value_bonferroni"], float) and m["p_value_bonferroni"] < 0.01
    assert isinstance(m["expected_coincidences"], float) and m["expected_coincidences"] < 0.1
    assert "so-p-001-600" in first.evidence.event_ids
    assert "so-p-015-601.5" in first.evidence.event_ids
    assert m["tables"] == ["t-0", "t-1"]
    assert first.table_id is None and first.tournament_id == "trn-1"
    assert flags[-1].evidence.measures["coincidences"] == 4
    assert len({f.dedupe_key for f in flags}) == 1  # one flag, re-found as evidence grows


def test_three_member_team_is_one_group() -> None:
    events = [*ticks(7200), *background()]
    for t in (500.0, 1500.0, 2600.0, 3900.0, 5000.0):
        events += [
            sit_out("p-002", t, "t-0"),
            sit_out("p-033", t + 1.0, "t-3"),
            sit_out("p-047", t + 2.5, "t-4"),
        ]
    flags = pair_flags(run(events))
    assert flags[-1].player_ids == ("p-002", "p-033", "p-047")


@pytest.mark.parametrize(
    ("label", "extra"),
    [
        # Scheduled breaks: 25 players sit out within 4 s, every hour.
        (
            "scheduled_breaks",
            [
                sit_out(p, hour * 3600 + 300 + 0.15 * i, f"t-{i % 6}")
                for hour in range(2)
                for i, p in enumerate(FIELD[:25])
            ]
            + [sit_out(p, 7100 + 0.15 * i, f"t-{i % 6}") for i, p in enumerate(FIELD[:25])],
        ),
        # A network incident: 15 disconnects and 6 sit-outs in 10 s, three times.
        (
            "mass_disconnects",
            [
                table("disconnect", t=t0 + 0.5 * i, player=p, table_id=f"t-{i % 6}")
                for t0 in (1000.0, 3000.0, 5000.0)
                for i, p in enumerate(FIELD[:15])
            ]
            + [
                sit_out(p, t0 + 2.0 + i, f"t-{i % 6}")
                for t0 in (1000.0, 3000.0, 5000.0)
                for i, p in enumerate(FIELD[40:46])
            ],
        ),
        # One player's lone sit-outs, many of them.
        ("lone_sit_outs", [sit_out("p-050", 300.0 * k + 17, "t-5") for k in range(20)]),
    ],
)
def test_hard_negatives_do_not_flag(label: str, extra: list[AnyEvent]) -> None:
    found = run([*ticks(7200), *background(), *extra])
    assert pair_flags(found) == [], label


def test_two_chance_coincidences_of_frequent_sitters_do_not_flag() -> None:
    # Two players who sit out every ~10 minutes; twice they happen to land together.
    events = [*ticks(7200), *background()]
    events += [sit_out("p-003", 600.0 * k + 50, "t-0") for k in range(11)]
    events += [sit_out("p-044", 600.0 * k + 347, "t-4") for k in range(11)]
    events += [sit_out("p-044", 1250.0, "t-4"), sit_out("p-044", 4250.0, "t-4")]
    events += [sit_out("p-003", 1252.0, "t-0"), sit_out("p-003", 4252.0, "t-0")]
    assert pair_flags(run(events)) == []


def test_coincidences_outside_the_window_do_not_count() -> None:
    events = [*ticks(7200)]
    for t in (600.0, 1900.0, 3300.0, 5100.0):
        events += [sit_out("p-001", t, "t-0"), sit_out("p-015", t + 9.0, "t-1")]
    assert pair_flags(run(events)) == []


def test_planning_chat_raises_severity_and_is_named() -> None:
    plan = chat(
        "sit out with me after the next orbit",
        t=100,
        player="p-001",
        channel="private",
        table=None,
        tournament=None,
        recipient="p-015",
        message_id="m-plan",
    )
    events: list[AnyEvent] = [*ticks(7200), *background(), plan]
    for t in (600.0, 1900.0, 3300.0):
        events += [sit_out("p-001", t, "t-0"), sit_out("p-015", t + 1.5, "t-1")]
    found = run(events)
    chat_only = [f for f in found if f.evidence.kind == "sit_out_planning_chat"]
    assert [f.message_ids for f in chat_only] == [("m-plan",)]
    assert chat_only[0].severity == "low" and chat_only[0].player_ids == ("p-001", "p-015")
    flags = pair_flags(found)
    assert flags[0].severity == "high"
    assert flags[0].message_ids == ("m-plan",)
    assert flags[0].evidence.measures["planning_messages"] == ["m-plan"]
    # one flag id from chat-only (low) to statistical (high): the pipeline re-emits it as the
    # severity rises; the private message carries no tournament, the players' seats do
    assert chat_only[0].tournament_id == "trn-1"
    assert chat_only[0].dedupe_key == flags[0].dedupe_key == "trn-1:p-001,p-015"
    assert chat_only[0].identity == flags[0].identity


@pytest.mark.parametrize(
    ("text", "channel", "flags"),
    [
        ("lets both sit out now, same as before", "private", True),
        ("on my signal we all sit out", "private", True),
        ("sitting out for dinner brb", "private", False),
        ("sitting out for a bit", "table", False),
        ("when is the break?", "private", False),
        ("lets both sit out now", "table", False),  # remembered as a plan, not flagged alone
    ],
)
def test_planning_chat_alone(text: str, channel: str, flags: bool) -> None:
    recipient = "p-015" if channel == "private" else None
    event = chat(text, player="p-001", channel=channel, recipient=recipient)
    assert bool(run([event])) is flags


def test_state_is_keyed_by_tournament() -> None:
    state = TtlState()
    det = CoordinatedSitOut()
    for event in ticks(60):
        state.advance(event.time)
        det.detect(event, state)
    assert state.get(("trn-1", "sit_out")) is not None
    assert state.drop_routing_keys(["trn-1"]) == 1
