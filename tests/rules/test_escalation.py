"""One ladder per player, split over partitions and fed out of order: `scan`'s actions exactly.

The day's flags are raised by several sources (table partitions and the site stage, as in
`railbird run`), sent per player to escalation partitions, and delivered interleaved at random
(each source's own records in the order it sent them, marks after what they cover), with
re-sent duplicates and a restart from a snapshot mid-day. The actions must be those one
`RuleBook` decides reading the day straight through, as `scan` does.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta

import pytest

from railbird.detectors.detector import keying
from railbird.detectors.events import AnyEvent, event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.rules.actions import Action
from railbird.rules.escalation import END, HOLD, Escalation, Raised, place_of
from railbird.rules.pipeline import Pipeline, medium_of
from railbird.rules.policy import Offence, RuleBook
from railbird.sim.config import SimConfig
from tests.builders import at
from tests.sim.days import events_and_truth

DAY = SimConfig(
    seed=5,
    tournaments=1,
    players_per_tournament=90,
    cash_tables=3,
    hours=2.0,
    violation_scale=4.0,
)
TABLE_PARTITIONS = 3
LADDERS = 2


@dataclass(frozen=True)
class Sent:
    """One record of the offences topic, as a source sends it."""

    partition: int
    raised: Raised | None = None
    source: str = ""
    until: object = None


@pytest.fixture(scope="module")
def day() -> tuple[list[AnyEvent], dict[str, dict[str, object]]]:
    events = [event_from_dict(r) for r in events_and_truth(DAY)[0]]
    scan = Pipeline(build_detectors())
    actions = {a.action_id: a.to_dict() for o in scan.run(events) for a in o.actions}
    assert len(actions) >= 20, "the day should earn enough actions to compare ladders"
    kinds = {a["kind"] for a in actions.values()}
    assert {"warn", "mute_chat"} <= kinds
    return events, actions


def _source_of(event: AnyEvent, site: bool) -> str:
    if site:
        return "site"
    key = event.table_id or getattr(event, "player_id", "") or ""
    return f"tables:{zlib.crc32(key.encode()) % TABLE_PARTITIONS}"


def _ladder_of(player_id: str) -> int:
    return zlib.crc32(player_id.encode()) % LADDERS


def _sent_by_source(events: list[AnyEvent]) -> dict[str, list[Sent]]:
    """What each source sends: its offences, each followed by a mark every few events."""
    detectors = build_detectors()
    stages = {
        "table": Pipeline([d for d in detectors if keying(d) == "table"], decide=False),
        "site": Pipeline([d for d in detectors if keying(d) != "table"], decide=False),
    }
    sent: dict[str, list[Sent]] = {}
    sources = [f"tables:{n}" for n in range(TABLE_PARTITIONS)] + ["site"]
    for name in sources:
        sent[name] = []
    for i, event in enumerate(events):
        for scope, pipeline in stages.items():
            source = _source_of(event, scope == "site")
            outcome = pipeline.process(event)
            seen: dict[str, int] = {}
            for flag in outcome.flags:
                detector = flag.finding.detector
                place = place_of(event.type, event.event_id, detector, seen.get(detector, 0))
                seen[detector] = seen.get(detector, 0) + 1
                for player in flag.player_ids:
                    medium = medium_of(event)
                    raised = Raised(Offence.of(flag, player, medium), event.time, place)
                    sent[source].append(Sent(_ladder_of(player), raised))
            if i % 50 == 0:  # a flush: every partition hears this source's progress
                for partition in range(LADDERS):
                    sent[source].append(Sent(partition, source=source, until=event.time))
    for name in sources:
        for partition in range(LADDERS):
            sent[name].append(Sent(partition, source=name, until=END))
    return sent


def _interleaved(sent: dict[str, list[Sent]], seed: int) -> Iterator[Sent]:
    rng = random.Random(seed)
    queues = {name: list(records) for name, records in sent.items()}
    while queues:
        name = rng.choice(sorted(queues))
        yield queues[name].pop(0)
        if not queues[name]:
            del queues[name]


def _feed(ladder: Escalation, record: Sent) -> list[Action]:
    if record.raised is not None:
        return ladder.offer(record.raised)
    assert isinstance(record.until, type(END))
    return ladder.mark(record.source, record.until)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_split_ladders_fed_out_of_order_decide_what_one_ladder_decides(
    day: tuple[list[AnyEvent], dict[str, dict[str, object]]], seed: int
) -> None:
    events, want = day
    sources = [f"tables:{n}" for n in range(TABLE_PARTITIONS)] + ["site"]
    ladders = [Escalation(sources) for _ in range(LADDERS)]
    got: dict[str, dict[str, object]] = {}
    rng = random.Random(seed)
    restarted_at = None
    partitions: list[list[Sent]] = [[] for _ in range(LADDERS)]
    for record in _interleaved(_sent_by_source(events), seed):
        partitions[record.partition].append(record)
        if record.raised is not None and rng.random() < 0.05:  # a crash re-sends a record
            partitions[record.partition].append(record)
    for number, records in enumerate(partitions):
        cut = len(records) // 2
        for i, record in enumerate(records):
            if i == cut:  # a restart: state from the snapshot, the rest read after it
                saved = ladders[number].snapshot()
                ladders[number] = Escalation(sources)
                ladders[number].restore(saved)
                restarted_at = i
            for action in _feed(ladders[number], record):
                got[action.action_id] = action.to_dict()
    assert restarted_at is not None
    assert all(ladder.complete for ladder in ladders)
    assert sum(ladder.late for ladder in ladders) == 0
    missing = sorted(set(want) - set(got))
    extra = sorted(set(got) - set(want))
    assert not missing and not extra, f"missing {missing[:5]}; extra {extra[:5]}"
    changed = [k for k in want if got[k] != want[k]]
    assert not changed, f"actions differing from scan's: {[(got[k], want[k]) for k in changed[:3]]}"


def _offence(t: float, player: str = "p-1", flag: str | None = None) -> Raised:
    offence = Offence(flag or f"f-{t}", "profanity", "medium", at(t), player)
    return Raised(offence, at(t), ("chat", f"m-{t}", 0))


def test_nothing_is_decided_until_every_source_has_marked_past_it() -> None:
    ladder = Escalation(["tables:0", "site"])
    assert ladder.offer(_offence(10)) == []
    assert ladder.mark("tables:0", at(20)) == []  # the site stage has said nothing yet
    assert ladder.mark("site", at(10)) == []  # at 10 itself: the site may still raise one
    (action,) = ladder.mark("site", at(11))
    assert action.kind == "warn" and ladder.waiting == 0


def test_offences_are_decided_in_event_time_whatever_order_they_came_in() -> None:
    ladder = Escalation(["a", "b"])
    ladder.offer(_offence(30))
    ladder.offer(_offence(10))
    ladder.offer(_offence(20))
    ladder.mark("a", END)
    actions = ladder.mark("b", END)
    assert [a.ts for a in actions] == [at(10), at(20), at(30)]
    assert [a.kind for a in actions] == ["warn", "mute_chat", "mute_chat"]
    assert actions[1].duration == timedelta(minutes=10) and ladder.complete


def test_a_resent_offence_is_decided_once_and_a_worse_one_again() -> None:
    ladder = Escalation(["a"])
    ladder.mark("a", END)
    first = ladder.offer(_offence(10, flag="f-x"))
    assert ladder.offer(_offence(10, flag="f-x")) == []
    worse = Raised(
        Offence("f-x", "profanity", "critical", at(10), "p-1"), at(12), ("chat", "m-12", 0)
    )
    again = ladder.offer(worse)
    assert [a.kind for a in first] == ["warn"]
    assert "mute_chat" in {a.kind for a in again} and ladder.late == 2


def test_a_restarted_source_holds_the_ladder_again() -> None:
    ladder = Escalation(["a"])
    ladder.mark("a", at(100))
    ladder.mark("a", HOLD)
    assert ladder.offer(_offence(150)) == []
    assert len(ladder.mark("a", at(151))) == 1


def test_marks_of_unknown_sources_are_ignored_and_no_source_is_an_error() -> None:
    ladder = Escalation(["a"])
    assert ladder.mark("tables:99", END) == [] and ladder.watermark == HOLD
    with pytest.raises(ValueError, match="at least one source"):
        Escalation([])


def test_strikes_count_in_a_rolling_window_of_the_players_own_record() -> None:
    book = RuleBook()
    strikes = [
        book.decide_for(_offence(t).offence)[0].reason.split("strike ")[1].split(" ")[0]
        for t in (0, 3600, 86400 + 1, 86400 + 7200, 86400 + 7300)
    ]
    # A day and a second in, the first strike has left the window (the 1 h one has not);
    # two hours later the 1 h strike has left it too.
    assert strikes == ["1", "2", "2", "2", "3"]
