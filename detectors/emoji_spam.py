"""Flags emoji spam (many emoji in one message, or a burst of them) and shouting (caps lock
and `!!!!` again and again, alone or as a shouting match between players).

One or two emoji are how players react, and one all-caps "NICE HAND!!" is excitement, not spam:
only volume over a window is flagged, with per-channel limits.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import ClassVar

from detectors.events import AnyEvent, ChatEvent
from detectors.findings import Evidence, Finding, Severity
from detectors.message_burst import Burst, Window, routing_key, severity_for
from detectors.state import State

# Pictographs; skin-tone modifiers (U+1F3FB-1F3FF), ZWJ and variation selectors don't count.
EMOJI = re.compile(
    "[\U0001f000-\U0001f3fa\U0001f400-\U0001faff\u2600-\u27bf\u2b00-\u2bff\u2300-\u23ff]"
)
_EXCLAIM = re.compile(r"[!?]{3,}")
_LONG_EXCLAIM = re.compile(r"[!?]{8,}")
_CHAR_FLOOD = re.compile(r"(\S{1,3}?)\1{7,}")
REPORT_EVERY = 3
_LETTER = re.compile(r"[^\W\d_]")
_UPPER = re.compile("[A-Z\u00c0-\u00de\u0391-\u03a9\u0410-\u042f]")


def _default_emoji_limits() -> dict[str, int]:
    return {"table": 15, "tournament": 15, "lobby": 10, "private": 30}


def count_emoji(text: str) -> int:
    return 0 if text.isascii() else len(EMOJI.findall(text))


def shout_level(text: str, min_letters: int, caps_ratio: float) -> tuple[int, str]:
    """0: normal; 1: raised voice (`!!!!`, caps); 2: spam on its own (a long caps line, a
    flood of one character or word). With the reason, for the evidence."""
    if _CHAR_FLOOD.search(text):
        return 2, "one character or syllable repeated"
    words = text.lower().split()
    if len(words) >= 6:
        top = max(words.count(w) for w in set(words))
        if top >= 6 and top >= 0.7 * len(words):
            return 2, "one word repeated"
    exclaim = ("!" in text or "?" in text) and _EXCLAIM.search(text) is not None
    if exclaim and _LONG_EXCLAIM.search(text):
        return 2, "long !!!! run"
    if not text.islower():
        letters = len(_LETTER.findall(text))
        if letters >= min_letters and len(_UPPER.findall(text)) >= caps_ratio * letters:
            if exclaim:
                return 2, "all caps with !!!"
            return (2, "long all-caps line") if letters >= 2 * min_letters else (1, "caps")
    return (1, "!!!") if exclaim else (0, "")


@dataclass(frozen=True, slots=True)
class EmojiSpam:
    name: ClassVar[str] = "emoji_spam"
    max_emoji_per_message: int = 6
    # Most emoji a player may send in `window_seconds` on a channel.
    max_emoji_per_window: Mapping[str, int] = field(default_factory=_default_emoji_limits)
    default_max_emoji_per_window: int = 15
    window_seconds: float = 10.0
    # Caps over this many letters raise the voice; with !!! or twice as long, spam alone.
    shout_min_letters: int = 10
    shout_caps_ratio: float = 0.8
    # Shouted messages by one player in `shout_window_seconds` before it is spam.
    max_shouts: int = 2
    shout_window_seconds: float = 60.0

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or not event.text:
            return []
        findings: list[Finding] = []
        emoji = count_emoji(event.text)
        if emoji:
            findings.extend(self._emoji(event, emoji, state))
        if event.kind == "text":
            level, why = shout_level(event.text, self.shout_min_letters, self.shout_caps_ratio)
            if level:
                findings.extend(self._shouting(event, level, why, state))
        return findings

    def _emoji(self, event: ChatEvent, emoji: int, state: State) -> list[Finding]:
        span = timedelta(seconds=self.window_seconds)
        route = routing_key(event.table_id, event.player_id)
        key = (route, event.player_id, "emoji")
        window: Window = state.get(key) or Window()
        window.add(event.ts, event.message_id, float(emoji), span)
        state.put(key, window, span)
        limit = self.max_emoji_per_window.get(event.channel, self.default_max_emoji_per_window)
        total = int(window.total)
        ratio = max(emoji / self.max_emoji_per_message, total / limit)
        if ratio <= 1.0:
            return []
        severity = severity_for(ratio)
        burst_key = (route, event.player_id, "emoji-burst")
        burst: Burst = state.get(burst_key) or Burst()
        ids = window.ids() if total > limit else [event.message_id]
        emission = burst.violate(
            f"emoji:{route}:{event.player_id}",
            event.ts,
            ids,
            event.message_id,
            severity,
            span,
            REPORT_EVERY,
        )
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
        return [
            self._finding(
                event,
                severity,
                emission.message_ids,
                emission.dedupe_key,
                "emoji_spam",
                summary,
                {
                    "emoji_in_message": emoji,
                    "emoji_in_window": total,
                    "window_limit": limit,
                    "message_limit": self.max_emoji_per_message,
                    "window_seconds": self.window_seconds,
                },
            )
        ]

    def _shouting(self, event: ChatEvent, level: int, why: str, state: State) -> list[Finding]:
        span = timedelta(seconds=self.shout_window_seconds)
        route = routing_key(event.table_id, event.player_id)
        key = (route, event.player_id, "shout")
        window: Window = state.get(key) or Window()
        window.add(event.ts, event.message_id, 1.0, span)
        state.put(key, window, span)
        # Who else shouted at this table lately: two shouters make a shouting match.
        room_key = (route, "shouters")
        shouters: dict[str, float] = state.get(room_key) or {}
        now = event.ts.timestamp()
        shouters = {p: t for p, t in shouters.items() if now - t < span.total_seconds()}
        shouters[event.player_id] = now
        state.put(room_key, shouters, span)
        if window.count <= self.max_shouts and level < 2:
            return []
        others = sorted(p for p in shouters if p != event.player_id)
        ratio = max(1.0, window.count / self.max_shouts)
        severity = severity_for(ratio)
        if others and severity == "low":
            severity = "medium"
        burst_key = (route, event.player_id, "shout-burst")
        burst: Burst = state.get(burst_key) or Burst()
        emission = burst.violate(
            f"shout:{route}:{event.player_id}",
            event.ts,
            window.ids(),
            event.message_id,
            severity,
            span,
            REPORT_EVERY,
        )
        state.put(burst_key, burst, span)
        if emission is None:
            return []
        if window.count <= self.max_shouts:
            summary = f"shouting: {why} in one message"
        else:
            summary = (
                f"{window.count} shouted messages (caps or !!!!) in "
                f"{self.shout_window_seconds:.0f} s (limit {self.max_shouts}), latest: {why}"
            )
        if others:
            summary += f"; shouting match with {', '.join(others)}"
        return [
            self._finding(
                event,
                severity,
                emission.message_ids,
                emission.dedupe_key,
                "shouting",
                summary,
                {
                    "shouted_messages": window.count,
                    "limit": self.max_shouts,
                    "window_seconds": self.shout_window_seconds,
                    "other_shouters": others,
                },
            )
        ]

    def _finding(
        self,
        event: ChatEvent,
        severity: Severity,
        message_ids: tuple[str, ...],
        dedupe_key: str,
        kind: str,
        summary: str,
        measures: dict[str, int | float | list[str]],
    ) -> Finding:
        return Finding(
            detector=self.name,
            category="spam",
            severity=severity,
            score={"low": 0.55, "medium": 0.7, "high": 0.85, "critical": 0.95}[severity],
            ts=event.ts,
            player_ids=(event.player_id,),
            table_id=event.table_id,
            tournament_id=event.tournament_id,
            message_ids=message_ids,
            dedupe_key=dedupe_key,
            evidence=Evidence(
                kind=kind, summary=summary, event_ids=message_ids, measures=dict(measures)
            ),
        )
