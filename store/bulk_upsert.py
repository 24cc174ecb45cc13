"""`upsert` for the hot path: the statement compiled once, rows bound without SQLAlchemy's per-row
parameter machinery.

Why: a Kafka worker writes every chat line it sees. SQLAlchemy Core's executemany builds and
processes a parameter dict per row (a large share of the cost of storing a chat line on
SQLite: docs/design-numbers.md). Here
the INSERT ... ON CONFLICT is compiled once per (engine dialect, table, columns), and each row
goes through the same bind processors SQLAlchemy itself would apply, straight to the driver's
executemany, so the stored values are identical to `store.upsert.upsert`'s. One processor is
swapped for a faster equivalent: SQLite's DATETIME formatting (a dict and a %-format per value,
the dearest part of a chat row after the insert itself) becomes one `isoformat` call.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Dialect, Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.sqlite.base import DATETIME as SQLITE_DATETIME
from sqlalchemy.sql.dml import Insert

from railbird.store.upsert import upsert

Processor = Callable[[Any], Any] | None


@dataclass(frozen=True, slots=True)
class CompiledUpsert:
    sql: str
    names: tuple[str, ...]  # row keys, in bind order
    processors: tuple[Processor, ...]
    none_values: tuple[Any, ...]  # what each processor makes of None (JSON columns: 'null')
    positional: bool
    # Columns whose processor writes an aware datetime as `isoformat(" ", "microseconds")[:26]`.
    iso_datetimes: frozenset[int] = frozenset()


_CACHE: dict[
    tuple[str, int, tuple[str, ...], tuple[str, ...], tuple[str, ...]], CompiledUpsert
] = {}


def _statement(
    dialect_name: str, table: Table, keys: Sequence[str], update: Sequence[str]
) -> Insert:
    # Mirrors `store.upsert.upsert`, which builds the statement anew for each call.
    insert = postgresql.insert if dialect_name == "postgresql" else sqlite.insert
    stmt = insert(table)
    if update:
        return stmt.on_conflict_do_update(
            index_elements=list(keys), set_={col: stmt.excluded[col] for col in update}
        )
    return stmt.on_conflict_do_nothing(index_elements=list(keys))


def _compile(
    dialect: Dialect,
    table: Table,
    columns: tuple[str, ...],
    keys: Sequence[str],
    update: Sequence[str],
) -> CompiledUpsert | None:
    compiled = _statement(dialect.name, table, keys, update).compile(
        dialect=dialect, column_keys=list(columns)
    )
    names = tuple(compiled.positiontup or ()) if compiled.positional else tuple(compiled.binds)
    if set(names) != set(columns) or len(names) != len(columns):
        return None  # defaults or expressions bound: leave it to SQLAlchemy
    processors: list[Processor] = []
    iso_datetimes: set[int] = set()
    for i, name in enumerate(names):
        impl = compiled.binds[name].type.dialect_impl(dialect)
        processor: Processor = impl.bind_processor(dialect)
        if isinstance(impl, SQLITE_DATETIME) and processor is not None:
            fast = _fast_sqlite_datetime(impl, processor)
            if fast is not processor:
                iso_datetimes.add(i)
            processor = fast
        processors.append(processor)
    return CompiledUpsert(
        sql=compiled.string,
        names=names,
        processors=tuple(processors),
        none_values=tuple(None if p is None else p(None) for p in processors),
        positional=compiled.positional,
        iso_datetimes=frozenset(iso_datetimes),
    )


# SQLAlchemy's default SQLite DATETIME storage format (microseconds always written).
_SQLITE_DEFAULT_FORMAT = (
    "%(year)04d-%(month)02d-%(day)02d %(hour)02d:%(minute)02d:%(second)02d.%(microsecond)06d"
)


def _fast_sqlite_datetime(impl: SQLITE_DATETIME, slow: Callable[[Any], Any]) -> Processor:
    """`slow`'s output for a datetime, from `isoformat` (the same 26 characters: the year is
    always 4 digits, microseconds always 6, the offset dropped like SQLAlchemy drops it)."""
    if getattr(impl, "_storage_format", None) != _SQLITE_DEFAULT_FORMAT:
        return slow

    def process(value: Any) -> Any:
        if type(value) is datetime:
            return value.isoformat(" ", "microseconds")[:26]
        return slow(value)

    return process


def compiled_upsert(
    dialect: Dialect,
    table: Table,
    columns: tuple[str, ...],
    keys: Sequence[str],
    update: Sequence[str] = (),
) -> CompiledUpsert | None:
    """The upsert of `columns` compiled for `dialect` (cached), or None where SQLAlchemy must
    bind the rows itself."""
    cache_key = (dialect.name, id(table), columns, tuple(keys), tuple(update))
    compiled = _CACHE.get(cache_key)
    if compiled is None:
        compiled = _compile(dialect, table, columns, keys, update)
        if compiled is not None:
            _CACHE[cache_key] = compiled
    return compiled


def bulk_upsert(
    conn: Connection,
    table: Table,
    rows: Sequence[dict[str, Any]],
    keys: Sequence[str],
    update: Sequence[str] = (),
) -> None:
    """Same effect as `upsert`; every row must have the same keys (the writer's row builders do)."""
    if not rows:
        return
    compiled = compiled_upsert(conn.dialect, table, tuple(rows[0]), keys, update)
    if compiled is None:
        upsert(conn, table, rows, keys, update)
        return
    conn.exec_driver_sql(compiled.sql, driver_params(compiled, rows))


def driver_params(compiled: CompiledUpsert, rows: Sequence[dict[str, Any]]) -> list[Any]:
    """`rows` as the driver's executemany parameters, through `compiled`'s bind processors."""
    names = compiled.names
    # Most columns (strings, numbers) have no processor; only the others are touched per row.
    processed = [
        (i, proc, none)
        for i, (proc, none) in enumerate(
            zip(compiled.processors, compiled.none_values, strict=True)
        )
        if proc is not None or none is not None
    ]
    params: list[Any] = []
    for row in rows:
        values = [row[name] for name in names]
        for i, proc, none in processed:
            value = values[i]
            values[i] = none if value is None else proc(value) if proc is not None else value
        params.append(
            tuple(values) if compiled.positional else dict(zip(names, values, strict=True))
        )
    return params
