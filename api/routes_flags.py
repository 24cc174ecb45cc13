"""Flags for analysts and investigators: filter, page, open one."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from railbird.api.auth import Principal, Role, require
from railbird.api.flag_queries import FlagFilter, get_flag, list_flags
from railbird.api.models import FlagOut, FlagPage
from railbird.api.query_params import QueryTime
from railbird.detectors.categories import Category
from railbird.detectors.severity import Severity

router = APIRouter(prefix="/v1/flags", tags=["flags"])
IdQuery = Annotated[str | None, Query(min_length=1, max_length=64)]
Reader = Annotated[Principal, Depends(require(Role.ANALYST, Role.INVESTIGATOR))]


@router.get("", response_model=FlagPage)
def flags(
    request: Request,
    _: Reader,
    category: Category | None = None,
    min_severity: Severity | None = None,
    player_id: IdQuery = None,
    table_id: IdQuery = None,
    tournament_id: IdQuery = None,
    hand_id: IdQuery = None,
    detector: IdQuery = None,
    since: Annotated[QueryTime | None, Query(description="inclusive, RFC 3339")] = None,
    until: Annotated[QueryTime | None, Query(description="exclusive, RFC 3339")] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    cursor: Annotated[str | None, Query(max_length=256)] = None,
) -> FlagPage:
    """Flags that match every filter given, newest first, one page at a time.

    `min_severity` keeps that severity and worse; `player_id` also matches group flags naming the
    player. Pass `next_cursor` back as `cursor` for the next page; 400 on a cursor this service did
    not issue. Role: `analyst` or `investigator` (or `admin`).
    """
    flt = FlagFilter(
        category=category,
        min_severity=min_severity,
        player_id=player_id,
        table_id=table_id,
        tournament_id=tournament_id,
        hand_id=hand_id,
        detector=detector,
        since=since,
        until=until,
    )
    try:
        rows, next_cursor = list_flags(request.app.state.engine, flt, limit, cursor)
    except ValueError as exc:
        raise HTTPException(400, str(exc)) from exc
    return FlagPage(items=[FlagOut(**r) for r in rows], next_cursor=next_cursor)


@router.get("/{flag_id}", response_model=FlagOut)
def flag(request: Request, flag_id: str, _: Reader) -> FlagOut:
    """One flag by id; 404 when there is none. Role: `analyst` or `investigator` (or `admin`)."""
    row = get_flag(request.app.state.engine, flag_id)
    if row is None:
        raise HTTPException(404, f"no flag with id {flag_id!r}")
    return FlagOut(**row)
