"""Restrictions for analysts (apply, lift, list) and the chat server (list active)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

from fastapi import APIRouter, Depends, HTTPException, Query, Request, status

from railbird.api.auth import Principal, Role, require
from railbird.api.models import LiftIn, RestrictionIn, RestrictionOut
from railbird.api.restriction_store import (
    Restriction,
    apply_restriction,
    get_restriction,
    lift_restriction,
    player_restrictions,
    unknown_flags,
)

router = APIRouter(prefix="/v1/restrictions", tags=["restrictions"])
Analyst = Annotated[Principal, Depends(require(Role.ANALYST))]
Reader = Annotated[Principal, Depends(require(Role.ANALYST, Role.CHAT_SERVICE, Role.INVESTIGATOR))]


def restriction_out(r: Restriction, now: datetime) -> RestrictionOut:
    """The API shape of a restriction, `active` as of `now`; shared by the routes that show one."""
    return RestrictionOut(
        action_id=r.action_id,
        kind=r.kind,
        player_id=r.player_id,
        ts=r.ts,
        expires_at=r.expires_at,
        reason=r.reason,
        actor=r.actor,
        flag_ids=list(r.flag_ids),
        lifted_at=r.lifted_at,
        lifted_by=r.lifted_by,
        active=r.active_at(now),
        blind_level=r.scope,
    )


@router.get("", response_model=list[RestrictionOut])
def list_for_player(
    request: Request,
    _: Reader,
    player_id: Annotated[str, Query(min_length=1, max_length=64)],
    active: bool = True,
) -> list[RestrictionOut]:
    """A player's mutes, suspensions and table-join blocks, newest first: those in force now,
    or all if `active=false`.

    Role: `analyst`, `chat_service` or `investigator` (or `admin`).
    """
    now = datetime.now(UTC)
    found = player_restrictions(request.app.state.engine, player_id, now, active_only=active)
    return [restriction_out(r, now) for r in found]


@router.post("", response_model=RestrictionOut, status_code=status.HTTP_201_CREATED)
def apply(request: Request, body: RestrictionIn, who: Analyst) -> RestrictionOut:
    """Mute, suspend or block a player from now; without `duration_minutes`, until lifted.

    A `block_table_join` names its `blind_level` ("50/100"): the join check refuses the player
    tables of that level only.

    The calling key's fingerprint is recorded as the actor, in the audit log too, and the chat
    check applies the restriction from its next message. Role: `analyst` (or `admin`).
    """
    now = datetime.now(UTC)
    unknown = unknown_flags(request.app.state.engine, body.flag_ids)
    if unknown:
        raise HTTPException(422, f"no flag with id {', '.join(map(repr, unknown[:5]))}")
    restriction = apply_restriction(
        request.app.state.engine,
        player_id=body.player_id,
        kind=body.kind,
        duration=None
        if body.duration_minutes is None
        else timedelta(minutes=body.duration_minutes),
        reason=body.reason,
        actor=f"key:{who.key_id}",
        flag_ids=tuple(body.flag_ids),
        now=now,
        scope=body.blind_level,
    )
    request.app.state.chat_gate.note(restriction)
    return restriction_out(restriction, now)


@router.post("/{action_id}/lift", response_model=RestrictionOut)
def lift(request: Request, action_id: str, body: LiftIn, who: Analyst) -> RestrictionOut:
    """End a restriction early, the rules' or an analyst's, with a reason for the audit log.

    404 when no restriction has that id, 409 when it is no longer in force (lifted or expired).
    Role: `analyst` (or `admin`).
    """
    now = datetime.now(UTC)
    engine = request.app.state.engine
    lifted = lift_restriction(engine, action_id, f"key:{who.key_id}", body.reason, now)
    if lifted is None:
        if get_restriction(engine, action_id) is None:
            raise HTTPException(404, f"no restriction with id {action_id!r}")
        raise HTTPException(409, f"restriction {action_id!r} is no longer active")
    request.app.state.chat_gate.note(lifted)
    return restriction_out(lifted, now)
