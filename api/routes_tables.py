"""POST /v1/tables/join-check — the lobby asks before it seats a player at a cash table."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request

from railbird.api.auth import Principal, Role, require
from railbird.api.chat_gate import ChatGate
from railbird.api.models import JoinCheckIn, JoinCheckOut
from railbird.api.routes_restrictions import restriction_out
from railbird.rules.action_kinds import stops

router = APIRouter(prefix="/v1/tables", tags=["tables"])
Lobby = Annotated[Principal, Depends(require(Role.LOBBY_SERVICE, Role.CHAT_SERVICE))]


@router.post("/join-check", response_model=JoinCheckOut)
async def join_check(request: Request, body: JoinCheckIn, _: Lobby) -> JoinCheckOut:
    """May this player join a cash table of this blind level now? `block` names the block
    (a refusal-to-play block at that level, `block_table_join`) and when it ends.

    Answered from the same in-memory restrictions as the chat check, so it never waits on the
    database; `async` like the chat check, as it does no I/O once the server has started (a
    thread-pool route answered a fraction as many, docs/benchmarks-join.md). A block at one
    level never stops a join at another. Role: `lobby_service` or
    `chat_service` (or `admin`).
    """
    started = time.perf_counter()
    now = datetime.now(UTC)
    level = body.level
    gate: ChatGate = request.app.state.chat_gate
    blocking = [
        r
        for r in gate.restrictions.for_player(body.player_id, now)
        if stops(r.kind, "table_join") and r.scope == level
    ]
    # The one that ends last is the one the lobby must wait for.
    block = max(blocking, key=lambda r: (r.expires_at is None, r.expires_at or now), default=None)
    if block is None:
        return JoinCheckOut(
            decision="allow",
            blind_level=level,
            reasons=[],
            blocked_until=None,
            restriction=None,
            checked_in_ms=round((time.perf_counter() - started) * 1000, 3),
        )
    until = "until lifted" if block.expires_at is None else f"until {block.expires_at:%H:%M:%S} UTC"
    return JoinCheckOut(
        decision="block",
        blind_level=level,
        reasons=[f"player may not join {level} tables {until}: {block.reason}"],
        blocked_until=block.expires_at,
        restriction=restriction_out(block, now),
        checked_in_ms=round((time.perf_counter() - started) * 1000, 3),
    )
