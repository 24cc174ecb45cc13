"""Coordinated sit-outs: players who go away together again and again flag, however they go
away and whatever their lag; crowds (breaks, disconnect waves, a table dropping), lone sitters,
chance meetings and players who are gone do not.

The scenarios were written before the detector was rebuilt (issue 30). Every one runs over the
same honest tournament: 60 players on six tables for two hours, dealing every 20 s, with lone
sit-outs, disconnects and timeouts of their own (`honest_field`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import pytest

from railbird.detectors.collusion.coordinated_sit_out import CoordinatedSitOut
from railbird.detectors.detector import keying
from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from railbird.rules.pipeline import Pipeline
from tests.builders import chat, hand, table

FIELD = [f"p-{i:03d}" for i in range(60)]
DAY = 7200.0


def run(events: Iterable[AnyEvent], detector: CoordinatedSitOut | None = None) -> list[Finding]:
    det = detector or CoordinatedSitOut()
    state = TtlState()
    found: list[Finding] = []
    for event in sorted(events, key=lambda e: e.time):
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


def pair_flags(found: list[Finding]) -> list[Finding]:
    return [f for f in found if f.evidence.kind == "coinciding_sit_outs"]


def table_of(player: str) -> str:
    return f"t-{FIELD.index(player) // 10}"


def ticks(until: float = DAY, every: float = 20.0, pause: bool = False) -> list[AnyEvent]:
    """Hands starting on six tables (with `pause`, none in the five minutes from each of
    BREAKS): the tournament's clock."""
    out: list[AnyEvent] = []
    t = 0.0
    while t <= until:
        if not pause or not any(b <= t < b + 300 for b in BREAKS):
            for k in range(6):
                seated = FIELD[k * 10 : k * 10 + 10]
                out.append(table("hand_start", t=t + k, table_id=f"t-{k}", players=seated))
        t += every
    return out


def away(action: str, player: str, t: float) -> AnyEvent:
    return table(
        action, t=t, player=player, table_id=table_of(player), event_id=f"{action}-{player}-{t:g}"
    )


def back(action: str, player: str, t: float) -> AnyEvent:
    return table(action, t=t, player=player, table_id=table_of(player))


def episode(action: str, player: str, t: float, length: float = 90.0) -> list[AnyEvent]:
    """One absence: sit out / disconnect and come back; a timeout is followed by the site's
    sit-out after the hand (as the platform does) and a sit-in."""
    if action == "sit_out":
        return [away("sit_out", player, t), back("sit_in", player, t + length)]
    if action == "disconnect":
        return [away("disconnect", player, t), back("reconnect", player, t + length)]
    return [
        away("timeout", player, t),
        away("sit_out", player, t + 25.0),
        back("sit_in", player, t + length),
    ]


def honest_field(seed: int = 7) -> list[AnyEvent]:
    """Lone absences of 40 honest players (p-020..p-059): most now and then, a few often."""
    rng = random.Random(seed)
    out: list[AnyEvent] = []
    for i, p in enumerate(FIELD[20:]):
        per_hour = (0.5, 1.0, 2.0, 4.0)[i % 4]
        t = rng.expovariate(per_hour) * 3600
        while t < DAY - 200:
            out += episode(rng.choice(("sit_out", "sit_out", "disconnect", "timeout")), p, t)
            t += 120 + rng.expovariate(per_hour) * 3600
    return out


def team(
    players: list[str], times: list[float], lags: list[float], how: list[str]
) -> list[AnyEvent]:
    """Each time, member k goes away `lags[k]` seconds after the first, by `how[k]`."""
    out: list[AnyEvent] = []
    for t in times:
        for p, lag, action in zip(players, lags, how, strict=True):
            out += episode(action, p, t + lag)
    return out


@dataclass(frozen=True)
class Scenario:
    name: str
    events: Callable[[], list[AnyEvent]]
    group: tuple[str, ...] | None  # the group that must be flagged, or None: no pair flag
    pause: bool = False  # every table stops dealing for five minutes at each of BREAKS


BREAKS = (1200.0, 2400.0, 3600.0, 4800.0, 6000.0)


def _break_drift() -> list[AnyEvent]:
    # Four regulars who always take the break, drifting off over 15 s as the tables stop.
    rng = random.Random(3)
    return [
        e
        for begin in BREAKS
        for p in ("p-001", "p-006", "p-012", "p-017")
        for e in episode("sit_out", p, begin + rng.uniform(0, 15), 240)
    ]


def _rolling_wave() -> list[AnyEvent]:
    # Table after table over two minutes, half of each table, three times (the same half).
    return [
        e
        for t0 in (1500.0, 3500.0, 5500.0)
        for k in range(6)
        for p in FIELD[k * 10 : k * 10 + 5]
        for e in episode("disconnect", p, t0 + 20 * k + (FIELD.index(p) % 5) * 1.5, 60)
    ]


def _elimination_disconnects() -> list[AnyEvent]:
    # p-005 and p-006 coincide once by chance, then bust in one hand; their clients drop as
    # they leave: an elimination is not an agreement, and the gone have no more onsets.
    out = [*episode("sit_out", "p-005", 1000.0), *episode("sit_out", "p-006", 1001.5)]
    seats = [{"seat": k + 1, "player_id": f"p-00{k}", "stack": 1000} for k in range(8)]
    out.append(
        hand(
            "h-bust",
            start=2000.0,
            end=2030.0,
            seats=seats,
            table_id="t-0",
            eliminated=[
                {"player_id": "p-005", "by": ["p-001"]},
                {"player_id": "p-006", "by": ["p-001"]},
            ],
        )
    )
    for t in (2031.0, 2900.0, 4100.0):  # reconnect loops of a closed client
        out += [away("disconnect", "p-005", t), away("disconnect", "p-006", t + 1.0)]
    return out


SCENARIOS = [
    # Teams: every one must be flagged, as its whole group.
    Scenario(
        "pair_sits_out_within_2s",
        lambda: team(["p-001", "p-015"], [600, 1900, 3300, 5100], [0, 1.5], ["sit_out"] * 2),
        ("p-001", "p-015"),
    ),
    Scenario(
        "pair_disconnects_8s_apart",
        lambda: team(
            ["p-002", "p-031"], [700, 1600, 2500, 3500, 4800, 6200], [0, 8], ["disconnect"] * 2
        ),
        ("p-002", "p-031"),
    ),
    Scenario(
        "pair_times_out_20s_apart",
        lambda: team(
            ["p-003", "p-044"],
            [500, 1300, 2100, 2900, 3700, 4500, 5300, 6100],
            [0, 20],
            ["timeout"] * 2,
        ),
        ("p-003", "p-044"),
    ),
    Scenario(
        "trio_mixed_ways_within_3s",
        lambda: team(
            ["p-004", "p-013", "p-027"],
            [800, 2000, 3200, 4700, 6000],
            [0, 1.0, 2.5],
            ["sit_out", "disconnect", "timeout"],
        ),
        ("p-004", "p-013", "p-027"),
    ),
    Scenario(
        "pair_half_a_minute_apart",
        lambda: team(
            ["p-007", "p-018"],
            [400, 1100, 1800, 2600, 3400, 4200, 5000, 5800, 6600],
            [0, 32],
            ["sit_out"] * 2,
        ),
        ("p-007", "p-018"),
    ),
    Scenario(
        "pair_at_one_table_three_times",
        lambda: team(["p-011", "p-012"], [1000, 3400, 5800], [0, 0.8], ["sit_out"] * 2),
        ("p-011", "p-012"),
    ),
    Scenario(
        "pair_whose_member_also_sits_out_alone_often",
        lambda: (
            team(["p-008", "p-019"], [900, 2300, 3700, 5200, 6500], [0, 1.2], ["sit_out"] * 2)
            + [e for k in range(10) for e in episode("sit_out", "p-008", 300 + 690 * k + 200)]
        ),
        ("p-008", "p-019"),
    ),
    # Honest look-alikes: none may give a pair flag.
    Scenario(
        "scheduled_breaks_25_players_in_4s",
        lambda: [
            e
            for begin in (1800.0, 3600.0, 5400.0)
            for i, p in enumerate(FIELD[:25])
            for e in episode("sit_out", p, begin + 0.15 * i, 200)
        ],
        None,
    ),
    Scenario("breaks_drifting_in_while_tables_pause", _break_drift, None, pause=True),
    Scenario(
        "disconnect_bursts_15_players_in_7s_three_times",
        lambda: [
            e
            for t0 in (1000.0, 3000.0, 5000.0)
            for i, p in enumerate(FIELD[:15])
            for e in episode("disconnect", p, t0 + 0.5 * i, 40)
        ],
        None,
    ),
    Scenario("rolling_wave_across_tables_twice", _rolling_wave, None),
    Scenario(
        "one_table_drops_three_times",
        lambda: [
            e
            for t0 in (1200.0, 2500.0, 4400.0)
            for i, p in enumerate(FIELD[10:20])
            for e in episode("disconnect", p, t0 + 0.3 * i, 50)
        ],
        None,
    ),
    Scenario(
        "lone_sitter_every_five_minutes",
        lambda: [e for k in range(22) for e in episode("sit_out", "p-009", 300.0 * k + 17, 60)],
        None,
    ),
    Scenario(
        "frequent_sitters_meet_twice_by_chance",
        lambda: (
            [e for k in range(11) for e in episode("sit_out", "p-010", 600.0 * k + 50, 60)]
            + [e for k in range(11) for e in episode("sit_out", "p-016", 600.0 * k + 347, 60)]
            + [*episode("sit_out", "p-016", 1252.0, 60), *episode("sit_out", "p-016", 4252.0, 60)]
            + [*episode("sit_out", "p-010", 1250.0, 60), *episode("sit_out", "p-010", 4250.0, 60)]
        ),
        None,
    ),
    Scenario(
        "two_rare_sitters_meet_once",
        lambda: (
            team(["p-014", "p-017"], [2500], [0, 1.0], ["sit_out"] * 2)
            + episode("sit_out", "p-014", 5000.0)
        ),
        None,
    ),
    Scenario("eliminated_players_drop_as_they_leave", _elimination_disconnects, None),
    Scenario(
        "lag_beyond_every_window",
        lambda: team(["p-001", "p-015"], [600, 1900, 3300, 5100, 6400], [0, 75], ["sit_out"] * 2),
        None,
    ),
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.name)
def test_scenario(scenario: Scenario) -> None:
    flags = pair_flags(run([*ticks(pause=scenario.pause), *honest_field(), *scenario.events()]))
    if scenario.group is None:
        assert flags == [], [f.evidence.summary for f in flags]
        return
    assert flags, f"{scenario.name}: the team was not flagged"
    assert flags[-1].player_ids == scenario.group, [f.player_ids for f in flags]
    assert all(set(f.player_ids) <= set(scenario.group) for f in flags)
    first = flags[0]
    m = first.evidence.measures
    assert isinstance(m["coincidences"], int) and m["coincidences"] >= 2
    assert isinstance(m["q_value"], float) and m["q_value"] < CoordinatedSitOut().alpha
    expected = m["expected_coincidences"]
    assert isinstance(expected, float) and expected < m["coincidences"] / 4
    # the onsets named are the team's own, each within the reported window of its partner
    assert len(first.evidence.event_ids) == 2 * m["coincidences"]
    assert all(e.split("-", 1)[1].startswith(scenario.group) for e in first.evidence.event_ids)
    lags, window = m["lags_s"], m["window_s"]
    assert isinstance(lags, list) and isinstance(window, float)
    assert all(isinstance(lag, float) and lag <= window for lag in lags)


def test_a_pair_flag_reads_as_evidence() -> None:
    events = [*ticks(), *honest_field()]
    events += team(["p-001", "p-015"], [600, 1900, 3300, 5100], [0, 1.5], ["sit_out"] * 2)
    flags = pair_flags(run(events))
    first, last = flags[0], flags[-1]
    m = first.evidence.measures
    c = m["coincidences"]
    assert isinstance(c, int) and c in (2, 3) and m["onsets_a"] == c and m["onsets_b"] == c
    assert m["window_s"] == 2.0 and m["lags_s"] == [1.5] * c
    assert m["away_actions"] == ["sit_out"] and m["tables"] == ["t-0", "t-1"]
    assert first.evidence.event_ids[:4] == (
        "sit_out-p-001-600",
        "sit_out-p-015-601.5",
        "sit_out-p-001-1900",
        "sit_out-p-015-1901.5",
    )
    assert first.table_id is None and first.tournament_id == "trn-1"
    assert isinstance(m["pairs_at_risk"], int) and m["pairs_at_risk"] >= 100
    assert f"within 2s of each other {c} times" in first.evidence.summary
    assert last.evidence.measures["coincidences"] == 4
    assert len({f.dedupe_key for f in flags}) == 1  # one flag, re-found as evidence grows


def test_breaks_and_crowds_are_counted_not_paired() -> None:
    events = [*ticks(pause=True), *_break_drift()]
    events += [
        e for i, p in enumerate(FIELD[:15]) for e in episode("disconnect", p, 1000.0 + 0.5 * i, 40)
    ]
    events += team(["p-002", "p-015"], [600, 1900, 3000, 4300], [0, 1.5], ["sit_out"] * 2)
    m = pair_flags(run(events))[-1].evidence.measures  # as of 4300: three breaks before it
    assert m["crowd_onsets_ignored"] == 15
    assert m["break_onsets_ignored"] == 4 * 3


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
    events: list[AnyEvent] = [*ticks(), *honest_field(), plan]
    events += team(["p-001", "p-015"], [600, 1900, 3300], [0, 1.5], ["sit_out"] * 2)
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


def test_state_is_keyed_by_tournament_and_bounded() -> None:
    assert keying(CoordinatedSitOut) == "tournament"
    state = TtlState()
    det = CoordinatedSitOut()
    lone = [e for k in range(400) for e in episode("sit_out", "p-009", 17.0 * k, 8)]
    for event in sorted([*ticks(DAY), *lone], key=lambda e: e.time):
        state.advance(event.time)
        det.detect(event, state)
    trn = state.get(("trn-1", "sit_out"))
    assert trn is not None
    assert len(trn.ledger.players["p-009"].lone) == det.rules.max_lone_kept
    assert len(trn.ledger.judged) < 100  # only the crowd look-back is kept
    assert state.drop_routing_keys(["trn-1"]) == 1


def test_a_snapshot_mid_stream_changes_no_flag() -> None:
    """`scan` and a Kafka worker restored from a checkpoint must flag alike."""
    events = sorted(
        [
            *ticks(),
            *honest_field(),
            *team(["p-004", "p-013", "p-027"], [800, 2000, 3200, 4700], [0, 1, 9], ["sit_out"] * 3),
        ],
        key=lambda e: e.time,
    )
    whole = Pipeline([CoordinatedSitOut()])
    expected = [f.flag_id for e in events for f in whole.process(e).flags]
    first = Pipeline([CoordinatedSitOut()])
    cut = len(events) // 2
    got = [f.flag_id for e in events[:cut] for f in first.process(e).flags]
    second = Pipeline([CoordinatedSitOut()])
    second.restore(first.snapshot())
    got += [f.flag_id for e in events[cut:] for f in second.process(e).flags]
    assert expected and got == expected
