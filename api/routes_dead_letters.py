"""What the pipeline could not process, for whoever runs it: admin only.

Admin only (least privilege): a dead letter is the whole record, chat text and all (redacted
as the chat log is), of no use to moderating players and needed only to repair the pipeline.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from railbird.api.auth import Principal, require
from railbird.api.dead_letter_queries import list_dead_letters
from railbird.api.models import DeadLetterOut, DeadLetterPage
from railbird.api.query_params import QueryTime

router = APIRouter(prefix="/v1/dead-letters", tags=["operations"])
Admin = Annotated[Principal, Depends(require())]


@router.get("", response_model=DeadLetterPage)
def dead_letters(
    request: Request,
    _: Admin,
    source: Annotated[str | None, Query(description="e.g. `store`, or a file name")] = None,
    since: Annotated[QueryTime | None, Query(description="inclusive, RFC 3339")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    cursor: str | None = None,
) -> DeadLetterPage:
    """Records the pipeline could not process, newest first, one page at a time. Role: `admin` only.

    Filter by `source` (a topic, a file name, or `store`) and `since`. Pass `next_cursor` back as
    `cursor` for the next page; 400 on a cursor this service did not issue.
    """
    try:
        rows, next_cursor = list_dead_letters(
            request.app.state.engine, source, since, limit, cursor
        )
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from exc
    return DeadLetterPage(items=[DeadLetterOut(**r) for r in rows], next_cursor=next_cursor)
