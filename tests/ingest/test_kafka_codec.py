"""Kafka record shapes: the contract's keys, positions, DLQ headers, re-keyed records and marks,
commit notes, and the input topics' event-time merge."""

from __future__ import annotations

from datetime import timedelta
from typing import Any, NamedTuple

import orjson
import pytest

from railbird.detectors.findings import Evidence, Finding
from railbird.ingest.decode import RawRecord, Rejected, decode
from railbird.ingest.kafka.codec import (
    END,
    HOLD,
    LaneRecord,
    LaneRecordError,
    OffenceRecordError,
    action_record,
    dlq_headers,
    event_key,
    flag_record,
    from_micros,
    header_dict,
    lane_headers,
    marks_record,
    micros,
    offence_marks_record,
    raw_record,
    read_lane_record,
    read_offence_record,
    read_seq,
    seq_header,
)
from railbird.ingest.kafka.merge import EventTimeMerge, pending
from railbird.ingest.kafka.producer import route
from railbird.ingest.kafka.resume import ResumeNote, parse_note
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from tests.builders import T0, at, chat


class TP(NamedTuple):
    topic: str
    partition: int


@pytest.mark.parametrize(
    ("event", "key"),
    [
        ({"type": "chat", "table_id": "t-7", "player_id": "p-42"}, b"t-7"),
        ({"type": "chat", "table_id": None, "player_id": "p-42"}, b"p-42"),  # lobby / private
        ({"type": "table", "table_id": "t-7", "player_id": "p-42"}, b"t-7"),
        ({"type": "hand", "table_id": "t-9"}, b"t-9"),
        ({"type": "table", "table_id": None, "player_id": "p-42"}, None),  # no table: no key
    ],
)
def test_event_key_follows_the_contract(event: dict[str, Any], key: bytes | None) -> None:
    assert event_key(event) == key


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"type": "chat", "table_id": "t-1"}, ("chat.messages", b"t-1")),
        ({"type": "table", "table_id": "t-1"}, ("poker.table-events", b"t-1")),
        ({"type": "hand", "table_id": "t-2"}, ("poker.hands", b"t-2")),
        ({"type": "tip", "table_id": "t-1"}, "unknown event type 'tip'"),
        ([1, 2], "not a JSON object"),
    ],
)
def test_producer_routes_each_type_to_its_topic(data: Any, expected: object) -> None:
    assert route(KafkaSettings(), data) == expected


def test_topic_names_are_configurable() -> None:
    settings = KafkaSettings(chat_topic="x.chat", dlq_suffix="-dead")
    assert route(settings, {"type": "chat", "player_id": "p-1"}) == ("x.chat", b"p-1")
    assert settings.dlq_topic("x.chat") == "x.chat-dead"


def test_raw_record_names_topic_partition_and_offset() -> None:
    record = raw_record("chat.messages", 3, 1200, b"{}")
    assert record == RawRecord("chat.messages", "partition 3 offset 1200", b"{}")
    rejected = decode(raw_record("chat.messages", 3, 1200, None))
    assert isinstance(rejected, Rejected)
    assert rejected.describe().startswith("chat.messages partition 3 offset 1200: ")


@pytest.mark.parametrize("seq", [0, 1, 2**40])
def test_seq_header_round_trips(seq: int) -> None:
    assert read_seq([("other", b"x"), *seq_header(seq)]) == seq


@pytest.mark.parametrize("headers", [None, [], [("railbird-seq", b"\x01")], [("x", None)]])
def test_missing_or_malformed_seq_is_none(headers: Any) -> None:
    assert read_seq(headers) is None


def test_dlq_headers_carry_reason_and_source() -> None:
    headers = header_dict(dlq_headers("field 'ts': invalid", "poker.hands", 4, 77))
    assert headers == {
        "reason": "field 'ts': invalid",
        "source_topic": "poker.hands",
        "source_partition": "4",
        "source_offset": "77",
    }


def _flag(players: tuple[str, ...]) -> Flag:
    finding = Finding(
        detector="bounty_collusion",
        category="bounty_collusion",
        severity="high",
        score=0.9,
        ts=T0,
        player_ids=players,
        evidence=Evidence(kind="bounty_steer", summary="steered bounties to p-2"),
        tournament_id="trn-1",
        dedupe_key="trn-1:p-2,p-1",
    )
    return Flag.from_finding(finding)


def test_flag_is_keyed_by_its_first_player_and_carries_the_contract_json() -> None:
    flag = _flag(("p-2", "p-1"))
    key, value = flag_record(flag)
    assert key == b"p-2"
    body = orjson.loads(value)
    assert body["flag_id"] == flag.flag_id and body["player_ids"] == ["p-2", "p-1"]
    assert body["category"] == "bounty_collusion" and body["evidence"]["kind"] == "bounty_steer"


def test_action_is_keyed_by_its_player() -> None:
    action = Action("a-1", "mute_chat", "p-9", T0, "spam", ("f-1",), timedelta(minutes=10))
    key, value = action_record(action)
    assert key == b"p-9"
    body = orjson.loads(value)
    assert body["kind"] == "mute_chat" and body["status"] == "applied"


# ---- the event-time merge ------------------------------------------------------------------

CHAT0, CHAT1, TABLE0 = TP("chat", 0), TP("chat", 1), TP("table", 0)


def _add(merge: EventTimeMerge, tp: TP, offset: int, t: float, seq: int | None = None) -> None:
    event = chat("hi", t=t, message_id=f"{tp.topic}{tp.partition}-{offset}")
    merge.add(pending(tp, offset, event, None, seq=seq, topic_rank=0))


def _ids(released: list[Any]) -> list[str]:
    return [p.item.event_id for p in released]


def test_merge_interleaves_partitions_in_event_time() -> None:
    merge = EventTimeMerge(max_wait=1.0)
    for offset, t in enumerate([1, 4, 9]):
        _add(merge, CHAT0, offset, t)
    for offset, t in enumerate([2, 3, 10]):
        _add(merge, CHAT1, offset, t)
    released = merge.release([CHAT0, CHAT1], caught_up=lambda tp: True)
    assert _ids(released) == ["chat0-0", "chat1-0", "chat1-1", "chat0-1", "chat0-2", "chat1-2"]
    assert merge.total() == 0


def test_merge_holds_back_while_a_partition_is_still_fetching() -> None:
    clock = [0.0]
    merge = EventTimeMerge(max_wait=1.0, clock=lambda: clock[0])
    _add(merge, CHAT0, 0, 5)
    behind = {CHAT1}
    assert merge.release([CHAT0, CHAT1], caught_up=lambda tp: tp not in behind) == []
    _add(merge, CHAT1, 0, 2)  # the lagging partition had something earlier
    _add(merge, CHAT1, 1, 7)
    behind.clear()  # ... and its fetch reached the high watermark
    assert _ids(merge.release([CHAT0, CHAT1], caught_up=lambda tp: tp not in behind)) == [
        "chat1-0",
        "chat0-0",
        "chat1-1",
    ]


def test_merge_stops_when_a_drained_partition_may_have_more() -> None:
    merge = EventTimeMerge(max_wait=1.0)
    _add(merge, CHAT0, 0, 1)
    _add(merge, CHAT1, 0, 3)
    released = merge.release([CHAT0, CHAT1], caught_up=lambda tp: tp != CHAT0)
    assert _ids(released) == ["chat0-0"]  # CHAT0 emptied and is not caught up: wait for it


def test_merge_gives_up_waiting_after_max_wait_of_idle_polling() -> None:
    clock = [0.0]
    merge = EventTimeMerge(max_wait=1.0, clock=lambda: clock[0])
    _add(merge, CHAT0, 0, 5)
    assert merge.release([CHAT0, CHAT1], caught_up=lambda tp: tp == CHAT0) == []
    clock[0] = 0.9
    assert merge.release([CHAT0, CHAT1], caught_up=lambda tp: tp == CHAT0) == []
    clock[0] = 1.0
    assert _ids(merge.release([CHAT0, CHAT1], caught_up=lambda tp: tp == CHAT0)) == ["chat0-0"]


def test_merge_breaks_time_ties_by_file_sequence_then_topic() -> None:
    merge = EventTimeMerge(max_wait=1.0)
    _add(merge, TABLE0, 0, 1, seq=8)
    _add(merge, CHAT0, 0, 1, seq=7)
    assert _ids(merge.release([CHAT0, TABLE0], caught_up=lambda tp: True)) == [
        "chat0-0",
        "table0-0",
    ]


def test_undecodable_records_do_not_wait_for_the_merge() -> None:
    merge = EventTimeMerge(max_wait=10.0)
    bad = decode(RawRecord("chat", "partition 0 offset 0", b"{oops"))
    assert isinstance(bad, Rejected)
    merge.add(pending(CHAT0, 0, bad, None, seq=None, topic_rank=0))
    _add(merge, CHAT0, 1, 1)
    released = merge.release([CHAT0, CHAT1], caught_up=lambda tp: tp == CHAT0)
    assert [p.offset for p in released] == [0]


def test_dropped_partitions_forget_their_buffer() -> None:
    merge = EventTimeMerge(max_wait=1.0)
    _add(merge, CHAT0, 0, 1)
    _add(merge, CHAT1, 0, 2)
    assert merge.drop([CHAT1]) == 1
    assert _ids(merge.release([CHAT0], caught_up=lambda tp: True)) == ["chat0-0"]


def test_builders_time_matches_merge_key() -> None:
    event = chat("x", t=3)
    assert pending(CHAT0, 0, event, None, seq=None, topic_rank=0).sort_key[0] == at(3)


def test_a_holding_merge_keeps_a_fresh_record_while_another_partition_is_quiet() -> None:
    # The site stage: CHAT1 is caught up (as far as its last fetch knew) and empty, so a record
    # just fetched from CHAT0 waits `hold` for an earlier one to arrive on CHAT1.
    clock = [10.0]
    merge = EventTimeMerge(max_wait=5.0, clock=lambda: clock[0], hold=1.0)
    fresh = chat("hi", t=5, message_id="chat0-0")
    merge.add(pending(CHAT0, 0, fresh, None, seq=None, topic_rank=0, arrived=merge.now()))
    everything = [CHAT0, CHAT1]
    clock[0] = 10.9
    assert merge.release(everything, caught_up=lambda tp: True) == []
    earlier = chat("hi", t=2, message_id="chat1-0")
    merge.add(pending(CHAT1, 0, earlier, None, seq=None, topic_rank=0, arrived=merge.now()))
    # Both partitions have a head now: the order is known, the older record goes at once, the
    # fresh one stays (CHAT1 is quiet again) until it is a second old.
    assert _ids(merge.release(everything, caught_up=lambda tp: True)) == ["chat1-0"]
    clock[0] = 11.0
    assert _ids(merge.release(everything, caught_up=lambda tp: True)) == ["chat0-0"]


def test_a_merge_without_hold_releases_at_once() -> None:
    merge = EventTimeMerge(max_wait=5.0, clock=lambda: 10.0)
    event = chat("hi", t=5, message_id="chat0-0")
    merge.add(pending(CHAT0, 0, event, None, seq=None, topic_rank=0, arrived=10.0))
    assert _ids(merge.release([CHAT0, CHAT1], caught_up=lambda tp: True)) == ["chat0-0"]


def test_a_commit_note_names_the_snapshot_the_lanes_progress_and_completion() -> None:
    note = ResumeNote("tables:3@abc", {"h": (5, -1, 0, 3, 17, 0), "t": (9, 2, 1, 0, 4, 16)}, True)
    assert parse_note(note.format()) == note
    assert parse_note("snapshot=keyed:1@x") == ResumeNote("keyed:1@x")
    # An older worker's metadata, or garbage: nothing usable, never an error.
    assert parse_note("replay=7;snapshot=;lanes=h@1.2,zz;==") == ResumeNote()
    assert parse_note(None) == ResumeNote()


# ---- re-keyed records and marks ----------------------------------------------------------------


def test_a_re_keyed_record_round_trips_with_its_lane_source_and_sort_key() -> None:
    key = (micros(at(3)), 41, 2, 5, 1200, 16)
    headers = lane_headers("p", "tables:5", key, "dealt")
    found = read_lane_record(headers, b'{"table": "t-1"}', b"p-1")
    assert found == LaneRecord("p", "tables:5", key, "dealt", b'{"table": "t-1"}', b"p-1")
    forwarded = read_lane_record(lane_headers("h", "players:3", key, "recipient"), b"{}", b"t-9")
    assert isinstance(forwarded, LaneRecord) and forwarded.source == "players:3"
    assert from_micros(key[0]) == at(3)


def test_marks_round_trip_and_anything_else_is_a_clear_error() -> None:
    value, headers = marks_record({"tables:0": 17, "players:2": HOLD, "tables:1": END})
    found = read_lane_record(headers, value, b"~mark")
    assert found == {"tables:0": 17, "players:2": HOLD, "tables:1": END}
    with pytest.raises(LaneRecordError, match="not a re-keyed record"):
        read_lane_record([("rb", b"t")], b"{}", None)  # a header too short to hold one
    with pytest.raises(LaneRecordError, match="not a re-keyed record"):
        read_lane_record([("other", b"x")], b"{}", None)
    with pytest.raises(LaneRecordError):
        read_lane_record(headers, b"[1, 2]", None)


def test_offence_marks_of_several_sources_travel_in_one_record() -> None:
    value = offence_marks_record({"tables:0": at(1), "keyed:3": at(2)})
    assert read_offence_record(value) == {"tables:0": at(1), "keyed:3": at(2)}
    with pytest.raises(OffenceRecordError):
        read_offence_record(b'{"marks": {"tables:0": "yesterday"}}')
