"""Flags emoji spam (a wall of emoji in one message, or a burst of them) and shouting (caps
lock and `!!!!` again and again, alone or as a shouting match between players).

Spam is volume or repetition. A few emoji are how players react, and one loud line, however
loud ("NICE HAND!!!!", "WHAT A RIVER", "soooo sick"), is excitement or a personal message in
caps: it is never spam on its own. What is flagged is volume over a window, with per-channel
limits: a wall of emoji in one line (it fills the chat box as a burst would), emoji over the
window's limit, and loud lines repeated within the shouting window.
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
    routing_key,
    severity_for,
    span_of,
)
from railbird.detectors.events import AnyEvent, Channel, ChatEvent
from railbird.detectors.findings import Finding, MeasureValue, Severity, message_finding
from railbird.detectors.state import State
from railbird.detectors.text.loud_text import count_emoji, shout_level

REPORT_EVERY = 3
_SCORES: dict[str, float] = {"low": 0.55, "medium": 0.7, "high": 0.85, "critical": 0.95}
# Readings remembered (`EmojiSpam._read`; chat repeats itself), longer texts never; past this
# many the memo starts over.
_MEMO_SIZE = 4096
_MEMO_CHARS = 256
# (emoji count, shout level, why)
_Read = tuple[int, int, str]


def _default_emoji_limits() -> dict[Channel, int]:
    return {"table": 15, "tournament": 15, "lobby": 10, "private": 30}


@dataclass(frozen=True, slots=True)
class EmojiSpam:
    name: ClassVar[str] = "emoji_spam"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    # Policy, not statistics: the operator sets these in the policy file (`[detectors.<name>]`).
    operator_settings: ClassVar[tuple[str, ...]] = (
        "max_emoji_per_message",
        "max_emoji_per_window",
        "window_seconds",
        "max_shouts",
        "shout_window_seconds",
    )
    # Most emoji in one message: past it the line is a wall, spam on its own.
    max_emoji_per_message: PositiveInt = 9
    # Most emoji a player may send in `window_seconds` on a channel.
    max_emoji_per_window: Mapping[Channel, PositiveInt] = field(
        default_factory=_default_emoji_limits
    )
    default_max_emoji_per_window: PositiveInt = 15
    window_seconds: PositiveFloat = 10.0
    # Caps over this many letters raise the voice (so does !!!!); a loud line only counts
    # towards the window below, however loud it is.
    shout_min_letters: int = 10
    shout_caps_ratio: float = 0.8
    # Loud messages one player may send in `shout_window_seconds`; one more is spam.
    max_shouts: PositiveInt = 2
    shout_window_seconds: PositiveFloat = 60.0

    _spans: tuple[timedelta, timedelta] = field(init=False, repr=False, compare=False)
    # text -> (emoji, shout level, why): pure functions of the text, asked of every message.
    _reads: dict[str, _Read] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        spans = (span_of(self.window_seconds), span_of(self.shout_window_seconds))
        object.__setattr__(self, "_spans", spans)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent):
            return []
        text = event.text
        if not text:
            return []
        known = self._reads.get(text)
        emoji, level, why = self._read(text) if known is None else known
        if event.kind != "text":
            return self._emoji(event, emoji, state) if emoji else []
        if not emoji:
            return self._shouting(event, why, state) if level else []
        findings = self._emoji(event, emoji, state)
        if level:
            findings.extend(self._shouting(event, why, state))
        return findings

    def _read(self, text: str) -> _Read:
        """Emoji count and shout level of `text`, remembered for the next time it is said."""
        emoji = 0 if text.isascii() else count_emoji(text)  # most chat: no call
        level, why = shout_level(text, self.shout_min_letters, self.shout_caps_ratio)
        found = (emoji, level, why)
        if len(text) <= _MEMO_CHARS:
            memo = self._reads
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[text] = found
        return found

    def _emoji(self, event: ChatEvent, emoji: int, state: State) -> list[Finding]:
        span = self._spans[0]
        player, message_id, ts = event.player_id, event.message_id, event.ts
        route = routing_key(event.table_id, player)
        key = (route, player, "emoji")
        window: Window = state.get(key) or Window()
        window.add(ts, message_id, float(emoji), span)
        state.put(key, window, span)
        limit = self.max_emoji_per_window.get(event.channel, self.default_max_emoji_per_window)
        total = int(window.total)
        ratio = max(emoji / self.max_emoji_per_message, total / limit)
        if ratio <= 1.0:
            return []
        severity = severity_for(ratio)
        burst_key = (route, player, "emoji-burst")
        burst: Burst = state.get(burst_key) or Burst()
        if burst.opens(ts, span):  # the id list only when a burst starts
            ids = window.ids() if total > limit else [message_id]
            emission: Emission | None = burst.start(f"emoji:{route}:{player}", ts, ids, severity)
        else:
            emission = burst.extend(ts, message_id, severity, REPORT_EVERY)
        state.put(burst_key, burst, span)
        if emission is None:
            return []
        if total > limit:
            summary = (
                f"{total} emoji in {window.count} messages within {self.window_seconds:.0f} s "
                f"in {event.channel} chat (limit {limit})"
            )
        else:
            summary = f"{emoji} emoji in one message (limit {self.max_emoji_per_message})"
        measures: dict[str, MeasureValue] = {
            "emoji_in_message": emoji,
            "emoji_in_window": total,
            "window_limit": limit,
            "message_limit": self.max_emoji_per_message,
            "window_seconds": self.window_seconds,
        }
        return [self._finding(event, severity, emission, "emoji_spam", summary, measures)]

    def _shouting(self, event: ChatEvent, why: str, state: State) -> list[Finding]:
        span = self._spans[1]
        player, message_id, ts = event.player_id, event.message_id, event.ts
        route = routing_key(event.table_id, player)
        key = (route, player, "shout")
        window: Window = state.get(key) or Window()
        window.add(ts, message_id, 1.0, span)
        state.put(key, window, span)
        # Who else shouted at this table lately: two shouters make a shouting match.
        room_key = (route, "shouters")
        shouters: dict[str, float] | None = state.get(room_key)
        now = ts.timestamp()
        if shouters is None:
            shouters = {}
        elif shouters:  # pruned in place: this runs for every shouted line
            seconds = span.total_seconds()
            for gone in [p for p, t in shouters.items() if not now - t < seconds]:
                del shouters[gone]
        shouters[player] = now
        state.put(room_key, shouters, span)
        count = window.count
        if count <= self.max_shouts:
            return []
        match = len(shouters) > 1  # someone besides this player shouted lately
        severity = severity_for(max(1.0, count / self.max_shouts))
        if match and severity == "low":
            severity = "medium"
        burst_key = (route, player, "shout-burst")
        burst: Burst = state.get(burst_key) or Burst()
        if burst.opens(ts, span):  # the id list only when a burst starts
            scope = f"shout:{route}:{player}"
            emission: Emission | None = burst.start(scope, ts, window.ids(), severity)
        else:
            emission = burst.extend(ts, message_id, severity, REPORT_EVERY)
        state.put(burst_key, burst, span)
        if emission is None:
            return []
        others: list[str] = []
        if match:
            others = sorted(shouters)
            others.remove(player)
        summary = (
            f"{count} shouted messages (caps or !!!!) in "
            f"{self.shout_window_seconds:.0f} s (limit {self.max_shouts}), latest: {why}"
        )
        if others:
            summary += f"; shouting match with {', '.join(others)}"
        measures: dict[str, MeasureValue] = {
            "shouted_messages": count,
            "limit": self.max_shouts,
            "window_seconds": self.shout_window_seconds,
            "other_shouters": others,
        }
        return [self._finding(event, severity, emission, "shouting", summary, measures)]

    def _finding(
        self,
        event: ChatEvent,
        severity: Severity,
        emission: Emission,
        kind: str,
        summary: str,
        measures: dict[str, MeasureValue],
    ) -> Finding:
        return message_finding(
            event,
            detector=self.name,
            category="spam",
            severity=severity,
            score=_SCORES[severity],
            kind=kind,
            summary=summary,
            measures=measures,
            message_ids=emission.message_ids,
            dedupe_key=emission.dedupe_key,
        )
