"""A record the store cannot write is set aside in the dead-letter table; the rest is stored.

The worker validates every record before the store process sees it, so these records are
handed to the store directly: a chat record without `player_id` stands for any disagreement
between the worker's decoder and the store's re-reading of the bytes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, cast

import orjson
import pytest
from kafka import TopicPartition
from sqlalchemy import Engine, exc, select

from railbird.detectors.findings import Evidence, Finding
from railbird.ingest.decode import RawRecord, Rejected
from railbird.ingest.kafka.merge import Pending
from railbird.ingest.kafka.outputs import send_dead_letter
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.store import schema
from railbird.store.batches import SetAsideBudget, SystematicStoreError, write_requests
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreWriter
from railbird.store.writer_process import StoreFailedError, StoreProcess
from tests.builders import at, iso


def chat(message_id: str, text: str = "gg", *, player: str | None = "p-1") -> bytes:
    record = {
        "type": "chat",
        "message_id": message_id,
        "ts": iso(at(1)),
        "player_id": player,
        "channel": "table",
        "table_id": "t-1",
        "text": text,
    }
    return orjson.dumps({k: v for k, v in record.items() if v is not None})


def unstorable(message_id: str) -> bytes:
    return chat(message_id, "nice hand", player=None)


def table_join(event_id: str) -> bytes:
    record = {
        "type": "table",
        "event_id": event_id,
        "ts": iso(at(2)),
        "table_id": "t-1",
        "action": "join",
        "player_id": "p-2",
        "seat": 2,
    }
    return orjson.dumps(record)


def a_flag() -> Flag:
    finding = Finding(
        detector="profanity",
        category="profanity",
        severity="low",
        score=0.6,
        ts=at(3),
        player_ids=("p-1",),
        table_id="t-1",
        message_ids=("m-1",),
        evidence=Evidence(kind="mild_swearing", summary="said a mild swear word"),
    )
    return Flag.from_finding(finding)


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    engine = make_engine(f"sqlite:///{tmp_path / 'store.db'}")
    migrate(engine)
    yield engine
    engine.dispose()


def stored(engine: Engine) -> dict[str, Sequence[Any]]:
    with engine.connect() as conn:
        return {
            "chat": conn.execute(select(schema.chat_messages.c.message_id)).scalars().all(),
            "tables": conn.execute(select(schema.table_events.c.event_id)).scalars().all(),
            "flags": conn.execute(select(schema.flags.c.flag_id)).scalars().all(),
            "actions": conn.execute(select(schema.actions.c.action_id)).scalars().all(),
            "dead": [
                tuple(row)
                for row in conn.execute(
                    select(
                        schema.dead_letters.c.source,
                        schema.dead_letters.c.reason,
                        schema.dead_letters.c.raw,
                    )
                )
            ],
        }


def test_one_bad_record_is_set_aside_and_the_rest_stored(engine: Engine) -> None:
    flag = a_flag()
    action = Action("a-1", "warn", "p-1", at(3), "profanity (low)", (flag.flag_id,))
    events = [
        ("chat", chat("m-1")),
        ("chat", unstorable("m-bad")),
        ("table", table_join("e-1")),
    ]
    set_aside = write_requests(StoreWriter(engine), [(1, "batch", events, [flag], [action])])
    assert set_aside == 1
    found = stored(engine)
    assert found["chat"] == ["m-1"]
    assert found["tables"] == ["e-1"]
    assert found["flags"] == [flag.flag_id]
    assert found["actions"] == ["a-1"]
    [(source, reason, kept)] = found["dead"]
    assert source == "store"
    assert reason.startswith("chat record m-bad could not be stored: KeyError")
    assert "player_id" in reason
    assert orjson.loads(kept)["message_id"] == "m-bad"  # the record as it came, to replay


def test_a_replayed_bad_record_is_set_aside_once(engine: Engine) -> None:
    batch = [("chat", chat("m-1")), ("chat", unstorable("m-x"))]
    writer = StoreWriter(engine)
    for ticket in (1, 2):  # the worker restarted before committing: the same batch again
        assert write_requests(writer, [(ticket, "batch", batch, [], [])]) == 1
    found = stored(engine)
    assert found["chat"] == ["m-1"]
    assert len(found["dead"]) == 1


def test_a_fault_every_record_hits_stops_the_store(engine: Engine) -> None:
    batch = [("chat", unstorable("m-1")), ("chat", unstorable("m-2"))]
    with pytest.raises(SystematicStoreError, match="every record of the batch failed"):
        write_requests(StoreWriter(engine), [(1, "batch", batch, [], [])])
    assert stored(engine)["dead"] == []


def test_a_failing_database_is_never_blamed_on_a_record(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'no-schema.db'}")  # no tables at all
    batch = [("chat", chat("m-1")), ("chat", unstorable("m-2"))]
    with pytest.raises(exc.OperationalError, match="no such table"):
        write_requests(StoreWriter(engine), [(1, "batch", batch, [], [])])
    engine.dispose()


def test_the_store_process_acknowledges_past_a_bad_record(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'store.db'}"
    engine = make_engine(url)
    migrate(engine)
    store = StoreProcess(url)
    try:
        store.add([("chat", chat("m-1")), ("chat", unstorable("m-bad"))], [], [])
        store.flush()
        store.add([("chat", chat("m-2", "nh"))], [], [])
        last = store.flush()
        store.wait()
        assert store.durable() == last
        assert store.set_aside == 1  # for the worker's `store_set_aside_total` metric
    finally:
        store.close()
    found = stored(engine)
    engine.dispose()
    assert sorted(found["chat"]) == ["m-1", "m-2"]
    assert [reason.split(":")[0] for _source, reason, _raw in found["dead"]] == [
        "chat record m-bad could not be stored"
    ]


def test_a_set_aside_record_keeps_no_disclosed_personal_data(engine: Engine) -> None:
    leaky = orjson.loads(unstorable("m-leak"))
    leaky["text"] = "call me on +44 7700 900123"
    batch = [("chat", chat("m-1")), ("chat", orjson.dumps(leaky))]
    assert write_requests(StoreWriter(engine), [(1, "batch", batch, [], [])]) == 1
    [(_source, _reason, kept)] = stored(engine)["dead"]
    assert "7700" not in kept
    assert orjson.loads(kept)["text"] == "call me on [phone]"


def test_the_worker_dead_letters_bytes_to_the_topic_and_redacted_text_to_the_store() -> None:
    sent: list[tuple[str, bytes | None, bytes]] = []
    kept: list[tuple[str, str, str, str | None]] = []

    class Producer:
        def send(self, topic: str, *, key: bytes | None, value: bytes, headers: Any) -> None:
            sent.append((topic, key, value))

    class Store:
        def add_dead_letter(self, source: str, position: str, reason: str, raw: str | None) -> None:
            kept.append((source, position, reason, raw))

    value = b'{"type": "chat", "text": "mail me at jo@example.com", "ts": 7}'
    rejected = Rejected(RawRecord("chat.messages", "partition 2 offset 9", value), "bad ts")
    tp = TopicPartition("chat.messages", 2)
    entry = Pending((at(0), -1, 0, 9), tp, 9, rejected, b"t-1", value)
    # In-process stand-ins: what is handed to each is the point here, not the pipe or broker.
    store = cast("StoreProcess", Store())
    send_dead_letter(KafkaSettings(), Producer(), store, entry, rejected)
    assert sent == [("chat.messages.dlq", b"t-1", value)]  # the exact bytes, to replay
    [(source, position, reason, raw)] = kept
    assert (source, position, reason) == ("chat.messages", "partition 2 offset 9", "bad ts")
    assert raw is not None and "jo@example.com" not in raw and "[email]" in raw


def test_bad_records_are_found_by_halving_not_one_write_each(engine: Engine) -> None:
    class Counting(StoreWriter):
        writes = 0

        def write(self, *args: Any, **kwargs: Any) -> None:
            Counting.writes += 1
            super().write(*args, **kwargs)

    good = [("chat", chat(f"m-{i}")) for i in range(128)]
    batch = [*good[:40], ("chat", unstorable("m-bad-1")), *good[40:100]]
    batch += [("chat", unstorable("m-bad-2")), *good[100:]]
    assert write_requests(Counting(engine), [(1, "batch", batch, [], [])]) == 2
    found = stored(engine)
    assert sorted(found["chat"]) == sorted(f"m-{i}" for i in range(128))
    reasons = sorted(reason.split(" could")[0] for _source, reason, _raw in found["dead"])
    assert reasons == ["chat record m-bad-1", "chat record m-bad-2"]
    assert Counting.writes <= 30, Counting.writes  # 130 records: one write each is 131


def test_the_budget_allows_a_bad_record_now_and_then_but_not_a_habit() -> None:
    budget = SetAsideBudget(share=0.01, floor=3)
    for _ in range(3):
        budget.spend(1, 1)  # up to the floor: a few bad records, however few were seen
    budget.spend(400, 0)
    budget.spend(1, 1)  # 4 of 404: within 1%
    with pytest.raises(SystematicStoreError, match="5 of 405 records could not be stored"):
        budget.spend(1, 1)


def test_a_fault_every_lone_record_hits_stops_the_store_process(tmp_path: Path) -> None:
    """A quiet stream: one record a batch, so no batch is "every record failed"; the budget
    (100 records) is what stops the store, and the worker with it."""
    url = f"sqlite:///{tmp_path / 'store.db'}"
    engine = make_engine(url)
    migrate(engine)
    engine.dispose()
    store = StoreProcess(url)
    try:
        store.add([("chat", chat("m-ok"))], [], [])
        store.flush()
        for i in range(100):  # each acknowledged before the next: never two in one batch
            store.add([("chat", unstorable(f"m-{i}"))], [], [])
            store.flush()
            store.wait()
        assert store.set_aside == 100
        store.add([("chat", unstorable("m-100"))], [], [])
        store.flush()
        with pytest.raises(StoreFailedError, match="101 of 102 records could not be stored"):
            store.wait()
    finally:
        store.close(timeout=10)
