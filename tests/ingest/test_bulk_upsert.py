"""The hot-path upsert stores exactly what SQLAlchemy's own upsert stores, and is idempotent."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, Table

from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.store import schema
from railbird.store.bulk_upsert import _compile, bulk_upsert
from railbird.store.chat_rows import chat_row
from railbird.store.database import make_engine, migrate
from railbird.store.upsert import upsert
from railbird.store.writer import FLAG_UPDATABLE, _table_row, action_row, flag_row
from tests.builders import T0, chat, table


def _flag(severity: Severity, score: float) -> Flag:
    return Flag.from_finding(
        Finding(
            detector="bounty_collusion",
            category="bounty_collusion",
            severity=severity,
            score=score,
            ts=T0,
            player_ids=("p-2", "p-1"),
            evidence=Evidence(kind="bounty_steer", summary="steered bounties to p-2"),
            tournament_id="trn-1",
            dedupe_key="trn-1:p-2,p-1",
        )
    )


def _batches() -> list[tuple[Table, list[dict[str, Any]], list[str], tuple[str, ...]]]:
    chats = [
        chat_row(chat("gg wp", message_id="m-1")),
        chat_row(chat("call me on +44 7700 900123", message_id="m-2", table=None)),
        chat_row(chat(":)", kind="emoji", message_id="m-3", recipient="p-9", channel="private")),
    ]
    tables = [
        _table_row(table("join", player="p-1", seat=3, event_id="e-1")),
        _table_row(table("hand_start", hand_id="h-1", players=["p-1", "p-2"], event_id="e-2")),
    ]
    low, high = _flag("low", 0.4), _flag("high", 0.9)
    action = Action(
        action_id="a-1",
        kind="mute_chat",
        player_id="p-2",
        ts=T0,
        reason="bounty steering",
        flag_ids=(high.flag_id,),
        duration=timedelta(hours=1),
    )
    return [
        (schema.chat_messages, chats, ["message_id"], ()),
        (schema.table_events, tables, ["event_id"], ()),
        (schema.flags, [flag_row(low), flag_row(high)], ["flag_id"], FLAG_UPDATABLE),
        (schema.actions, [action_row(action)], ["action_id"], ()),
    ]


def _engine(path: Path) -> Engine:
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    return engine


def _raw(path: Path, table: Table) -> list[tuple[Any, ...]]:
    with sqlite3.connect(path) as conn:
        return sorted(conn.execute(f"SELECT * FROM {table.name}").fetchall(), key=repr)


def test_bulk_upsert_stores_exactly_what_upsert_stores(tmp_path: Path) -> None:
    reference, fast = tmp_path / "reference.db", tmp_path / "fast.db"
    engines = _engine(reference), _engine(fast)
    batches = list(_batches())  # once: an action row carries the time it was built
    for _ in range(2):  # the second round must change nothing (replay after a crash)
        with engines[0].begin() as conn:
            for table_, rows, keys, update in batches:
                upsert(conn, table_, rows, keys, update)
        with engines[1].begin() as conn:
            for table_, rows, keys, update in batches:
                bulk_upsert(conn, table_, rows, keys, update)
    for engine in engines:
        engine.dispose()
    for table_, rows, _keys, _update in batches:
        stored = _raw(fast, table_)
        assert stored == _raw(reference, table_)
        assert len(stored) == len({next(iter(r.values())) for r in rows})


def test_a_rising_severity_updates_the_stored_flag(tmp_path: Path) -> None:
    engine = _engine(tmp_path / "f.db")
    with engine.begin() as conn:
        bulk_upsert(conn, schema.flags, [flag_row(_flag("low", 0.4))], ["flag_id"], FLAG_UPDATABLE)
    with engine.begin() as conn:
        bulk_upsert(conn, schema.flags, [flag_row(_flag("high", 0.9))], ["flag_id"], FLAG_UPDATABLE)
    with engine.connect() as conn:
        rows = conn.execute(schema.flags.select()).all()
    engine.dispose()
    assert [(r.severity, r.score) for r in rows] == [("high", 0.9)]


@pytest.mark.parametrize(
    "value",
    [
        datetime(2026, 11, 29, 20, 15, 3, 120000, tzinfo=UTC),
        datetime(2026, 11, 29, 20, 15, 3, tzinfo=UTC),  # no microseconds: still written
        datetime(2026, 1, 2, 3, 4, 5, 6, tzinfo=timezone(timedelta(hours=-5))),  # offset dropped
        datetime(999, 12, 31, 23, 59, 59, 999999, tzinfo=UTC),  # year padded to 4 digits
        datetime(2026, 11, 29, 20, 15, 3, 1, tzinfo=UTC).replace(tzinfo=None),  # naive
    ],
)
def test_the_fast_sqlite_datetime_writes_what_sqlalchemy_writes(value: datetime) -> None:
    dialect = make_engine("sqlite://").dialect
    impl = schema.chat_messages.c.ts.type.dialect_impl(dialect)
    slow = impl.bind_processor(dialect)
    columns = tuple(schema.chat_messages.c.keys())
    fast = _compile(dialect, schema.chat_messages, columns, ["message_id"], ())
    assert slow is not None and fast is not None
    processor = fast.processors[fast.names.index("ts")]
    assert processor is not None and processor is not slow  # the fast one is in use
    assert processor(value) == slow(value)
