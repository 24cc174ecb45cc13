"""Read side of the store for flags: filtered, keyset-paginated, newest first.

Keyset pagination on (ts, flag_id) rather than OFFSET: pages stay fast and stable while the
pipeline keeps inserting new flags at the top.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, and_, or_, select

from railbird.detectors.events import EARLIEST, LATEST
from railbird.detectors.severity import SEVERITIES as SEVERITIES
from railbird.store import schema


@dataclass(frozen=True, slots=True)
class FlagFilter:
    """What `list_flags` filters on; a field left None does not filter.

    `min_severity` keeps that severity and worse; `since` is inclusive, `until` exclusive.
    """

    category: str | None = None
    min_severity: str | None = None
    player_id: str | None = None
    table_id: str | None = None
    tournament_id: str | None = None
    hand_id: str | None = None
    detector: str | None = None
    since: datetime | None = None
    until: datetime | None = None


MAX_CURSOR_CHARS = 256


def encode_cursor(ts: datetime, flag_id: str) -> str:
    """The opaque cursor after row (`ts`, id), a flag or dead letter; `decode_cursor` reads it."""
    return base64.urlsafe_b64encode(f"{ts.isoformat()}|{flag_id}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    """Raises ValueError on a cursor this service did not issue (a time out of the events'
    range, an id longer than any id, anything that is not one of ours)."""
    if len(cursor) > MAX_CURSOR_CHARS:
        raise ValueError("invalid cursor (too long)")
    try:
        raw = base64.urlsafe_b64decode(cursor.encode()).decode()
        ts_text, flag_id = raw.split("|", 1)
        ts = as_utc(datetime.fromisoformat(ts_text))
    except (ValueError, UnicodeDecodeError, OverflowError) as exc:
        raise ValueError(f"invalid cursor {cursor[:80]!r}") from exc
    if not EARLIEST <= ts < LATEST or not 0 < len(flag_id) <= 64:
        raise ValueError(f"invalid cursor {cursor[:80]!r}")
    return ts, flag_id


def as_utc(ts: datetime) -> datetime:
    """SQLite hands back naive datetimes; everything railbird stores is UTC."""
    return ts.replace(tzinfo=UTC) if ts.tzinfo is None else ts.astimezone(UTC)


def flag_dict(row: Any) -> dict[str, Any]:
    """A flags row as a dict, its `ts` made timezone-aware UTC, as `FlagOut` takes it."""
    data = dict(row._mapping)
    data["ts"] = as_utc(data["ts"])
    return data


def list_flags(
    engine: Engine, flt: FlagFilter, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of the flags `flt` matches, newest first, and the next cursor (None: last page).

    A cursor not issued here is a `ValueError`.
    """
    f = schema.flags
    query = select(f)
    if flt.category:
        query = query.where(f.c.category == flt.category)
    if flt.min_severity:
        allowed = SEVERITIES[SEVERITIES.index(flt.min_severity) :]
        query = query.where(f.c.severity.in_(allowed))
    if flt.player_id:
        members = select(schema.flag_players.c.flag_id).where(
            schema.flag_players.c.player_id == flt.player_id
        )
        query = query.where(f.c.flag_id.in_(members))
    for column, value in (
        (f.c.table_id, flt.table_id),
        (f.c.tournament_id, flt.tournament_id),
        (f.c.hand_id, flt.hand_id),
        (f.c.detector, flt.detector),
    ):
        if value:
            query = query.where(column == value)
    if flt.since:
        query = query.where(f.c.ts >= flt.since)
    if flt.until:
        query = query.where(f.c.ts < flt.until)
    if cursor:
        ts, flag_id = decode_cursor(cursor)
        query = query.where(or_(f.c.ts < ts, and_(f.c.ts == ts, f.c.flag_id < flag_id)))
    query = query.order_by(f.c.ts.desc(), f.c.flag_id.desc()).limit(limit + 1)
    with engine.connect() as conn:
        rows = [flag_dict(r) for r in conn.execute(query)]
    next_cursor = None
    if len(rows) > limit:
        rows = rows[:limit]
        next_cursor = encode_cursor(rows[-1]["ts"], rows[-1]["flag_id"])
    return rows, next_cursor


def get_flag(engine: Engine, flag_id: str) -> dict[str, Any] | None:
    """The flag with `flag_id`, as `flag_dict` makes it; None when there is none."""
    with engine.connect() as conn:
        row = conn.execute(select(schema.flags).where(schema.flags.c.flag_id == flag_id)).first()
    return None if row is None else flag_dict(row)
