"""The analysts' review loop: the queue, a review of one flag, and a flag's review history."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from railbird.api.auth import Principal, Role, require
from railbird.api.flag_queries import get_flag
from railbird.api.models import FlagOut, QueuePage, ReviewIn, ReviewOut, ReviewResult
from railbird.api.review_queries import QueueFilter, ReviewConflictError, queue, review, reviews
from railbird.detectors.categories import Category
from railbird.detectors.severity import Severity

router = APIRouter(tags=["review"])
Reviewer = Annotated[Principal, Depends(require(Role.ANALYST))]
Reader = Annotated[Principal, Depends(require(Role.ANALYST, Role.INVESTIGATOR))]
IdQuery = Annotated[str | None, Query(min_length=1, max_length=64)]
CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"description": "the flag was reviewed since the version named"}
}


@router.get("/v1/queue", response_model=QueuePage)
def review_queue(
    request: Request,
    _: Reader,
    status: Literal["open", "escalated", "confirmed", "dismissed"] = "open",
    category: Category | None = None,
    severity: Severity | None = None,
    table_id: IdQuery = None,
    tournament_id: IdQuery = None,
    player_id: IdQuery = None,
    detector: IdQuery = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    cursor: Annotated[str | None, Query(max_length=256)] = None,
) -> QueuePage:
    """Flags waiting for review (`status`, open by default), most severe first and, within a
    severity, oldest first; keyset pages (`next_cursor`). Role: `analyst` or `investigator`."""
    flt = QueueFilter(status, category, severity, table_id, tournament_id, player_id, detector)
    try:
        rows, following = queue(request.app.state.engine, flt, limit, cursor)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from exc
    return QueuePage(items=[FlagOut(**r) for r in rows], next_cursor=following)


@router.post("/v1/flags/{flag_id}/review", response_model=ReviewResult, responses=CONFLICT)
def review_flag(request: Request, flag_id: str, body: ReviewIn, who: Reviewer) -> ReviewResult:
    """Confirm, dismiss or escalate a flag, with a note. `version` is the flag's
    `review_version` as read: if someone reviewed it since, 409 and nothing changes. A
    dismissal lifts the automatic restrictions the flag caused (in the audit log, as every
    review is, with the key and its role). Role: `analyst` (or `admin`)."""
    now = datetime.now(UTC)
    engine = request.app.state.engine
    try:
        done = review(
            engine,
            flag_id,
            decision=body.decision,
            note=body.note,
            version=body.version,
            actor=f"key:{who.key_id}",
            role=str(who.role),
            now=now,
        )
    except ReviewConflictError as exc:
        raise HTTPException(409, str(exc)) from exc
    if done is None:
        raise HTTPException(404, f"no flag with id {flag_id!r}")
    flag, lifted = done
    request.app.state.chat_gate.note_ids(lifted)  # the chat check stops blocking at once
    return ReviewResult(flag=FlagOut(**flag), lifted_action_ids=lifted)


@router.get("/v1/flags/{flag_id}/reviews", response_model=list[ReviewOut])
def flag_reviews(request: Request, flag_id: str, _: Reader) -> list[ReviewOut]:
    """A flag's reviews, oldest first (empty: never reviewed); 404 when there is no such flag.
    Role: `analyst` or `investigator`."""
    engine = request.app.state.engine
    if get_flag(engine, flag_id) is None:
        raise HTTPException(404, f"no flag with id {flag_id!r}")
    return [ReviewOut(**r) for r in reviews(engine, flag_id)]
