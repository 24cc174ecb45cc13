"""Read side for investigators: what happened around a flag, and a player's record.

"Full context" means the conversation, the table's events and the hands in a window around the
flag: the table's chat (what others said matters for harassment and influence), everything the
flagged players said anywhere (private messages included), and the table events of the table or,
for tournament-wide group flags, of the group's players.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Engine, or_, select

from railbird.api.flag_queries import as_utc, flag_dict
from railbird.store import schema


def rows_of(engine: Engine, query: Any) -> list[dict[str, Any]]:
    """Rows as dicts, their times as the contract writes them."""
    with engine.connect() as conn:
        rows = [dict(r._mapping) for r in conn.execute(query)]
    for row in rows:
        for key in ("ts", "started_at", "ended_at"):
            if isinstance(row.get(key), datetime):
                row[key] = as_utc(row[key]).isoformat().replace("+00:00", "Z")
    return rows


def flag_context(
    engine: Engine, flag: dict[str, Any], window: timedelta, limit: int = 500
) -> dict[str, Any]:
    """The chat, table events and hands within `window` either side of `flag` (a `get_flag` row).

    At most `limit` of each, oldest first; the keys are `ContextOut`'s, `flag` returned as given.
    """
    ts: datetime = flag["ts"]
    start, end = ts - window, ts + window
    players = list(flag["player_ids"])
    chat_t, events_t, hands_t = schema.chat_messages, schema.table_events, schema.hands

    chat_where = [chat_t.c.player_id.in_(players), chat_t.c.recipient_id.in_(players)]
    if flag["table_id"]:
        chat_where.append(chat_t.c.table_id == flag["table_id"])
    chat = rows_of(
        engine,
        select(chat_t)
        .where(chat_t.c.ts.between(start, end), or_(*chat_where))
        .order_by(chat_t.c.ts)
        .limit(limit),
    )
    event_where = [events_t.c.player_id.in_(players)]
    if flag["table_id"]:
        event_where.append(events_t.c.table_id == flag["table_id"])
    table_events = rows_of(
        engine,
        select(events_t)
        .where(events_t.c.ts.between(start, end), or_(*event_where))
        .order_by(events_t.c.ts)
        .limit(limit),
    )
    hand_where = []
    if flag["hand_id"]:
        hand_where.append(hands_t.c.hand_id == flag["hand_id"])
    if flag["table_id"]:
        hand_where.append(
            (hands_t.c.table_id == flag["table_id"])
            & (hands_t.c.ended_at >= start)
            & (hands_t.c.started_at <= end)
        )
    hands = []
    if hand_where:
        hands = [
            row["body"]
            for row in rows_of(
                engine, select(hands_t).where(or_(*hand_where)).order_by(hands_t.c.started_at)
            )
        ][:limit]
    return {
        "flag": flag,
        "chat": chat,
        "table_events": table_events,
        "hands": hands,
        "window_from": start,
        "window_to": end,
    }


def player_flags(engine: Engine, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The flags that name `player_id`, group flags included, newest first, at most `limit`."""
    f, fp = schema.flags, schema.flag_players
    query = (
        select(f)
        .where(f.c.flag_id.in_(select(fp.c.flag_id).where(fp.c.player_id == player_id)))
        .order_by(f.c.ts.desc())
        .limit(limit)
    )
    with engine.connect() as conn:
        return [flag_dict(r) for r in conn.execute(query)]


def player_known(engine: Engine, player_id: str) -> bool:
    """Whether railbird has any record of `player_id`: a message, a table event, a hand dealt,
    a flag or a restriction (each an indexed lookup). A clean player is known; a typo is not."""
    checks = (
        select(schema.chat_messages.c.message_id).where(
            schema.chat_messages.c.player_id == player_id
        ),
        select(schema.table_events.c.event_id).where(schema.table_events.c.player_id == player_id),
        select(schema.hand_players.c.hand_id).where(schema.hand_players.c.player_id == player_id),
        select(schema.flag_players.c.flag_id).where(schema.flag_players.c.player_id == player_id),
        select(schema.actions.c.action_id).where(schema.actions.c.player_id == player_id),
    )
    with engine.connect() as conn:
        return any(conn.execute(query.limit(1)).first() is not None for query in checks)
