"""Write side of the store: events, flags, actions and dead letters, in batches, as upserts."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Engine

from railbird.detectors.events import AnyEvent, ChatEvent, HandEvent, TableEvent
from railbird.rules.actions import Action
from railbird.rules.flags import Flag
from railbird.store import schema
from railbird.store.bulk_upsert import bulk_upsert, driver_params
from railbird.store.chat_rows import CHAT_KEYS, chat_params_builder, chat_row, chat_row_from_json
from railbird.store.upsert import upsert

# A later version of a flag (same id, higher severity or more evidence) replaces these; the
# messages it cites can grow too (a sit-out or bounty flag that a planning message joined).
FLAG_UPDATABLE = ("severity", "score", "explanation", "evidence", "ts", "message_ids")
# An action decided again for its flag's worse version keeps its id (kind, player, flags) and
# takes the new time, expiry and reason; who lifted it, and when, stays.
ACTION_UPDATABLE = ("ts", "expires_at", "reason", "changed_at")


def _table_row(e: TableEvent) -> dict[str, Any]:
    return {
        "event_id": e.event_id,
        "ts": e.ts,
        "table_id": e.table_id,
        "tournament_id": e.tournament_id,
        "action": e.action,
        "player_id": e.player_id,
        "seat": e.seat,
        "hand_id": e.hand_id,
        "players": list(e.players) if e.players is not None else None,
        "extra": e.model_extra or None,
    }


def _hand_row(e: HandEvent) -> dict[str, Any]:
    return {
        "hand_id": e.hand_id,
        "table_id": e.table_id,
        "tournament_id": e.tournament_id,
        "started_at": e.started_at,
        "ended_at": e.ended_at,
        "body": e.model_dump(mode="json"),
    }


def flag_row(flag: Flag) -> dict[str, Any]:
    data = flag.to_dict()
    return {
        "flag_id": flag.flag_id,
        "category": flag.category,
        "detector": flag.finding.detector,
        "severity": flag.severity,
        "score": flag.finding.score,
        "ts": flag.finding.ts,
        "table_id": flag.finding.table_id,
        "tournament_id": flag.finding.tournament_id,
        "hand_id": flag.finding.hand_id,
        "player_ids": data["player_ids"],
        "message_ids": data["message_ids"],
        "explanation": data["explanation"],
        "evidence": data["evidence"],
        "status": "open",
    }


def action_row(action: Action) -> dict[str, Any]:
    return {
        "action_id": action.action_id,
        "kind": action.kind,
        "player_id": action.player_id,
        "ts": action.ts,
        "expires_at": action.expires_at,
        "reason": action.reason,
        "flag_ids": list(action.flag_ids),
        "actor": action.actor,
        "scope": action.scope,
        "changed_at": datetime.now(UTC),
    }


def _write_chats(conn: Connection, records: Sequence[bytes], rows: list[dict[str, Any]]) -> None:
    """One executemany for all of them, in order: the records, then the rows."""
    built = chat_params_builder(conn.dialect) if records else None
    if built is None:
        chats = [*(chat_row_from_json(r) for r in records), *rows]
        bulk_upsert(conn, schema.chat_messages, chats, CHAT_KEYS)
        return
    compiled, params_of = built
    params = [params_of(r) for r in records]
    if rows:
        params.extend(driver_params(compiled, rows))
    conn.exec_driver_sql(compiled.sql, params)


class StoreWriter:
    """Buffers rows and flushes them in one transaction per batch."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def write(
        self,
        events: Sequence[AnyEvent] = (),
        flags: Sequence[Flag] = (),
        actions: Sequence[Action] = (),
        chat_records: Sequence[bytes] = (),
    ) -> None:
        """Store it all in one transaction; `chat_records` are raw chat events already validated
        (the store process's), stored before the chat in `events`."""
        chats = [chat_row(e) for e in events if isinstance(e, ChatEvent)]
        tables = [_table_row(e) for e in events if isinstance(e, TableEvent)]
        hand_events = [e for e in events if isinstance(e, HandEvent)]
        with self.engine.begin() as conn:
            _write_chats(conn, chat_records, chats)
            bulk_upsert(conn, schema.table_events, tables, ["event_id"])
            bulk_upsert(conn, schema.hands, [_hand_row(e) for e in hand_events], ["hand_id"])
            bulk_upsert(
                conn,
                schema.hand_players,
                [
                    {"hand_id": h.hand_id, "player_id": s.player_id}
                    for h in hand_events
                    for s in h.seats
                ],
                ["hand_id", "player_id"],
            )
            bulk_upsert(
                conn, schema.flags, [flag_row(f) for f in flags], ["flag_id"], FLAG_UPDATABLE
            )
            bulk_upsert(
                conn,
                schema.flag_players,
                [{"flag_id": f.flag_id, "player_id": p} for f in flags for p in f.player_ids],
                ["flag_id", "player_id"],
            )
            bulk_upsert(
                conn,
                schema.actions,
                [action_row(a) for a in actions],
                ["action_id"],
                ACTION_UPDATABLE,
            )

    def write_dead_letter(self, source: str, position: str, reason: str, raw: str | None) -> None:
        dl_id = hashlib.blake2b(f"{source}|{position}".encode(), digest_size=16).hexdigest()
        row = {
            "id": dl_id,
            "ts": datetime.now(UTC),
            "source": source,
            "position": position,
            "reason": reason,
            "raw": raw,
        }
        with self.engine.begin() as conn:
            upsert(conn, schema.dead_letters, [row], ["id"])


class StoreSink:
    """The store as a `Sink` for callers that write in their own thread (`scan`, the demo's
    feed): `flush` writes what was added in one transaction and returns once it is durable."""

    def __init__(self, writer: StoreWriter) -> None:
        self.writer = writer
        self._events: list[AnyEvent] = []
        self._flags: list[Flag] = []
        self._actions: list[Action] = []
        self._ticket = 0
        self.set_aside = 0  # records the store refused, dead-lettered

    def add(
        self, events: Sequence[AnyEvent], flags: Sequence[Flag], actions: Sequence[Action]
    ) -> None:
        self._events.extend(events)
        self._flags.extend(flags)
        self._actions.extend(actions)

    def add_dead_letter(self, source: str, position: str, reason: str, raw: str | None) -> None:
        # Written at once: dead letters are rare, and one that would wait for the batch could
        # be lost with it to a failure that the rest of the batch caused.
        self.writer.write_dead_letter(source, position, reason, raw)

    @property
    def pending(self) -> int:
        return len(self._events)

    def flush(self) -> int:
        """Write what was added in one transaction. If a record's value is what fails, the
        records are written apart and the bad ones dead-lettered with the reason, as the Kafka
        worker's store process does (`store.batches`): one record must not lose its batch."""
        if self._events or self._flags or self._actions:
            try:
                self.writer.write(self._events, self._flags, self._actions)
            except Exception as exc:
                from railbird.store.batches import write_apart  # batches builds on this module

                self.set_aside += write_apart(
                    self.writer, self._events, self._flags, self._actions, exc
                )
            self._events, self._flags, self._actions = [], [], []
            self._ticket += 1
        return self._ticket

    def durable(self) -> int:
        return self._ticket

    def wait(self, ticket: int | None = None) -> None:
        """Nothing to wait for: `flush` returns once its write is durable."""
