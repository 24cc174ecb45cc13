"""Dialect-aware INSERT ... ON CONFLICT, the one write primitive of the store.

Both SQLite and PostgreSQL support it natively; using it everywhere is what makes every write
idempotent, so a replay after a crash or a rebalance changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Table
from sqlalchemy.dialects import postgresql, sqlite


def upsert(
    conn: Connection,
    table: Table,
    rows: Sequence[dict[str, Any]],
    keys: Sequence[str],
    update: Sequence[str] = (),
) -> None:
    if not rows:
        return
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    stmt = insert(table)
    if update:
        stmt = stmt.on_conflict_do_update(
            index_elements=list(keys), set_={col: stmt.excluded[col] for col in update}
        )
    else:
        stmt = stmt.on_conflict_do_nothing(index_elements=list(keys))
    conn.execute(stmt, list(rows))
