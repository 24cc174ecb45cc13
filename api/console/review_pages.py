"""The review queue, a flag's page, and the forms that review a flag or restrict a player.

Each page and form admits exactly the roles of the API route it mirrors: the queue and a flag
are `/v1/queue` and `/v1/flags/{id}` (analyst, investigator); reviewing and restricting are
analyst's; a flag's chat, hands and the player's history are `/context` and `/history`
(investigator's), so an analyst's flag page shows the flag, the restrictions and the forms.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Literal

import orjson
from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response, StreamingResponse
from sqlalchemy import Engine, and_, or_, select

from railbird.api.auth import Role
from railbird.api.console.auth import ConsoleUser, check_form, page_user, still_signed_in
from railbird.api.console.templating import ConsoleError, back_to, render, templates
from railbird.api.console.views import hand_timeline, offending_terms
from railbird.api.context_queries import flag_context, player_flags
from railbird.api.flag_queries import SEVERITIES, flag_dict, get_flag
from railbird.api.models import LEVEL_PATTERN, canonical_level
from railbird.api.report_queries import ReportFilter, list_reports
from railbird.api.restriction_store import (
    apply_restriction,
    lift_restriction,
    player_restrictions,
)
from railbird.api.review_queries import QueueFilter, ReviewConflictError, queue, review, reviews
from railbird.detectors.categories import CATEGORIES
from railbird.detectors.collusion_categories import INNOCENT_READINGS
from railbird.detectors.registry import DETECTOR_TYPES
from railbird.detectors.severity import Severity
from railbird.rules.action_kinds import RESTRICTION_KINDS, RestrictionKind
from railbird.store import schema

router = APIRouter(prefix="/console", include_in_schema=False)
Reader = Annotated[ConsoleUser, Depends(page_user(Role.ANALYST, Role.INVESTIGATOR))]
Analyst = Annotated[ConsoleUser, Depends(page_user(Role.ANALYST))]

DETECTORS = tuple(sorted(t.name for t in DETECTOR_TYPES))
STREAM_POLL_S = 2.0
STREAM_LIFETIME_S = 600.0  # then the browser's EventSource reconnects by itself


def _filter(params: dict[str, str | None]) -> QueueFilter:
    return QueueFilter(
        "open",
        params.get("category") or None,
        params.get("severity") or None,
        params.get("table_id") or None,
        params.get("tournament_id") or None,
        params.get("player_id") or None,
        params.get("detector") or None,
    )


@router.get("/queue", response_class=HTMLResponse)
def queue_page(
    request: Request,
    user: Reader,
    category: str | None = None,
    severity: Severity | Literal[""] | None = None,
    table_id: str | None = None,
    tournament_id: str | None = None,
    player_id: str | None = None,
    detector: str | None = None,
    cursor: str | None = None,
) -> HTMLResponse:
    """Open flags, most severe and oldest first, 50 a page, with filters; j/k move, c / d / e
    review the selected flag (console.js), new flags arrive over `/console/queue/stream`."""
    filters = {
        "category": category,
        "severity": severity,
        "table_id": table_id,
        "tournament_id": tournament_id,
        "player_id": player_id,
        "detector": detector,
    }
    try:
        rows, following = queue(request.app.state.engine, _filter(filters), 50, cursor)
    except ValueError as exc:
        raise ConsoleError(400, str(exc)) from exc
    return render(
        request,
        "queue.html",
        user,
        flags=rows,
        filters=filters,
        next_cursor=following,
        categories=CATEGORIES,
        severities=SEVERITIES,
        detectors=DETECTORS,
        stream_after=_after_token(_newest_flag(request.app.state.engine)),
        here=str(request.url.path) + (f"?{request.url.query}" if request.url.query else ""),
    )


def _after_token(newest: tuple[datetime, str] | None) -> str:
    ts, flag_id = newest or (datetime.now(UTC) - timedelta(days=3650), "")
    return f"{ts.isoformat()}|{flag_id}"


def _newest_flag(engine: Engine) -> tuple[datetime, str] | None:
    """Where the live rows start: after every flag stored when the page was drawn, not after
    the newest row on the page (a page of the most severe flags leaves out newer, milder
    ones, which the stream then sent as new)."""
    f = schema.flags.c
    with engine.connect() as conn:
        row = conn.execute(
            select(f.ts, f.flag_id).order_by(f.ts.desc(), f.flag_id.desc()).limit(1)
        ).first()
    if row is None:
        return None
    ts = row.ts if row.ts.tzinfo else row.ts.replace(tzinfo=UTC)
    return ts, str(row.flag_id)


def _position(text: str) -> tuple[datetime, str]:
    ts_text, flag_id = text.split("|", 1)
    ts = datetime.fromisoformat(ts_text)
    return (ts if ts.tzinfo else ts.replace(tzinfo=UTC)), flag_id


@router.get("/queue/stream")
async def queue_stream(
    request: Request,
    user: Reader,
    after: str,
    category: str | None = None,
    severity: str | None = None,
    table_id: str | None = None,
    tournament_id: str | None = None,
    player_id: str | None = None,
    detector: str | None = None,
) -> StreamingResponse:
    """Server-sent events: each open flag stored after `after` (its time and id) that matches
    the filters, as a rendered queue row, while the page stays open and its session lives.

    Each event carries its position as its `id`, so a browser that reconnects (the stream
    ends every `STREAM_LIFETIME_S`) sends `Last-Event-ID` and resumes after the last row it
    got, instead of being sent every row since the page was drawn again."""
    resume = request.headers.get("last-event-id")
    try:
        since = _position(after)
        if resume:
            since = max(since, _position(resume[:200]))
    except ValueError as exc:
        raise ConsoleError(400, f"not a stream position: {after[:80]!r}") from exc
    flt = _filter(
        {
            "category": category,
            "severity": severity,
            "table_id": table_id,
            "tournament_id": tournament_id,
            "player_id": player_id,
            "detector": detector,
        }
    )
    engine = request.app.state.engine

    async def events() -> AsyncIterator[bytes]:
        nonlocal since
        yield b"retry: 3000\n\n"
        loop = asyncio.get_running_loop()
        ends = loop.time() + STREAM_LIFETIME_S
        while loop.time() < ends and not await request.is_disconnected():
            if not await asyncio.to_thread(still_signed_in, request, user):
                return  # signed out (on any server): the rows stop with the session
            found = await asyncio.to_thread(_flags_after, engine, flt, since)
            for flag in found:
                since = (flag["ts"], flag["flag_id"])
                row = templates.get_template("queue_row.html").render(flag=flag, user=user)
                data = orjson.dumps({"flag_id": flag["flag_id"], "html": row}).decode()
                position = _after_token(since)
                yield f"id: {position}\nevent: flag\ndata: {data}\n\n".encode()
            yield b": keep-alive\n\n"
            await asyncio.sleep(STREAM_POLL_S)

    return StreamingResponse(
        events(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


def _flags_after(
    engine: Engine, flt: QueueFilter, after: tuple[datetime, str]
) -> list[dict[str, Any]]:
    f = schema.flags.c
    ts, flag_id = after
    query = select(schema.flags).where(
        f.status == "open", or_(f.ts > ts, and_(f.ts == ts, f.flag_id > flag_id))
    )
    for name in ("category", "severity", "table_id", "tournament_id", "detector"):
        value = getattr(flt, name)
        if value:
            query = query.where(getattr(f, name) == value)
    if flt.player_id:
        members = select(schema.flag_players.c.flag_id).where(
            schema.flag_players.c.player_id == flt.player_id
        )
        query = query.where(f.flag_id.in_(members))
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(f.ts, f.flag_id).limit(100)).all()
    return [flag_dict(r) for r in rows]


@router.get("/flags/{flag_id}", response_class=HTMLResponse)
def flag_page(request: Request, flag_id: str, user: Reader) -> HTMLResponse:
    engine = request.app.state.engine
    flag = get_flag(engine, flag_id)
    if flag is None:
        raise ConsoleError(404, f"no flag with id {flag_id!r}")
    now = datetime.now(UTC)
    context: dict[str, Any] | None = None
    timelines: list[dict[str, Any]] = []
    history: list[dict[str, Any]] = []
    if user.may(Role.INVESTIGATOR):
        context = flag_context(engine, flag, timedelta(minutes=15))
        flagged = set(flag["message_ids"])
        timelines = [
            hand_timeline(h, context["chat"], flagged)
            for h in context["hands"]
            if not flag["hand_id"] or h.get("hand_id") == flag["hand_id"]
        ][:5]
        history = [
            {"player_id": p, "flags": player_flags(engine, p, 20)} for p in flag["player_ids"]
        ]
    restrictions = {
        p: player_restrictions(engine, p, now, active_only=True) for p in flag["player_ids"]
    }
    return render(
        request,
        "flag.html",
        user,
        flag=flag,
        terms=offending_terms(flag),
        context=context,
        timelines=timelines,
        history=history,
        restrictions=restrictions,
        reviews=reviews(engine, flag_id),
        reports=list_reports(engine, ReportFilter(flag_id=flag_id), 100, None)[0],
        kinds=RESTRICTION_KINDS,
        innocent_reading=INNOCENT_READINGS.get(flag["category"]),
        now=now,
        here=str(request.url.path),
    )


@router.post("/flags/{flag_id}/review")
def review_form(
    request: Request,
    flag_id: str,
    user: Analyst,
    decision: Annotated[Literal["confirm", "dismiss", "escalate"], Form()],
    version: Annotated[int, Form(ge=0)],
    csrf: Annotated[str, Form(max_length=64)],
    note: Annotated[str, Form(max_length=2000)] = "",
    next: Annotated[str, Form(max_length=2000)] = "/console/queue",
) -> Response:
    """The review the queue's keys and the flag page's buttons send, as `POST
    /v1/flags/{id}/review` does it (a dismissal needs a note, as the API's does)."""
    check_form(request, user, csrf)
    if decision == "dismiss" and len(note.strip()) < 3:
        return back_to(request, next, "dismissal_needs_note")
    if len(note.strip()) < 3:  # confirm and escalate from the keyboard: the note says so
        note = f"{decision} from the console queue"
    engine = request.app.state.engine
    try:
        done = review(
            engine,
            flag_id,
            decision=decision,
            note=note.strip(),
            version=version,
            actor=user.actor,
            role=str(user.role),
            now=datetime.now(UTC),
        )
    except ReviewConflictError as exc:
        return back_to(request, next, "review_conflict", reason=str(exc))
    if done is None:
        raise ConsoleError(404, f"no flag with id {flag_id!r}")
    _flag, lifted = done
    request.app.state.chat_gate.note_ids(lifted)
    said = {"confirm": "confirmed", "dismiss": "dismissed", "escalate": "escalated"}[decision]
    if lifted:
        return back_to(
            request,
            next,
            "reviewed_lifted",
            flag_id=flag_id,
            decision=said,
            lifted=str(len(lifted)),
        )
    return back_to(request, next, "reviewed", flag_id=flag_id, decision=said)


@router.post("/restrictions")
def apply_form(
    request: Request,
    user: Analyst,
    player_id: Annotated[str, Form(min_length=1, max_length=64)],
    kind: Annotated[RestrictionKind, Form()],
    reason: Annotated[str, Form(min_length=3, max_length=500)],
    csrf: Annotated[str, Form(max_length=64)],
    duration_minutes: Annotated[str, Form(max_length=7)] = "",
    blind_level: Annotated[str, Form(max_length=40)] = "",
    flag_id: Annotated[str, Form(max_length=64)] = "",
    next: Annotated[str, Form(max_length=2000)] = "/console/queue",
) -> Response:
    """Restrict a player from now, as `POST /v1/restrictions` (audited, in the outbox, and in
    this process's chat check at once). An empty duration: until lifted."""
    check_form(request, user, csrf)
    duration: timedelta | None = None
    if duration_minutes.strip():
        if not duration_minutes.strip().isdigit() or not 1 <= int(duration_minutes) <= 525_600:
            return back_to(request, next, "bad_duration")
        duration = timedelta(minutes=int(duration_minutes))
    level: str | None = None
    if kind == "block_table_join":
        try:
            if not re.match(LEVEL_PATTERN, blind_level.strip()):
                raise ValueError(blind_level)
            level = canonical_level(blind_level.strip())
        except ValueError:
            return back_to(request, next, "join_block_needs_level")
    engine = request.app.state.engine
    flags = (flag_id,) if flag_id and get_flag(engine, flag_id) is not None else ()
    restriction = apply_restriction(
        engine,
        player_id=player_id,
        kind=kind,
        duration=duration,
        reason=reason,
        actor=user.actor,
        flag_ids=flags,
        now=datetime.now(UTC),
        scope=level,
    )
    request.app.state.chat_gate.note(restriction)
    return back_to(
        request,
        next,
        "restriction_applied",
        kind=kind,
        at=f" at {level}" if level else "",
        player_id=player_id,
        action_id=restriction.action_id,
    )


@router.post("/restrictions/{action_id}/lift")
def lift_form(
    request: Request,
    action_id: str,
    user: Analyst,
    reason: Annotated[str, Form(min_length=3, max_length=500)],
    csrf: Annotated[str, Form(max_length=64)],
    next: Annotated[str, Form(max_length=2000)] = "/console/queue",
) -> Response:
    check_form(request, user, csrf)
    lifted = lift_restriction(
        request.app.state.engine, action_id, user.actor, reason, datetime.now(UTC)
    )
    if lifted is None:
        return back_to(request, next, "restriction_not_in_force", action_id=action_id)
    request.app.state.chat_gate.note(lifted)
    return back_to(request, next, "restriction_lifted", action_id=action_id)
