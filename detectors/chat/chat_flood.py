"""Flags a player who floods a channel: more messages in a short window than people can read.

Limits are per channel because a private conversation tolerates faster typing than a table of
nine people, and the lobby less. Emoji reactions and SnapCam starts count as messages too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import ClassVar

from pydantic import PositiveFloat, PositiveInt

from railbird.detectors.chat.bursts import (
    Burst,
    Emission,
    Window,
    room,
    severity_for,
    span_of,
)
from railbird.detectors.events import AnyEvent, Channel, ChatEvent
from railbird.detectors.findings import Finding, message_finding
from railbird.detectors.state import State

_NO_TIME = timedelta(0)


def _default_limits() -> dict[Channel, int]:
    return {"table": 6, "tournament": 6, "lobby": 5, "private": 10}


@dataclass(frozen=True, slots=True)
class ChatFlood:
    name: ClassVar[str] = "chat_flood"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    # Policy, not statistics: the operator sets these in the policy file (`[detectors.<name>]`).
    operator_settings: ClassVar[tuple[str, ...]] = ("max_messages", "window_seconds")
    # Most messages a player may send in `window_seconds` on a channel before it is a flood.
    max_messages: Mapping[Channel, PositiveInt] = field(default_factory=_default_limits)
    default_max_messages: PositiveInt = 6
    window_seconds: PositiveFloat = 10.0

    # The window as a timedelta, made once (`span_of` is a call per message).
    _span: timedelta = field(init=False, repr=False, compare=False)
    # Whether the window has any length (`Window.add`'s test): made once, not per message.
    _opens: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        span = span_of(self.window_seconds)
        object.__setattr__(self, "_span", span)
        object.__setattr__(self, "_opens", span > _NO_TIME)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent):
            return []
        span = self._span
        player, channel = event.player_id, event.channel  # pydantic attributes: read once
        route = event.table_id or player  # `routing_key`, without the call
        now = state.now
        # The table's windows share one state entry (`room`): most messages find their
        # window empty, and a fresh key's heap push and sweep were most of this detector's cost.
        key = (route, "flood")
        windows = room(state, key, span, now)
        member = (player, channel)
        window: Window | None = windows.get(member)
        if window is None:
            window = windows[member] = Window()
        elif window.until <= now:  # what a put on every message would have expired
            window.clear()
        items = window.items
        if not items and self._opens:  # `Window.add`'s usual case, without the call
            items.append((event.ts, event.message_id, 1.0))
            window.total += 1.0
        else:
            window.add(event.ts, event.message_id, 1.0, span)
        window.until = now + span
        limit = self.max_messages.get(channel, self.default_max_messages)
        if len(items) <= limit:
            return []
        return self._flood(event, route, window, limit, span, state)

    def _flood(
        self,
        event: ChatEvent,
        route: str,
        window: Window,
        limit: int,
        span: timedelta,
        state: State,
    ) -> list[Finding]:
        """A window over its limit: the flag, if this burst reports now."""
        burst_key = (route, event.player_id, event.channel, "burst")
        burst: Burst = state.get(burst_key) or Burst()
        severity = severity_for(window.count / limit)
        if burst.opens(event.ts, span):  # the id list only when a burst starts: floods are long
            scope = f"flood:{route}:{event.player_id}:{event.channel}"
            emission: Emission | None = burst.start(scope, event.ts, window.ids(), severity)
        else:
            emission = burst.extend(event.ts, event.message_id, severity, limit)
        state.put(burst_key, burst, span)
        if emission is None:
            return []
        seconds = (event.ts - window.first_ts()).total_seconds()
        summary = (
            f"{window.count} messages in {seconds:.0f} s in {event.channel} chat (limit {limit})"
        )
        if emission.burst_size > window.count:
            summary += f"; {emission.burst_size} in this flood so far"
        return [
            message_finding(
                event,
                detector=self.name,
                category="spam",
                severity=severity,
                score=min(1.0, 0.5 + 0.1 * (window.count - limit)),
                kind="chat_flood",
                summary=summary,
                measures={
                    "messages_in_window": window.count,
                    "window_seconds": self.window_seconds,
                    "limit": limit,
                    "channel": event.channel,
                    "burst_size": emission.burst_size,
                },
                message_ids=emission.message_ids,
                dedupe_key=emission.dedupe_key,
            )
        ]
