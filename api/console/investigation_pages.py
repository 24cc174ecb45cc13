"""Investigators' pages: a player, sessions (with export), and a tournament's suspected groups.

Roles as on the API: a player's history and sessions are investigator's (`/v1/players/{id}/
history`, `/v1/sessions`); the collusion view reads flags (`/v1/flags`: analyst, investigator),
and links evidence hands to the flag page, whose hand timelines are investigator's.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, StreamingResponse
from sqlalchemy import func, select

from railbird.api.auth import Role
from railbird.api.console.auth import ConsoleUser, page_user
from railbird.api.console.templating import ConsoleError, render
from railbird.api.console.views import bar_chart, collusion_groups, flags_by_day
from railbird.api.context_queries import player_flags
from railbird.api.flag_queries import flag_dict
from railbird.api.restriction_store import player_restrictions
from railbird.api.routes_sessions import export_response
from railbird.api.session_queries import list_sessions, parse_session_id, session_detail
from railbird.detectors.collusion_categories import COLLUSION_CATEGORIES
from railbird.store import schema

router = APIRouter(prefix="/console", include_in_schema=False)
Investigator = Annotated[ConsoleUser, Depends(page_user(Role.INVESTIGATOR))]
Reader = Annotated[ConsoleUser, Depends(page_user(Role.ANALYST, Role.INVESTIGATOR))]


@router.get("/players/{player_id}", response_class=HTMLResponse)
def player_page(request: Request, player_id: str, user: Investigator) -> HTMLResponse:
    """A player's flags over time (a chart of the last 30 days), restrictions and sessions."""
    engine = request.app.state.engine
    now = datetime.now(UTC)
    flags = player_flags(engine, player_id, 500)
    sessions = list_sessions(
        engine, player_id=player_id, table_id=None, tournament_id=None, since=None, until=None
    )
    return render(
        request,
        "player.html",
        user,
        player_id=player_id,
        flags=flags,
        chart=bar_chart(flags_by_day(flags)),
        restrictions=player_restrictions(engine, player_id, now, active_only=False),
        sessions=sessions[:50],
        now=now,
    )


@router.get("/sessions", response_class=HTMLResponse)
def sessions_page(
    request: Request,
    user: Investigator,
    player_id: str | None = None,
    table_id: str | None = None,
    tournament_id: str | None = None,
) -> HTMLResponse:
    found = []
    if player_id or table_id:
        found = list_sessions(
            request.app.state.engine,
            player_id=player_id or None,
            table_id=table_id or None,
            tournament_id=tournament_id or None,
            since=None,
            until=None,
        )
    return render(
        request,
        "sessions.html",
        user,
        sessions=found,
        filters={"player_id": player_id, "table_id": table_id, "tournament_id": tournament_id},
    )


def _session(request: Request, session_id: str) -> dict[str, object]:
    try:
        key = parse_session_id(session_id)
    except ValueError as exc:
        raise ConsoleError(404, str(exc)) from exc
    return session_detail(request.app.state.engine, key)


@router.get("/sessions/{session_id}", response_class=HTMLResponse)
def session_page(request: Request, session_id: str, user: Investigator) -> HTMLResponse:
    """The transcript, the table events, the hands and the flags of one session."""
    return render(request, "session.html", user, session=_session(request, session_id))


@router.get("/sessions/{session_id}/export")
def session_export(
    request: Request,
    session_id: str,
    user: Investigator,
    format: Literal["json", "csv"] = "csv",
) -> StreamingResponse:
    """The same file as `GET /v1/sessions/{id}/export`, for the signed-in investigator."""
    return export_response(_session(request, session_id), session_id, format)


@router.get("/collusion", response_class=HTMLResponse)
def collusion_index(request: Request, user: Reader) -> HTMLResponse:
    """Tournaments with group flags, most flagged first."""
    f = schema.flags.c
    query = (
        select(f.tournament_id, func.count(), func.max(f.score))
        .where(f.category.in_(sorted(COLLUSION_CATEGORIES)), f.tournament_id.is_not(None))
        .group_by(f.tournament_id)
        .order_by(func.count().desc())
        .limit(200)
    )
    with request.app.state.engine.connect() as conn:
        tournaments = [
            {"tournament_id": t, "flags": n, "top": s} for t, n, s in conn.execute(query)
        ]
    return render(request, "collusion_index.html", user, tournaments=tournaments)


@router.get("/tournaments/{tournament_id}/collusion", response_class=HTMLResponse)
def collusion_page(request: Request, tournament_id: str, user: Reader) -> HTMLResponse:
    """The tournament's suspected groups, strongest first: target, measures, evidence hands,
    and the innocent reading to rule out before referring."""
    f = schema.flags.c
    query = (
        select(schema.flags)
        .where(f.tournament_id == tournament_id, f.category.in_(sorted(COLLUSION_CATEGORIES)))
        .order_by(f.ts)
        .limit(2000)
    )
    engine = request.app.state.engine
    with engine.connect() as conn:
        flags = [flag_dict(r) for r in conn.execute(query)]
        groups = collusion_groups(flags)
        wanted = {h for g in groups for h in g["hands"]}
        known = set()
        if wanted:
            h = schema.hands.c
            known = set(conn.execute(select(h.hand_id).where(h.hand_id.in_(wanted))).scalars())
    for group in groups:
        group["hands"] = [h for h in group["hands"] if h in known]
    return render(request, "collusion.html", user, tournament_id=tournament_id, groups=groups)
