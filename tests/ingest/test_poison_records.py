"""No record can stop the stream: poison records are reported where they were and the stream
goes on, in `scan`, in the worker's decode path and in the DLQ producer.

The records are the ones that used to stop it (a year-0001 time whose UTC form overflows, a
seat of 10**30 the store could not hold, a >1 MB record the DLQ producer refused), plus
whatever hypothesis generates around the contract's shapes.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple, cast

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kafka import TopicPartition
from sqlalchemy import Engine, select

from railbird.cli import main
from railbird.detectors.events import MAX_RECORD_BYTES, AnyEvent, EventError, parse_event
from railbird.detectors.registry import build_detectors
from railbird.ingest.decode import RawRecord, Rejected, decode
from railbird.ingest.files.jsonl import read_jsonl
from railbird.ingest.files.scan import scan_records
from railbird.ingest.kafka.codec import DLQ_MAX_VALUE_BYTES, header_dict
from railbird.ingest.kafka.merge import Pending
from railbird.ingest.kafka.outputs import send_dead_letter
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.table_stage import _decode
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.rules.pipeline import Pipeline
from railbird.store import schema
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreSink, StoreWriter
from tests.builders import at

GOOD_CHAT = {
    "type": "chat",
    "message_id": "m-1",
    "ts": "2026-11-29T20:00:00Z",
    "player_id": "p-1",
    "channel": "table",
    "table_id": "t-1",
    "text": "gl all",
}
GOOD_TABLE = {
    "type": "table",
    "event_id": "e-1",
    "ts": "2026-11-29T20:00:01Z",
    "table_id": "t-1",
    "action": "join",
    "player_id": "p-1",
    "seat": 3,
}
POISON = {
    "year 1 in +05:00 (UTC overflows)": dict(GOOD_CHAT, ts="0001-01-01T00:00:00+05:00"),
    "year 9999 in -05:00 (UTC overflows)": dict(GOOD_CHAT, ts="9999-12-31T23:59:59-05:00"),
    "year 1850": dict(GOOD_CHAT, ts="1850-01-01T00:00:00Z"),
    "seat 10**30": dict(GOOD_TABLE, seat=10**30),
    "negative seat": dict(GOOD_TABLE, seat=-1),
    "text over the cap": dict(GOOD_CHAT, text="x" * 20_000),
    "id over the cap": dict(GOOD_CHAT, message_id="m" * 300),
    "seat as a float": dict(GOOD_TABLE, seat=3.5),
}


@pytest.mark.parametrize("name", sorted(POISON))
def test_each_poison_record_is_an_event_error_naming_its_field(name: str) -> None:
    record = json.dumps(POISON[name]).encode()
    with pytest.raises(EventError) as caught:
        parse_event(record, where="line 7")
    assert caught.value.where == "line 7"
    assert "field '" in caught.value.reason


def test_a_record_over_the_size_limit_is_refused_before_it_is_parsed() -> None:
    big = b'{"type": "chat", "text": "' + b"a" * (MAX_RECORD_BYTES + 1) + b'"}'
    rejected = decode(RawRecord("chat.messages", "partition 0 offset 5", big))
    assert isinstance(rejected, Rejected)
    assert "bytes, over the" in rejected.reason


def _lines(path: Path, records: Sequence[bytes]) -> Path:
    path.write_bytes(b"\n".join(records) + b"\n")
    return path


def test_scan_reports_every_poison_record_by_line_and_keeps_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    poison = [json.dumps(POISON[name]).encode() for name in sorted(POISON)]
    big = b'{"type": "chat", "oops": "' + b"z" * (2 * 1024 * 1024) + b'"}'
    good = [
        orjson.dumps(dict(GOOD_CHAT, message_id=f"m-{k}", ts=f"2026-11-29T20:00:{k:02d}Z"))
        for k in range(len(poison) + 1)
    ]
    interleaved = [r for pair in zip(good, [*poison, big], strict=True) for r in pair]
    path = _lines(tmp_path / "events.jsonl", interleaved)
    assert main(["scan", str(path), "--out", str(tmp_path / "f.jsonl")]) == 0
    err = capsys.readouterr().err
    for k in range(len(poison) + 1):
        assert f"line {2 * k + 2}:" in err  # every poison line, by number
    assert f"{len(good)} events ({len(poison) + 1} rejected)" in err


class _Record(NamedTuple):
    offset: int
    key: bytes | None
    value: bytes | None
    headers: Sequence[tuple[str, bytes]]


def test_the_workers_decode_path_turns_every_poison_record_into_a_rejection() -> None:
    tp = TopicPartition("poker.chat", 0)
    for offset, record in enumerate([*POISON.values(), None]):
        value = None if record is None else json.dumps(record).encode()
        result = _decode(tp, _Record(offset, b"t-1", value, ()), "chat")
        assert isinstance(result, Rejected)
        assert f"offset {offset}" in result.record.position


# -- hypothesis: random and adversarial records -------------------------------------------

_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    st.text(max_size=40),
    st.sampled_from(
        [
            "0001-01-01T00:00:00+05:00",
            "9999-12-31T23:59:59-14:00",
            "2026-11-29T20:00:00Z",
            "2026-02-30T00:00:00Z",
            "chat",
            "table",
            "hand",
            "",
        ]
    ),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner),
    max_leaves=12,
)
_KEYS = [*GOOD_CHAT, *GOOD_TABLE, "seats", "actions", "started_at", "ended_at", "hand_id"]


@st.composite
def _contract_shaped(draw: st.DrawFn) -> bytes:
    """A contract event with some fields replaced by anything: near misses find the bugs."""
    base = dict(draw(st.sampled_from([GOOD_CHAT, GOOD_TABLE])))
    for key in draw(st.lists(st.sampled_from(_KEYS), max_size=4)):
        base[key] = draw(_VALUES)
    return json.dumps(base).encode()


_RECORDS = st.one_of(
    _contract_shaped(), st.binary(max_size=200), _VALUES.map(lambda v: json.dumps(v).encode())
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_RECORDS)
def test_decode_never_raises(record: bytes) -> None:
    result = decode(RawRecord("f", "line 1", record))
    assert isinstance(result, Rejected) or result.event_id


@settings(max_examples=200, deadline=None)
@given(_RECORDS)
def test_the_workers_decode_never_raises(record: bytes) -> None:
    result = _decode(TopicPartition("poker.chat", 1), _Record(3, None, record, ()), "chat")
    assert isinstance(result, Rejected) or result.event_id


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_RECORDS, min_size=1, max_size=12))
def test_scan_of_random_records_never_raises_and_counts_them_all(records: list[bytes]) -> None:
    lines = [r.replace(b"\n", b" ").replace(b"\r", b" ") for r in records]
    rejected: list[Rejected] = []
    report = scan_records(
        (RawRecord("random", f"line {k}", line) for k, line in enumerate(lines, start=1)),
        Pipeline(build_detectors()),
        None,
        on_reject=rejected.append,
    )
    assert report.events + report.rejected == len(lines)


# -- one id, two contents -----------------------------------------------------------------


def test_a_duplicate_id_with_other_text_is_a_dead_letter_and_a_redelivery_is_not(
    tmp_path: Path,
) -> None:
    first = dict(GOOD_CHAT, text="nice hand")
    again = dict(first)  # a redelivery: the same record
    changed = dict(first, text="you are a fucking idiot")
    path = _lines(tmp_path / "e.jsonl", [orjson.dumps(r) for r in (first, again, changed)])
    rejected: list[Rejected] = []
    report = scan_records(
        read_jsonl(path), Pipeline(build_detectors()), None, on_reject=rejected.append
    )
    assert report.events == 2 and report.flags == 0  # the changed text is never read
    [dead] = rejected
    assert dead.record.position == "line 3"
    assert "duplicate chat id 'm-1' with different content" in dead.reason


# -- the DLQ and the store ----------------------------------------------------------------


def test_a_dead_letter_over_the_producers_limit_is_cut_with_its_size_in_a_header() -> None:
    sent: list[tuple[bytes | None, bytes, dict[str, str]]] = []

    class Producer:  # in-process: what reaches `send` is the point, not the broker
        def send(self, topic: str, *, key: bytes | None, value: bytes, headers: Any) -> None:
            sent.append((key, value, header_dict(headers)))

    value = b'{"type": "chat", "oops": "' + b"z" * (3 * 1024 * 1024) + b'"}'
    rejected = Rejected(RawRecord("poker.chat", "partition 0 offset 1", value), "too big")
    entry = Pending((at(0), -1, 0, 1), TopicPartition("poker.chat", 0), 1, rejected, b"k", value)
    send_dead_letter(KafkaSettings(), cast("Any", Producer()), None, entry, rejected)
    [(key, cut, headers)] = sent
    assert key == b"k" and len(cut) == DLQ_MAX_VALUE_BYTES and value.startswith(cut)
    assert headers["original_size"] == str(len(value)) and headers["truncated"] == "1"


class _RefusesOneEvent(StoreWriter):
    """The database refusing one record's value, whichever it is: a stand-in, because with the
    contract's bounds no valid event is known that SQLite or PostgreSQL would refuse."""

    def write(
        self,
        events: Sequence[AnyEvent] = (),
        flags: Sequence[Flag] = (),
        actions: Sequence[Action] = (),
        chat_records: Sequence[bytes] = (),
    ) -> None:
        ids = [e.event_id for e in events] + [orjson.loads(r)["message_id"] for r in chat_records]
        if "m-refused" in ids:
            raise ValueError("value out of range for the column")
        super().write(events, flags, actions, chat_records)


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{tmp_path / 'store.db'}")
    migrate(engine)
    return engine


def test_scan_sets_aside_a_record_the_store_refuses_and_stores_the_rest(engine: Engine) -> None:
    records = [
        orjson.dumps(dict(GOOD_CHAT, message_id=f"m-{k}", ts=f"2026-11-29T20:00:{k:02d}Z"))
        for k in range(5)
    ]
    records.insert(2, orjson.dumps(dict(GOOD_CHAT, message_id="m-refused")))
    sink = StoreSink(_RefusesOneEvent(engine))
    report = scan_records(
        (RawRecord("f", f"line {k}", r) for k, r in enumerate(records, start=1)),
        Pipeline(build_detectors()),
        None,
        on_reject=lambda _: None,
        sink=sink,
    )
    assert report.set_aside == 1 and report.events == 6
    with engine.connect() as conn:
        kept = conn.execute(select(schema.chat_messages.c.message_id)).scalars().all()
        dead = conn.execute(select(schema.dead_letters.c.reason)).scalars().all()
    assert sorted(kept) == [f"m-{k}" for k in range(5)]
    [reason] = dead
    assert reason.startswith("chat record m-refused could not be stored: ValueError")


def test_a_later_version_of_a_flag_updates_the_messages_it_cites(engine: Engine) -> None:
    from railbird.detectors.findings import Evidence, Finding

    def version(message_ids: tuple[str, ...], severity: str) -> Flag:
        return Flag.from_finding(
            Finding(
                detector="coordinated_sit_out",
                category="coordinated_sit_out",
                severity=cast("Any", severity),
                score=0.9,
                ts=at(5),
                player_ids=("p-1", "p-2"),
                message_ids=message_ids,
                dedupe_key="trn-1|p-1,p-2",  # as the group detectors key their flags
                evidence=Evidence(kind="coordinated_sit_out", summary="sat out together"),
            )
        )

    writer = StoreWriter(engine)
    first, later = version((), "medium"), version(("m-plan",), "high")
    assert first.flag_id == later.flag_id
    writer.write(flags=[first])
    writer.write(flags=[later])
    with engine.connect() as conn:
        [cited] = conn.execute(select(schema.flags.c.message_ids)).scalars().all()
    assert cited == ["m-plan"]


# -- the schema, created by workers started together --------------------------------------


def _migrate(url: str) -> None:
    migrate(make_engine(url))


def test_processes_started_together_on_a_new_sqlite_file_all_migrate(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    for trial in range(3):
        url = f"sqlite:///{tmp_path / f'new-{trial}.db'}"
        procs = [context.Process(target=_migrate, args=(url,)) for _ in range(6)]
        for proc in procs:
            proc.start()
        for proc in procs:
            proc.join(60)
        assert [p.exitcode for p in procs] == [0] * 6, trial
        with make_engine(url).connect() as conn:
            assert conn.execute(select(schema.actions.c.action_id)).all() == []


def test_the_duplicate_memory_stays_bounded_whatever_the_times_say() -> None:
    from datetime import timedelta

    from railbird.detectors.events import event_from_dict
    from railbird.ingest.duplicates import DuplicateIds

    memory = DuplicateIds(window=timedelta(minutes=10), max_ids=500)
    future = event_from_dict(dict(GOOD_CHAT, message_id="m-future", ts="2199-01-01T00:00:00Z"))
    assert memory.conflict(future) is None
    for k in range(2_000):
        event = event_from_dict(dict(GOOD_CHAT, message_id=f"m-{k}"))
        assert memory.conflict(event, scope=k % 3) is None
    assert len(memory) <= 500
    # ... and the future-dated record did not make today's ids expire early.
    changed = event_from_dict(dict(GOOD_CHAT, message_id="m-1999", text="changed"))
    assert memory.conflict(changed, scope=1999 % 3) is not None


def test_duplicates_are_scoped_so_two_partitions_never_disagree() -> None:
    from railbird.detectors.events import event_from_dict
    from railbird.ingest.duplicates import DuplicateIds

    memory = DuplicateIds()
    first = event_from_dict(GOOD_CHAT)
    other = event_from_dict(dict(GOOD_CHAT, text="something else"))
    assert memory.conflict(first, scope=0) is None
    assert memory.conflict(other, scope=1) is None  # another partition: its own ids
    assert memory.conflict(other, scope=0) is not None
