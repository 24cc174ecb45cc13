"""The outbox relay's bookkeeping: only what the broker acknowledged is marked sent, a refused
send is retried on the next pass, and a store that fails mid-way loses nothing.

An in-process producer stands in for the broker here because a real broker cannot be told to
refuse one chosen record of a batch; tests/integration/test_actions_relay.py runs the relay
against a real broker, end to end.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from sqlalchemy import Engine

from railbird.api.restriction_store import apply_restriction, lift_restriction
from railbird.ingest.kafka.outbox_relay import OutboxRelay
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.store.database import make_engine, migrate
from railbird.store.outbox import pending

NOW = datetime(2026, 12, 1, 12, tzinfo=UTC)


class _Sent:
    def __init__(self, error: Exception | None) -> None:
        self._error = error

    def get(self, timeout: float | None = None) -> object:
        if self._error is not None:
            raise self._error
        return None

    def add_errback(self, errback: Callable[[Exception], object]) -> _Sent:
        return self


class FlakyProducer:
    """Acknowledges every send except those `refuse` picks (by the record's value)."""

    def __init__(self, refuse: Callable[[dict[str, Any]], bool] = lambda v: False) -> None:
        self.refuse = refuse
        self.topic: list[tuple[str, bytes, dict[str, Any]]] = []  # what the broker kept

    def send(
        self,
        topic: str,
        value: bytes | None = None,
        key: bytes | None = None,
        headers: Any = None,
        partition: int | None = None,
    ) -> _Sent:
        assert value is not None and key is not None
        body = orjson.loads(value)
        if self.refuse(body):
            return _Sent(TimeoutError("no acknowledgement"))
        self.topic.append((topic, key, body))
        return _Sent(None)

    def flush(self, timeout: float | None = None) -> None:
        return None

    def close(self, timeout: float | None = None) -> None:
        return None

    def partitions_for(self, topic: str) -> set[int] | None:
        return {0}


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    created = make_engine(f"sqlite:///{tmp_path / 'relay.db'}")
    migrate(created)
    yield created
    created.dispose()


def _mute(engine: Engine, player: str, minutes: int = 30) -> str:
    return apply_restriction(
        engine,
        player_id=player,
        kind="mute_chat",
        duration=timedelta(minutes=minutes),
        reason="abuse",
        actor="key:test",
        flag_ids=(),
        now=NOW,
    ).action_id


def test_a_refused_send_stays_pending_and_goes_on_the_next_pass(engine: Engine) -> None:
    ids = [_mute(engine, f"p-{n}") for n in range(4)]
    refused = {ids[1]}
    producer = FlakyProducer(lambda v: v["action_id"] in refused)
    relay = OutboxRelay(engine, producer, KafkaSettings(), clock=lambda: NOW)
    assert relay.relay_once() == 3
    assert [r.value["action_id"] for r in pending(engine, 10)] == [ids[1]]
    refused.clear()
    assert relay.relay_once() == 1
    assert pending(engine, 10) == []
    assert sorted(body["action_id"] for _t, _k, body in producer.topic) == sorted(ids)
    assert {t for t, _k, _b in producer.topic} == {"moderation.actions"}
    assert {k for _t, k, _b in producer.topic} == {f"p-{n}".encode() for n in range(4)}
    assert relay.counts.failed == 1


def test_expiries_are_swept_and_sent_on_the_relays_clock(engine: Engine) -> None:
    short = _mute(engine, "p-1", minutes=5)
    _mute(engine, "p-2", minutes=120)
    clock = [NOW]
    producer = FlakyProducer()
    relay = OutboxRelay(engine, producer, KafkaSettings(), clock=lambda: clock[0])
    relay.drain()
    clock[0] = NOW + timedelta(minutes=6)
    relay.drain()
    statuses = [(b["action_id"], b["status"]) for _t, _k, b in producer.topic]
    assert statuses[-1] == (short, "expired")
    assert statuses.count((short, "expired")) == 1
    relay.drain()
    assert len(producer.topic) == len(statuses)  # nothing sent twice


def test_a_relay_that_dies_before_marking_resends_the_same_records(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    action_id = _mute(engine, "p-1")
    lift_restriction(engine, action_id, "key:test", "appeal", NOW + timedelta(minutes=1))
    producer = FlakyProducer()
    relay = OutboxRelay(engine, producer, KafkaSettings(), clock=lambda: NOW)

    def crash(*_args: object) -> None:
        raise OSError("store gone")

    monkeypatch.setattr("railbird.ingest.kafka.outbox_relay.mark_sent", crash)
    with pytest.raises(OSError):
        relay.relay_once()
    monkeypatch.undo()
    first = list(producer.topic)
    assert relay.relay_once() == 2
    assert producer.topic[2:] == first  # the same bytes again: an upsert by id absorbs them
    latest: dict[str, dict[str, Any]] = {}
    for _t, _k, body in producer.topic:
        if body["revision"] >= latest.get(body["action_id"], {}).get("revision", -1):
            latest[body["action_id"]] = body
    assert latest[action_id]["status"] == "lifted"


def test_run_backs_off_on_store_errors_and_stops_when_told(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _mute(engine, "p-1")
    producer = FlakyProducer()
    relay = OutboxRelay(engine, producer, KafkaSettings(), clock=lambda: NOW)
    failures = [2]
    real_once = relay.relay_once

    def flaky_once() -> int:
        if failures[0]:
            failures[0] -= 1
            raise OSError("database is locked")
        sent = real_once()
        if sent:
            stop.set()
        return sent

    monkeypatch.setattr(relay, "relay_once", flaky_once)
    stop = threading.Event()
    thread = threading.Thread(target=relay.run, args=(stop, 0.01))
    thread.start()
    thread.join(10)
    assert not thread.is_alive() and failures == [0]
    assert len(producer.topic) == 1
