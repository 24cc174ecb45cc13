"""Investigators' sessions: a player's stretch at one table, with everything that happened in it.

A session is read from the hands the player was dealt into at one table: consecutive hands with
no gap over `SESSION_GAP` are one session (a tournament table's or a cash table's). Its id is
the (player, table, first hand's start, last hand's end) it covers, encoded: the store needs no
table of its own, and an id can always be read back and checked. A session holds the table's
chat and the player's private messages in its span (redacted as stored), the table's events,
the hands with their cards and board, and the flags that name the player there.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, and_, or_, select

from railbird.api.context_queries import rows_of
from railbird.api.flag_queries import as_utc, flag_dict
from railbird.detectors.events import EARLIEST, LATEST
from railbird.store import schema

SESSION_GAP = timedelta(minutes=30)
MAX_SESSIONS = 500
MAX_ROWS = 5000  # of each kind in one session
MAX_HANDS_READ = 20_000  # hands read to build one listing (narrow it with since / until)


@dataclass(frozen=True, slots=True)
class SessionKey:
    player_id: str
    table_id: str
    start: datetime
    end: datetime

    @property
    def session_id(self) -> str:
        text = f"{self.player_id}|{self.table_id}|{self.start.isoformat()}|{self.end.isoformat()}"
        return "s-" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def parse_session_id(session_id: str) -> SessionKey:
    """The session an id names; `ValueError` for an id this service did not issue."""
    if not session_id.startswith("s-") or len(session_id) > 400:
        raise ValueError(f"not a session id: {session_id[:80]!r}")
    body = session_id[2:]
    try:
        text = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode()
        player, table, start_text, end_text = text.split("|")
        start, end = (
            as_utc(datetime.fromisoformat(start_text)),
            as_utc(datetime.fromisoformat(end_text)),
        )
    except (ValueError, UnicodeDecodeError, OverflowError) as exc:
        raise ValueError(f"not a session id: {session_id[:80]!r}") from exc
    if not (EARLIEST <= start <= end < LATEST) or not player or not table:
        raise ValueError(f"not a session id: {session_id[:80]!r}")
    return SessionKey(player, table, start, end)


def list_sessions(
    engine: Engine,
    *,
    player_id: str | None,
    table_id: str | None,
    tournament_id: str | None,
    since: datetime | None,
    until: datetime | None,
) -> list[dict[str, Any]]:
    """Sessions matching the filters (at least a player or a table), newest first, each with
    its hands' count, its tournament and the flags naming the player in it."""
    h, hp = schema.hands.c, schema.hand_players.c
    query = select(
        hp.player_id, h.table_id, h.tournament_id, h.started_at, h.ended_at, h.hand_id
    ).join(schema.hands, h.hand_id == hp.hand_id)
    if player_id:
        query = query.where(hp.player_id == player_id)
    if table_id:
        query = query.where(h.table_id == table_id)
    if tournament_id:
        query = query.where(h.tournament_id == tournament_id)
    if since:
        query = query.where(h.ended_at >= since)
    if until:
        query = query.where(h.started_at < until)
    query = query.order_by(hp.player_id, h.table_id, h.started_at).limit(MAX_HANDS_READ)
    with engine.connect() as conn:
        hands = conn.execute(query).all()
    sessions = list(_group(hands))
    sessions.sort(key=lambda s: s["start"], reverse=True)
    sessions = sessions[:MAX_SESSIONS]
    for session in sessions:
        key = session.pop("key")
        session["flags"] = [f["flag_id"] for f in _flags(engine, key)]
    return sessions


def _group(hands: Sequence[Any]) -> Iterator[dict[str, Any]]:
    current: dict[str, Any] | None = None
    for player, table, tournament, started, ended, _hand in hands:
        started, ended = as_utc(started), as_utc(ended)
        if (
            current is not None
            and current["player_id"] == player
            and current["table_id"] == table
            and started - current["end"] <= SESSION_GAP
        ):
            current["end"] = max(current["end"], ended)
            current["hands"] += 1
            continue
        if current is not None:
            yield _finish(current)
        current = {
            "player_id": player,
            "table_id": table,
            "tournament_id": tournament,
            "start": started,
            "end": ended,
            "hands": 1,
        }
    if current is not None:
        yield _finish(current)


def _finish(session: dict[str, Any]) -> dict[str, Any]:
    key = SessionKey(session["player_id"], session["table_id"], session["start"], session["end"])
    return {"session_id": key.session_id, "key": key, **session}


def session_detail(engine: Engine, key: SessionKey) -> dict[str, Any]:
    """Everything in a session, oldest first: chat, table events, hands, flags."""
    chat_t, events_t, hands_t = schema.chat_messages, schema.table_events, schema.hands
    span = (key.start, key.end)
    chat = rows_of(
        engine,
        select(chat_t)
        .where(
            chat_t.c.ts.between(*span),
            or_(
                chat_t.c.table_id == key.table_id,
                and_(
                    chat_t.c.table_id.is_(None),
                    or_(
                        chat_t.c.player_id == key.player_id, chat_t.c.recipient_id == key.player_id
                    ),
                ),
            ),
        )
        .order_by(chat_t.c.ts)
        .limit(MAX_ROWS),
    )
    table_events = rows_of(
        engine,
        select(events_t)
        .where(events_t.c.table_id == key.table_id, events_t.c.ts.between(*span))
        .order_by(events_t.c.ts)
        .limit(MAX_ROWS),
    )
    hands = rows_of(
        engine,
        select(hands_t)
        .where(
            hands_t.c.table_id == key.table_id,
            hands_t.c.started_at >= key.start,
            hands_t.c.started_at <= key.end,
        )
        .order_by(hands_t.c.started_at)
        .limit(MAX_ROWS),
    )
    flags = _flags(engine, key)
    for flag in flags:
        flag["ts"] = flag["ts"].isoformat().replace("+00:00", "Z")
    return {
        "session_id": key.session_id,
        "player_id": key.player_id,
        "table_id": key.table_id,
        "start": key.start,
        "end": key.end,
        "chat": chat,
        "table_events": table_events,
        "hands": hands,
        "flags": flags,
    }


def _flags(engine: Engine, key: SessionKey) -> list[dict[str, Any]]:
    f, fp = schema.flags.c, schema.flag_players.c
    members = select(fp.flag_id).where(fp.player_id == key.player_id)
    query = (
        select(schema.flags)
        .where(
            f.flag_id.in_(members),
            f.ts.between(key.start - SESSION_GAP / 6, key.end + SESSION_GAP / 6),
            or_(f.table_id == key.table_id, f.table_id.is_(None)),
        )
        .order_by(f.ts)
        .limit(MAX_ROWS)
    )
    with engine.connect() as conn:
        return [flag_dict(r) for r in conn.execute(query)]


def export_rows(detail: dict[str, Any]) -> Iterator[tuple[str, str, str, str]]:
    """A session as (kind, ts, who, what) lines, in time order: the CSV export."""
    lines: list[tuple[str, str, str, str]] = []
    for m in detail["chat"]:
        where = m.get("channel") or ""
        lines.append(("chat", m["ts"], m["player_id"], f"[{where}/{m['kind']}] {m['text']}"))
    for e in detail["table_events"]:
        lines.append(("table_event", e["ts"], e.get("player_id") or "", e["action"]))
    for h in detail["hands"]:
        body = h.get("body") or {}
        board = " ".join(body.get("board") or [])
        lines.append(("hand", h["started_at"], "", f"{h['hand_id']} board {board}".strip()))
    for f in detail["flags"]:
        who = ",".join(f["player_ids"])
        lines.append(
            ("flag", f["ts"], who, f"{f['category']} ({f['severity']}): {f['explanation']}")
        )
    lines.sort(key=lambda line: line[1])
    yield from lines
