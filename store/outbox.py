"""The transactional outbox of restriction changes: what the chat server must hear about.

A restriction applied or lifted through the API, or one that reached its expiry, is written here
in the same transaction as the change itself, so a change that committed is never lost and a
change that rolled back is never announced. A relay (`ingest.kafka.outbox_relay`) sends the
pending rows to `moderation.actions` and marks them sent; a relay that dies between the send and
the mark sends the same rows again, which an upserting consumer cannot tell from one send: every
record carries the action's whole state, and `revision` (the row's sequence number) orders the
changes of one action, so a consumer keeps the record with the highest revision per action id.

Actions the stream's rules apply are published by the stream workers themselves (they are on
the topic before they are in the store); only their later changes (a dismissal's lift, an
expiry) come through here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from sqlalchemy import Connection, Engine, and_, delete, exists, func, insert, select, update

from railbird.rules.action_kinds import RESTRICTING_KINDS
from railbird.rules.flags import format_ts
from railbird.store import schema

Change = Literal["applied", "lifted", "expired"]

# The expiry sweep looks back this far: an action that expired longer ago while no relay ran is
# not announced (the chat server's own clock has ended it anyway). Sent rows are kept longer
# than this, so the sweep can tell which expiries it has already written.
EXPIRY_LOOKBACK = timedelta(days=7)
SENT_RETENTION = timedelta(days=30)


@dataclass(frozen=True, slots=True)
class OutboxRecord:
    """One pending change: its sequence number, the topic key and the record to send."""

    seq: int
    key: str
    value: dict[str, Any]


def _iso(ts: datetime | None) -> str | None:
    return None if ts is None else format_ts(_aware(ts).astimezone(UTC))


def _aware(ts: datetime) -> datetime:
    """SQLite hands times back naive (in UTC)."""
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts


def action_state(row: Any, status: Change) -> dict[str, Any]:
    """The contract's action record (`rules.actions.Action.to_dict`) with its state now."""
    m = row._mapping if hasattr(row, "_mapping") else row
    ts, expires = m["ts"], m["expires_at"]
    duration = None
    if expires is not None:
        duration = int((_aware(expires) - _aware(ts)).total_seconds())
    state: dict[str, Any] = {
        "action_id": m["action_id"],
        "kind": m["kind"],
        "player_id": m["player_id"],
        "ts": _iso(ts),
        "expires_at": _iso(expires),
        "duration_s": duration,
        "reason": m["reason"],
        "flag_ids": list(m["flag_ids"] or ()),
        "actor": m["actor"],
        "status": status,
        "lifted_at": _iso(m["lifted_at"]),
        "lifted_by": m["lifted_by"],
    }
    scope = m.get("scope")
    if scope is not None:
        state["blind_level"] = scope
    return state


def record_changes(
    conn: Connection, action_ids: Sequence[str], change: Change, now: datetime
) -> None:
    """Write the actions' current state to the outbox, in the caller's transaction (after the
    change itself, so the state is the changed one)."""
    if not action_ids:
        return
    rows = conn.execute(
        select(schema.actions)
        .where(schema.actions.c.action_id.in_(list(action_ids)))
        .order_by(schema.actions.c.action_id)
    ).all()
    if rows:
        conn.execute(insert(schema.action_outbox), [_outbox_row(row, change, now) for row in rows])


def _outbox_row(row: Any, change: Change, now: datetime) -> dict[str, Any]:
    m = row._mapping
    return {
        "action_id": m["action_id"],
        "player_id": m["player_id"],
        "change": change,
        "expires_at": m["expires_at"],
        "payload": action_state(row, change),
        "created_at": now,
    }


def sweep_expired(engine: Engine, now: datetime) -> int:
    """Write an `expired` change for every restriction that ended by its expiry since
    `EXPIRY_LOOKBACK` and has none yet (for that expiry time: a re-decided action that got a
    later expiry expires again). Returns how many were written."""
    a = schema.actions.c
    o = schema.action_outbox.c
    already = exists().where(
        o.action_id == a.action_id, o.change == "expired", o.expires_at == a.expires_at
    )
    due = (
        select(a.action_id)
        .where(
            a.kind.in_(sorted(RESTRICTING_KINDS)),
            a.lifted_at.is_(None),
            a.expires_at.is_not(None),
            a.expires_at <= now,
            a.expires_at > now - EXPIRY_LOOKBACK,
            ~already,
        )
        .order_by(a.expires_at, a.action_id)
        .limit(1000)
    )
    with engine.begin() as conn:
        ids = list(conn.execute(due).scalars())
        record_changes(conn, ids, "expired", now)
    return len(ids)


def pending(engine: Engine, limit: int) -> list[OutboxRecord]:
    """The oldest unsent changes, in the order they were written."""
    o = schema.action_outbox.c
    query = select(o.seq, o.player_id, o.payload).where(o.sent_at.is_(None)).order_by(o.seq)
    with engine.connect() as conn:
        rows = conn.execute(query.limit(limit)).all()
    return [
        OutboxRecord(seq=seq, key=player_id, value={**payload, "revision": seq})
        for seq, player_id, payload in rows
    ]


def mark_sent(engine: Engine, seqs: Sequence[int], now: datetime) -> None:
    """Mark changes the broker acknowledged."""
    if not seqs:
        return
    o = schema.action_outbox.c
    with engine.begin() as conn:
        conn.execute(update(schema.action_outbox).where(o.seq.in_(list(seqs))).values(sent_at=now))


def prune_sent(engine: Engine, now: datetime) -> int:
    """Drop changes sent longer than `SENT_RETENTION` ago."""
    o = schema.action_outbox.c
    with engine.begin() as conn:
        return int(
            conn.execute(
                delete(schema.action_outbox).where(
                    and_(o.sent_at.is_not(None), o.sent_at < now - SENT_RETENTION)
                )
            ).rowcount
        )


def backlog(engine: Engine) -> tuple[int, datetime | None]:
    """How many changes wait to be sent, and when the oldest of them was written."""
    o = schema.action_outbox.c
    query = select(func.count(), func.min(o.created_at)).where(o.sent_at.is_(None))
    with engine.connect() as conn:
        count, oldest = conn.execute(query).one()
    return int(count), None if oldest is None else _aware(oldest)


__all__ = [
    "EXPIRY_LOOKBACK",
    "OutboxRecord",
    "action_state",
    "backlog",
    "mark_sent",
    "pending",
    "prune_sent",
    "record_changes",
    "sweep_expired",
]
