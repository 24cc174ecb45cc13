"""Write side of the store: events, flags, actions and dead letters, in batches, as upserts."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import orjson
from sqlalchemy import Engine

from detectors.events import AnyEvent, ChatEvent, HandEvent, TableEvent, parse_event
from detectors.pii_redaction import redact
from ingest.bulk_upsert import bulk_upsert
from ingest.upsert import upsert
from rules.actions import Action
from rules.flags import Flag
from store import schema

FLAG_UPDATABLE = ("severity", "score", "explanation", "evidence", "ts")


def _chat_row(e: ChatEvent) -> dict[str, Any]:
    # Disclosed personal data (phones, emails, card numbers, addresses) is not kept: the
    # detectors saw the raw text, the chat log keeps the redacted one.
    text = redact(e.text) if e.kind == "text" else e.text
    return {
        "message_id": e.message_id,
        "ts": e.ts,
        "player_id": e.player_id,
        "screen_name": e.screen_name,
        "channel": e.channel,
        "table_id": e.table_id,
        "tournament_id": e.tournament_id,
        "recipient_id": e.recipient_id,
        "kind": e.kind,
        "text": text,
        "redacted": text != e.text,
        "extra": e.model_extra or None,
    }


_CHAT_FIELDS = frozenset(ChatEvent.model_fields)
# The plain RFC 3339 shape, which `datetime.fromisoformat` reads exactly as pydantic does.
_RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d{1,6})?(?:Z|[+-]\d\d:\d\d)")


def chat_row_from_json(raw: bytes) -> dict[str, Any]:
    """`_chat_row` of the chat event in `raw`, which was already validated as one.

    Why: the Kafka worker's store process re-reads every chat record it stores; pydantic's
    validation there (already done once by the worker) was a quarter of that process's time.
    Anything but the plain time shape goes through pydantic, so the row is always the same.
    """
    data = orjson.loads(raw)
    ts = data["ts"]
    if type(ts) is not str or not _RFC3339.fullmatch(ts):
        event = parse_event(raw)
        assert isinstance(event, ChatEvent)
        return _chat_row(event)
    raw_text = data.get("text", "")
    kind = data.get("kind", "text")
    text = redact(raw_text) if kind == "text" else raw_text
    extra = {k: v for k, v in data.items() if k not in _CHAT_FIELDS}
    return {
        "message_id": data["message_id"],
        "ts": datetime.fromisoformat(ts).astimezone(UTC),
        "player_id": data["player_id"],
        "screen_name": data.get("screen_name"),
        "channel": data["channel"],
        "table_id": data.get("table_id"),
        "tournament_id": data.get("tournament_id"),
        "recipient_id": data.get("recipient_id"),
        "kind": kind,
        "text": text,
        "redacted": text != raw_text,
        "extra": extra or None,
    }


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
    }


class StoreWriter:
    """Buffers rows and flushes them in one transaction per batch."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def write(
        self,
        events: Sequence[AnyEvent] = (),
        flags: Sequence[Flag] = (),
        actions: Sequence[Action] = (),
        chat_rows: Sequence[dict[str, Any]] = (),
    ) -> None:
        """Store it all in one transaction; `chat_rows` are chat events already made rows."""
        chats = [*chat_rows, *(_chat_row(e) for e in events if isinstance(e, ChatEvent))]
        tables = [_table_row(e) for e in events if isinstance(e, TableEvent)]
        hand_events = [e for e in events if isinstance(e, HandEvent)]
        with self.engine.begin() as conn:
            bulk_upsert(conn, schema.chat_messages, chats, ["message_id"])
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
            bulk_upsert(conn, schema.actions, [action_row(a) for a in actions], ["action_id"])

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
