"""Players' reports: the chat server files them (`POST /v1/reports`); analysts read them."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response

from railbird.api.auth import Principal, Role, require
from railbird.api.models import (
    FiledOut,
    RefusedReporterOut,
    ReportIn,
    ReportOut,
    ReportPage,
    ReportResult,
)
from railbird.api.problems import PROBLEM, Problem
from railbird.api.report_queries import ReportFilter, list_reports, refused_reporters
from railbird.api.report_store import (
    ReportRefusedError,
    ReportRequest,
    TooManyReportsError,
    file_report,
)
from railbird.rules.policy_watch import PolicyWatch

log = logging.getLogger(__name__)
router = APIRouter(prefix="/v1/reports", tags=["reports"])
Filer = Annotated[Principal, Depends(require(Role.REPORTS, Role.CHAT_SERVICE))]
Reader = Annotated[Principal, Depends(require(Role.ANALYST, Role.INVESTIGATOR))]
IdQuery = Annotated[str | None, Query(min_length=1, max_length=64)]
FILE_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"description": "every part was reported before by this reporter: nothing changed"},
    429: {
        "model": Problem,
        "content": {PROBLEM: {}},
        "description": "the reporter has filed all the reports the policy allows this hour "
        "(the refusal is counted); `Retry-After` says when one more fits",
    },
}


@router.post("", response_model=ReportResult, status_code=201, responses=FILE_ANSWERS)
def file(request: Request, response: Response, body: ReportIn, _: Filer) -> ReportResult:
    """A player reports another: one row per message named (or one for the whole report),
    de-duplicated per (reporter, reported, message). A message a detector already flagged
    raises that flag's priority in the review queue; anything else goes to the reported
    player's report case for that reason, whose severity rises with unrelated reporters.
    Reports never restrict anyone by themselves. Too many from one reporter in an hour: 429.
    Role: `reports` or `chat_service` (or `admin`)."""
    policy: PolicyWatch = request.app.state.policy
    filing = ReportRequest(
        reporter_id=body.reporter_id,
        reported_id=body.reported_id,
        reason=body.reason,
        message_ids=tuple(body.message_ids),
        table_id=body.table_id,
        tournament_id=body.tournament_id,
        hand_id=body.hand_id,
        note=body.note,
    )
    try:
        filed = file_report(
            request.app.state.engine, filing, policy.current().reports, datetime.now(UTC)
        )
    except TooManyReportsError as exc:
        log.info("report refused: reporter %s over the hourly limit", body.reporter_id)
        raise HTTPException(429, str(exc), headers={"Retry-After": str(exc.retry_after)}) from exc
    except ReportRefusedError as exc:
        raise HTTPException(422, str(exc)) from exc
    for item in filed:
        if not item.duplicate:
            log.info(
                "report %s on %s (%s): %s flag %s",
                item.report_id,
                body.reported_id,
                body.reason,
                item.effect,
                item.flag_id,
            )
    if all(item.duplicate for item in filed):
        response.status_code = 200
    return ReportResult(
        reports=[
            FiledOut(
                report_id=f.report_id,
                message_id=f.message_id,
                flag_id=f.flag_id,
                effect=f.effect,
                duplicate=f.duplicate,
            )
            for f in filed
        ]
    )


@router.get("", response_model=ReportPage)
def reports(
    request: Request,
    _: Reader,
    reported_id: IdQuery = None,
    reporter_id: IdQuery = None,
    flag_id: IdQuery = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    cursor: Annotated[str | None, Query(max_length=256)] = None,
) -> ReportPage:
    """Reports newest first, by reported player, reporter or the flag they went to; keyset
    pages. Role: `analyst` or `investigator`."""
    try:
        rows, following = list_reports(
            request.app.state.engine,
            ReportFilter(reported_id, reporter_id, flag_id),
            limit,
            cursor,
        )
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from exc
    return ReportPage(items=[ReportOut(**r) for r in rows], next_cursor=following)


@router.get("/refused", response_model=list[RefusedReporterOut])
def refused(request: Request, _: Reader) -> list[RefusedReporterOut]:
    """Reporters whose reports were refused for their number (mass reporting), the most
    refused first (100 at most). Role: `analyst` or `investigator`."""
    return [RefusedReporterOut(**r) for r in refused_reporters(request.app.state.engine)]
