"""POST /v1/chat/check — the chat server asks before it delivers a message."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Request

from railbird.api.auth import Principal, Role, require
from railbird.api.chat_gate import ChatGate
from railbird.api.models import ChatCheckIn, ChatCheckOut
from railbird.api.routes_restrictions import restriction_out
from railbird.detectors.events import ChatEvent

router = APIRouter(prefix="/v1/chat", tags=["chat"])
ChatService = Annotated[Principal, Depends(require(Role.CHAT_SERVICE))]


@router.post("/check", response_model=ChatCheckOut)
async def check(request: Request, body: ChatCheckIn, _: ChatService) -> ChatCheckOut:
    """May this player send this message now? Answers `allow`, `hold` or `block`, with the
    reasons.

    A mute blocks text and emoji, a communication suspension everything, SnapCam included;
    otherwise the message is checked against the chat rules and, when `hand_id` and
    `sender_status` say a hand is in play at the sender's table, against what it could do to
    that hand: card talk (digits included), reads and advice, hand-strength talk, a railbird's
    or a folded player's emoji or SnapCam are `hold` with `release: "hand_end"` (deliver them
    when the hand ends); naming another player's cards from outside the decision is `block`.
    What each category costs in each channel is the policy file's `[chat_check]`. Without
    hand context the answer is as it always was. Detectors that failed on the message are
    listed in `failed_detectors`: the decision was made without them. Role: `chat_service`
    (or `admin`).
    """
    return answer(request.app.state.chat_gate, body, time.perf_counter())


def answer(gate: ChatGate, body: ChatCheckIn, started: float) -> ChatCheckOut:
    """The check itself, for the route and for `chat_check_direct` (the same answer on both
    paths); `started` is when the request arrived (`time.perf_counter()`)."""
    now = datetime.now(UTC)
    message = ChatEvent(
        type="chat",
        # Its own id (the chat server's, or one made here): the detectors' memory of this
        # player's and channel's recent lines keeps each message apart.
        message_id=body.message_id or f"check-{uuid.uuid4().hex}",
        ts=now,
        player_id=body.player_id,
        channel=body.channel,
        table_id=body.table_id,
        tournament_id=body.tournament_id,
        recipient_id=body.recipient_id,
        kind=body.kind,
        text=body.text,
    )
    verdict = gate.check(message, body.hand_id, body.sender_status, now=now)
    return ChatCheckOut(
        decision=verdict.decision,
        release=verdict.release,
        hand_id=body.hand_id if verdict.release else None,
        reasons=list(verdict.reasons),
        categories=sorted({f.category for f in verdict.findings}),
        restriction=None
        if verdict.restriction is None
        else restriction_out(verdict.restriction, now),
        checked_in_ms=round((time.perf_counter() - started) * 1000, 3),
        failed_detectors=list(verdict.failed_detectors),
    )
