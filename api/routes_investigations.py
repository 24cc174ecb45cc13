"""Investigators: a flag with its full context, and a player's record of flags and restrictions."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from railbird.api.auth import Principal, Role, require
from railbird.api.context_queries import flag_context, player_flags, player_known
from railbird.api.flag_queries import get_flag
from railbird.api.models import ContextOut, FlagOut, PlayerHistoryOut
from railbird.api.restriction_store import player_restrictions
from railbird.api.routes_restrictions import restriction_out

router = APIRouter(prefix="/v1", tags=["investigations"])
Investigator = Annotated[Principal, Depends(require(Role.INVESTIGATOR))]


@router.get("/flags/{flag_id}/context", response_model=ContextOut)
def context(
    request: Request,
    flag_id: str,
    _: Investigator,
    window_minutes: Annotated[int, Query(ge=1, le=24 * 60)] = 10,
) -> ContextOut:
    """A flag and what happened within `window_minutes` either side of it, at most 500 of each.

    The table's chat and everything the flagged players sent or received, private messages
    included; the events of the table and of the flagged players; the flagged hand and the table's
    hands in the window. 404 when there is no such flag. Role: `investigator` (or `admin`).
    """
    engine = request.app.state.engine
    flag = get_flag(engine, flag_id)
    if flag is None:
        raise HTTPException(404, f"no flag with id {flag_id!r}")
    found = flag_context(engine, flag, timedelta(minutes=window_minutes))
    return ContextOut(**{**found, "flag": FlagOut(**flag)})


@router.get("/players/{player_id}/history", response_model=PlayerHistoryOut)
def history(
    request: Request,
    player_id: str,
    _: Investigator,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> PlayerHistoryOut:
    """A player's record: their flags (newest first, at most `limit`) and all their restrictions.

    Restrictions ended or lifted are included, marked inactive. A player railbird has seen
    (a message, a table event, a hand) with no flag gets empty lists; a player it has never
    seen is a 404, so a mistyped id does not read as a clean record. Role: `investigator` (or
    `admin`).
    """
    engine = request.app.state.engine
    if not player_known(engine, player_id):
        raise HTTPException(404, f"no record of a player with id {player_id!r}")
    now = datetime.now(UTC)
    return PlayerHistoryOut(
        player_id=player_id,
        flags=[FlagOut(**f) for f in player_flags(engine, player_id, limit)],
        restrictions=[
            restriction_out(r, now)
            for r in player_restrictions(engine, player_id, now, active_only=False)
        ],
    )
