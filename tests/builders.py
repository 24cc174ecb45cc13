"""Small builders for contract events, so tests read as tables of what happened."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime, timedelta
from typing import Any

from railbird.detectors.events import ChatEvent, HandEvent, TableEvent, event_from_dict

T0 = datetime(2026, 11, 29, 20, 0, 0, tzinfo=UTC)
_ids = itertools.count(1)


def at(seconds: float) -> datetime:
    """T0 plus `seconds`: tests speak in offsets, not timestamps."""
    return T0 + timedelta(seconds=seconds)


def iso(ts: datetime) -> str:
    return ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}Z"


def chat(
    text: str,
    *,
    t: float = 0.0,
    player: str = "p-1",
    table: str | None = "t-1",
    tournament: str | None = "trn-1",
    channel: str = "table",
    kind: str = "text",
    recipient: str | None = None,
    message_id: str | None = None,
    screen_name: str | None = None,
) -> ChatEvent:
    event = event_from_dict(
        {
            "type": "chat",
            "message_id": message_id or f"m-{next(_ids)}",
            "ts": iso(at(t)),
            "player_id": player,
            "screen_name": screen_name or player.upper(),
            "channel": channel,
            "table_id": table,
            "tournament_id": tournament,
            "recipient_id": recipient,
            "kind": kind,
            "text": text,
        }
    )
    assert isinstance(event, ChatEvent)
    return event


def table(
    action: str,
    *,
    t: float = 0.0,
    player: str | None = None,
    table_id: str = "t-1",
    tournament: str | None = "trn-1",
    hand_id: str | None = None,
    players: list[str] | None = None,
    seat: int | None = None,
    event_id: str | None = None,
    extra: dict[str, Any] | None = None,
) -> TableEvent:
    """`extra`: the contract's optional fields (a cash table's `big_blind`, `table_format`)."""
    event = event_from_dict(
        {
            **(extra or {}),
            "type": "table",
            "event_id": event_id or f"e-{next(_ids)}",
            "ts": iso(at(t)),
            "table_id": table_id,
            "tournament_id": tournament,
            "action": action,
            "player_id": player,
            "seat": seat,
            "hand_id": hand_id,
            "players": players,
        }
    )
    assert isinstance(event, TableEvent)
    return event


def hand(
    hand_id: str,
    *,
    start: float,
    end: float,
    seats: list[dict[str, Any]],
    actions: list[dict[str, Any]] | None = None,
    table_id: str = "t-1",
    tournament: str | None = "trn-1",
    board: list[str] | None = None,
    winners: list[dict[str, Any]] | None = None,
    eliminated: list[dict[str, Any]] | None = None,
    blinds: tuple[int, int, int] = (50, 100, 0),
    button_seat: int = 1,
) -> HandEvent:
    """`actions` items may give `t` (seconds) instead of `ts`."""
    acts = []
    for a in actions or []:
        a = dict(a)
        if "t" in a:
            a["ts"] = iso(at(a.pop("t")))
        acts.append(a)
    event = event_from_dict(
        {
            "type": "hand",
            "hand_id": hand_id,
            "table_id": table_id,
            "tournament_id": tournament,
            "game": "NLHE",
            "started_at": iso(at(start)),
            "ended_at": iso(at(end)),
            "button_seat": button_seat,
            "small_blind": blinds[0],
            "big_blind": blinds[1],
            "ante": blinds[2],
            "seats": seats,
            "actions": acts,
            "board": board or [],
            "showdown": [],
            "winners": winners or [],
            "eliminated": eliminated or [],
        }
    )
    assert isinstance(event, HandEvent)
    return event
