"""Investigators' sessions: `GET /v1/sessions`, one session in full, and its export."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel

from railbird.api.auth import Principal, Role, require
from railbird.api.models import Time
from railbird.api.query_params import QueryTime
from railbird.api.session_queries import (
    export_rows,
    list_sessions,
    parse_session_id,
    session_detail,
)

router = APIRouter(prefix="/v1/sessions", tags=["investigations"])
Investigator = Annotated[Principal, Depends(require(Role.INVESTIGATOR))]
IdQuery = Annotated[str | None, Query(min_length=1, max_length=64)]


class SessionOut(BaseModel):
    """A player's stretch at one table: its span, hands, tournament and flags."""

    session_id: str
    player_id: str
    table_id: str
    tournament_id: str | None
    start: Time
    end: Time
    hands: int
    flags: list[str]


class SessionDetailOut(BaseModel):
    """Everything in a session, oldest first, redacted as stored."""

    session_id: str
    player_id: str
    table_id: str
    start: Time
    end: Time
    chat: list[dict[str, Any]]
    table_events: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    flags: list[dict[str, Any]]


@router.get("", response_model=list[SessionOut])
def sessions(
    request: Request,
    _: Investigator,
    player_id: IdQuery = None,
    table_id: IdQuery = None,
    tournament_id: IdQuery = None,
    since: Annotated[QueryTime | None, Query(description="inclusive, RFC 3339")] = None,
    until: Annotated[QueryTime | None, Query(description="exclusive, RFC 3339")] = None,
) -> list[SessionOut]:
    """A player's (or a table's) sessions, newest first, with the flags in each; at least
    `player_id` or `table_id`. Role: `investigator` (or `admin`)."""
    if not player_id and not table_id:
        raise HTTPException(400, "name a player_id or a table_id")
    found = list_sessions(
        request.app.state.engine,
        player_id=player_id,
        table_id=table_id,
        tournament_id=tournament_id,
        since=since,
        until=until,
    )
    return [SessionOut(**s) for s in found]


def _detail(request: Request, session_id: str) -> dict[str, Any]:
    try:
        key = parse_session_id(session_id)
    except ValueError as exc:
        raise HTTPException(404, str(exc)) from exc
    return session_detail(request.app.state.engine, key)


@router.get("/{session_id}", response_model=SessionDetailOut)
def session(request: Request, session_id: str, _: Investigator) -> SessionDetailOut:
    """The session's chat (the table's, and the player's private messages), table events,
    hands with cards and board, and flags. Role: `investigator` (or `admin`)."""
    return SessionDetailOut(**_detail(request, session_id))


@router.get("/{session_id}/export")
def export(
    request: Request,
    session_id: str,
    _: Investigator,
    format: Literal["json", "csv"] = "json",
) -> StreamingResponse:
    """The session as a file: JSON (the full detail) or CSV (one line per chat message, table
    event, hand and flag: kind, ts, who, what), streamed, redacted as stored."""
    return export_response(_detail(request, session_id), session_id, format)


def export_response(
    detail: dict[str, Any], session_id: str, format: Literal["json", "csv"]
) -> StreamingResponse:
    """A session's detail as a download (the API's export and the console's)."""
    name = f"{session_id[:40]}.{format}"
    headers = {"Content-Disposition": f'attachment; filename="{name}"'}
    if format == "json":
        body = orjson.dumps(detail, default=str, option=orjson.OPT_NON_STR_KEYS)
        return StreamingResponse(iter([body]), media_type="application/json", headers=headers)
    return StreamingResponse(_csv(detail), media_type="text/csv", headers=headers)


def _cell(value: str) -> str:
    """A CSV cell a spreadsheet will not run: chat text starting with = + - @ (or a tab or
    carriage return) is prefixed with a quote (OWASP's CSV-injection advice)."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def _csv(detail: dict[str, Any]) -> Iterator[str]:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(("kind", "ts", "who", "what"))
    for row in export_rows(detail):
        writer.writerow([_cell(value) for value in row])
        if buffer.tell() > 64 * 1024:
            yield buffer.getvalue()
            buffer.seek(0)
            buffer.truncate()
    yield buffer.getvalue()
