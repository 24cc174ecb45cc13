"""The reports page: players' reports newest first, with the flag each went to, and the
reporters refused for filing too many (analyst, investigator), as `GET /v1/reports` and
`GET /v1/reports/refused`. A flag's own reports are shown on its page (`review_pages`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Query, Request
from fastapi.responses import HTMLResponse

from railbird.api.auth import Role
from railbird.api.console.auth import ConsoleUser, page_user
from railbird.api.console.templating import ConsoleError, render
from railbird.api.report_queries import ReportFilter, list_reports, refused_reporters

router = APIRouter(prefix="/console", include_in_schema=False)
Reader = Annotated[ConsoleUser, Depends(page_user(Role.ANALYST, Role.INVESTIGATOR))]
IdQuery = Annotated[str | None, Query(max_length=64)]


@router.get("/reports", response_class=HTMLResponse)
def reports_page(
    request: Request,
    user: Reader,
    reported_id: IdQuery = None,
    reporter_id: IdQuery = None,
    cursor: Annotated[str | None, Query(max_length=256)] = None,
) -> HTMLResponse:
    engine = request.app.state.engine
    flt = ReportFilter(reported_id or None, reporter_id or None)
    try:
        rows, following = list_reports(engine, flt, 50, cursor)
    except ValueError as exc:
        raise ConsoleError(400, str(exc)) from exc
    return render(
        request,
        "reports.html",
        user,
        reports=rows,
        refused=refused_reporters(engine, 20),
        filters={"reported_id": reported_id or "", "reporter_id": reporter_id or ""},
        next_cursor=following,
    )
