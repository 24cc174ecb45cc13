"""Players' reports as analysts read them: newest first with filters, and the reporters refused
for filing too many. The write side (filing, de-duplication, where a report goes) is
`report_store`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, and_, or_, select

from railbird.api.flag_queries import as_utc, decode_cursor, encode_cursor
from railbird.store import schema

_r = schema.player_reports.c


@dataclass(frozen=True, slots=True)
class ReportFilter:
    reported_id: str | None = None
    reporter_id: str | None = None
    flag_id: str | None = None


def list_reports(
    engine: Engine, flt: ReportFilter, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """Reports newest first, filtered; keyset pages on (ts, report_id). A cursor not issued
    here is a `ValueError`."""
    query = select(schema.player_reports)
    for column, value in (
        (_r.reported_id, flt.reported_id),
        (_r.reporter_id, flt.reporter_id),
        (_r.flag_id, flt.flag_id),
    ):
        if value:
            query = query.where(column == value)
    if cursor:
        ts, report_id = decode_cursor(cursor)
        query = query.where(or_(_r.ts < ts, and_(_r.ts == ts, _r.report_id < report_id)))
    query = query.order_by(_r.ts.desc(), _r.report_id.desc()).limit(limit + 1)
    with engine.connect() as conn:
        rows = [_report_dict(row) for row in conn.execute(query)]
    following = None
    if len(rows) > limit:
        rows = rows[:limit]
        following = encode_cursor(rows[-1]["ts"], rows[-1]["report_id"])
    return rows, following


def refused_reporters(engine: Engine, limit: int = 100) -> list[dict[str, Any]]:
    """Reporters with refused reports, the most refused first."""
    t = schema.report_refusals.c
    query = select(schema.report_refusals).order_by(t.refused.desc(), t.reporter_id).limit(limit)
    with engine.connect() as conn:
        found = [dict(row._mapping) for row in conn.execute(query)]
    for item in found:
        item["first_refused_at"] = as_utc(item["first_refused_at"])
        item["last_refused_at"] = as_utc(item["last_refused_at"])
    return found


def _report_dict(row: Any) -> dict[str, Any]:
    data = dict(row._mapping)
    data["ts"] = as_utc(data["ts"])
    return data
