"""A lane of re-keyed records (`ingest.kafka.lane_merge`): whatever the interleaving of its
sources, it releases the stream's order once their marks allow, drops what a restarted source
sends again, says how far it may promise downstream, and resumes from its state exactly; and
the players view (`ingest.kafka.player_view`) answers as the detectors remember places."""

from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from railbird.ingest.kafka.codec import END, HOLD, SortKey, micros
from railbird.ingest.kafka.lane_merge import Held, LaneMerge
from railbird.ingest.kafka.player_view import HAND_TTL, TOURNAMENT_TTL, PlayerView
from tests.builders import at

SOURCES = ("tables:0", "tables:1", "players:0")


def _key(t: float, partition: int, offset: int, copy: int = 0) -> SortKey:
    return (micros(at(t)), -1, 0, partition, offset, copy)


def _streams(seed: int, per_source: int = 40) -> dict[str, list[SortKey]]:
    """Each source's records, in its own (sorted) order."""
    rng = random.Random(seed)
    streams = {}
    for n, source in enumerate(SOURCES):
        times = sorted(rng.uniform(0, 100) for _ in range(per_source))
        streams[source] = [_key(t, n, offset) for offset, t in enumerate(times)]
    return streams


def _interleave(
    streams: dict[str, list[SortKey]], seed: int, mark_every: int
) -> list[tuple[str, SortKey | int]]:
    """What a partition holds: each source's records in its order with a mark after every few
    (the time of its next record: nothing before it is still to come), then END; sources
    interleaved at random."""
    rng = random.Random(seed)
    queues: dict[str, list[tuple[str, SortKey | int]]] = {}
    for source, keys in streams.items():
        items: list[tuple[str, SortKey | int]] = []
        for i, key in enumerate(keys):
            items.append((source, key))
            if i % mark_every == 0 and i + 1 < len(keys):
                items.append((source, keys[i + 1][0]))
        items.append((source, END))
        queues[source] = items
    out = []
    while queues:
        source = rng.choice(sorted(queues))
        out.append(queues[source].pop(0))
        if not queues[source]:
            del queues[source]
    return out


def _run(
    lane: LaneMerge, records: list[tuple[str, SortKey | int]], limit: int | None
) -> list[SortKey]:
    released: list[SortKey] = []
    for source, item in records:
        if isinstance(item, int):
            lane.mark(source, item)
        else:
            lane.add(source, item, Held("", b"x"))
        released.extend(key for key, _s, _r in lane.release(limit))
    while lane.waiting:
        released.extend(key for key, _s, _r in lane.release(limit))
    return released


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000), mark_every=st.integers(1, 9), limit=st.sampled_from([None, 1, 3])
)
def test_any_interleaving_releases_the_streams_order(
    seed: int, mark_every: int, limit: int | None
) -> None:
    streams = _streams(seed)
    lane = LaneMerge(SOURCES)
    released = _run(lane, _interleave(streams, seed, mark_every), limit)
    assert released == sorted(k for keys in streams.values() for k in keys)
    assert lane.late == 0 and lane.complete


def test_nothing_is_released_until_every_source_has_spoken() -> None:
    lane = LaneMerge(SOURCES)
    lane.add("tables:0", _key(1, 0, 0), Held("", b""))
    lane.mark("tables:0", micros(at(50)))
    lane.mark("tables:1", micros(at(50)))
    assert lane.release() == [] and lane.watermark == HOLD
    lane.mark("players:0", micros(at(2)))
    assert [k for k, _, _ in lane.release()] == [_key(1, 0, 0)]


def test_a_copy_sent_again_after_a_restart_is_dropped_and_hold_waits_for_the_new_owner() -> None:
    lane = LaneMerge(SOURCES)
    for source in SOURCES:
        lane.mark(source, micros(at(10)))
    assert lane.add("tables:0", _key(1, 0, 5), Held("", b""))
    assert lane.add("tables:0", _key(1, 0, 5, copy=1), Held("", b""))  # another copy of it
    assert [k[5] for k, _, _ in lane.release()] == [0, 1]
    lane.mark("tables:0", HOLD)  # its partition's new owner replays from its last commit
    assert not lane.add("tables:0", _key(1, 0, 5), Held("", b""))  # already had it
    assert lane.add("tables:0", _key(12, 0, 6), Held("", b""))
    lane.mark("tables:1", micros(at(20)))
    lane.mark("players:0", micros(at(20)))
    assert lane.release() == []  # the new owner has not said how far it got
    lane.mark("tables:0", micros(at(15)))
    assert [k for k, _, _ in lane.release()] == [_key(12, 0, 6)]
    assert not lane.add("somewhere:9", _key(1, 9, 0), Held("", b""))  # not a source of it


def test_what_a_limit_holds_back_is_not_promised_downstream() -> None:
    lane = LaneMerge(SOURCES)
    for n in range(5):
        lane.add("tables:0", _key(n, 0, n), Held("", b""))
    for source in SOURCES:
        lane.mark(source, micros(at(50)))
    assert len(lane.release(limit=2)) == 2
    assert lane.watermark == micros(at(50)) and lane.settled == micros(at(2))
    lane.release()
    assert lane.settled == micros(at(50))


def test_a_record_after_its_sources_mark_is_released_next_and_counted_late() -> None:
    lane = LaneMerge(SOURCES)
    for source in SOURCES:
        lane.mark(source, micros(at(10)))
    lane.add("tables:0", _key(5, 0, 0), Held("", b""))
    assert len(lane.release()) == 1
    lane.add("tables:1", _key(3, 1, 0), Held("", b""))  # its source promised otherwise
    assert [k for k, _, _ in lane.release()] == [_key(3, 1, 0)]
    assert lane.late == 1


@pytest.mark.parametrize("cut", [0, 17, 60, 119])
def test_a_lane_restored_from_its_state_and_fed_the_rest_releases_what_it_would_have(
    cut: int,
) -> None:
    streams = _streams(3)
    records = _interleave(streams, 3, mark_every=4)
    whole = _run(LaneMerge(SOURCES), records, None)
    first = LaneMerge(SOURCES)
    before = _run_partly(first, records[:cut])
    saved = orjson.loads(orjson.dumps(first.state()))  # as a snapshot carries it
    second = LaneMerge(SOURCES)
    second.load(saved)
    after = _run(second, records[cut:], None)
    assert before + after == whole
    assert second.state() == _finished_state(records)


def _run_partly(lane: LaneMerge, records: list[tuple[str, SortKey | int]]) -> list[SortKey]:
    out: list[SortKey] = []
    for source, item in records:
        if isinstance(item, int):
            lane.mark(source, item)
        else:
            lane.add(source, item, Held("", b"x"))
        out.extend(key for key, _s, _r in lane.release())
    return out


def _finished_state(records: list[tuple[str, SortKey | int]]) -> dict[str, object]:
    lane = LaneMerge(SOURCES)
    _run(lane, records, None)
    return lane.state()


# ---- the players view --------------------------------------------------------------------------


def test_the_view_gives_the_newest_hand_dealt_for_as_long_as_a_hand_may_last() -> None:
    view = PlayerView()
    view.advance(at(0))
    view.dealt("p-1", "t-1", "h-1")
    view.advance(at(30))
    view.dealt("p-1", "t-2", "h-9")  # multi-tabling: the newest deal is the one read against
    assert view.hand_table("p-1") == "t-2"
    view.advance(at(30) + HAND_TTL)
    assert view.hand_table("p-1") is None


def test_the_views_tournament_is_kept_from_when_it_last_changed() -> None:
    view = PlayerView()
    view.advance(at(0))
    view.seen_in("p-1", "trn-1")
    view.advance(at(100))
    view.seen_in("p-1", "trn-1")  # no change: not refreshed (as the tournament detectors keep it)
    view.advance(at(0) + TOURNAMENT_TTL)
    assert view.tournament("p-1") is None
    view.seen_in("p-1", "trn-2")
    assert view.tournament("p-1") == "trn-2"


def test_the_view_restores_from_its_state() -> None:
    view = PlayerView()
    view.advance(at(5))
    view.dealt("p-1", "t-1", "h-1")
    view.seen_in("p-2", "trn-1")
    copy = PlayerView()
    copy.load(orjson.loads(orjson.dumps(view.state())))
    assert (copy.hand_table("p-1"), copy.tournament("p-2")) == ("t-1", "trn-1")
    copy.advance(at(5) + HAND_TTL)
    assert copy.hand_table("p-1") is None and copy.tournament("p-2") == "trn-1"
