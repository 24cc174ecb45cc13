"""Read side of the store's dead-letter table: what could not be processed, newest first.

Three kinds land here, told apart by `source`: records `scan --store` rejected (the file's
name), records the Kafka worker rejected (their topic; they are on `<topic>.dlq` too), and
records the worker's store process could not write (`store`, see `store.batches`).
Keyset pagination on (ts, id), as for flags.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import Engine, and_, or_, select

from railbird.api.flag_queries import as_utc, decode_cursor, encode_cursor
from railbird.store import schema


def list_dead_letters(
    engine: Engine, source: str | None, since: datetime | None, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of dead letters, newest first, and the next page's cursor (None on the last page).

    `source` and `since` (inclusive) filter when given; a cursor not issued here is a `ValueError`.
    """
    d = schema.dead_letters
    query = select(d)
    if source:
        query = query.where(d.c.source == source)
    if since:
        query = query.where(d.c.ts >= since)
    if cursor:
        ts, last_id = decode_cursor(cursor)
        query = query.where(or_(d.c.ts < ts, and_(d.c.ts == ts, d.c.id < last_id)))
    query = query.order_by(d.c.ts.desc(), d.c.id.desc()).limit(limit + 1)
    with engine.connect() as conn:
        rows = [{**row._mapping, "ts": as_utc(row.ts)} for row in conn.execute(query)]
    next_cursor = None
    if len(rows) > limit:
        rows = rows[:limit]
        next_cursor = encode_cursor(rows[-1]["ts"], rows[-1]["id"])
    return rows, next_cursor
