"""Flags repeated messages: one player saying (nearly) the same thing again and again, and the
same text from many players at once, which is how bot waves advertise.

The fingerprint is cheap on purpose (lower-case letters and digits only, letter runs collapsed),
and near-duplicates are found by character-trigram Jaccard against the player's last few
messages only, so the cost per message stays at a few microseconds and the state stays bounded.
Short lines ("gg", "nh", "ty") are exempt: everybody repeats those.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar

from detectors.events import AnyEvent, ChatEvent
from detectors.findings import Evidence, Finding, Severity
from detectors.message_burst import Burst, routing_key, severity_for
from detectors.state import State

_NOT_ALNUM = re.compile(r"[\W_]+", re.UNICODE)
_RUNS = re.compile(r"(.)\1{2,}", re.UNICODE)
_DIGITS = re.compile(r"\d+")
# How many of a player's recent messages a new one is compared with.
HISTORY = 8
WAVE_MAX_PLAYERS = 64


def fingerprint(text: str) -> tuple[str, int]:
    """Lower-case alphanumerics with letter runs collapsed (emoji-only text keeps its symbols),
    and the length before collapsing, which is what the minimum length applies to."""
    lowered = text.lower()
    core = _NOT_ALNUM.sub("", lowered)
    if not core:
        core = "".join(lowered.split())
    return _RUNS.sub(r"\1\1", core), len(core)


def trigrams(fp: str) -> frozenset[str]:
    return frozenset(fp[i : i + 3] for i in range(max(1, len(fp) - 2)))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


@dataclass(slots=True)
class _Said:
    ts: datetime
    message_id: str
    fp: str
    grams: frozenset[str] | None = None

    def similar(self, fp: str, grams: list[frozenset[str]], threshold: float) -> bool:
        """Same fingerprint, or trigram Jaccard over `threshold`; trigrams built only when the
        lengths could reach it, since most messages differ in length already."""
        if self.fp == fp:
            return True
        short, long_ = sorted((len(self.fp), len(fp)))
        if short < threshold * long_:
            return False
        if not grams:
            grams.append(trigrams(fp))
        if self.grams is None:
            self.grams = trigrams(self.fp)
        return jaccard(self.grams, grams[0]) >= threshold


@dataclass(slots=True)
class _Wave:
    messages: dict[str, list[tuple[datetime, str]]] = field(default_factory=dict)
    burst: Burst = field(default_factory=Burst)


@dataclass(frozen=True, slots=True)
class RepeatedMessages:
    name: ClassVar[str] = "repeated_messages"
    window_seconds: float = 60.0
    # A player repeating a line this many times in the window is spamming.
    min_repeats: int = 3
    min_chars: int = 6
    similarity: float = 0.7
    # The same line from this many players in the window is a bot wave.
    wave_min_players: int = 3
    wave_min_chars: int = 20

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind == "snapcam" or not event.text:
            return []
        fp, length = fingerprint(event.text)
        if length < self.min_chars:
            return []
        span = timedelta(seconds=self.window_seconds)
        findings = self._player_repeats(event, fp, span, state)
        if length >= self.wave_min_chars:
            findings.extend(self._wave(event, fp, span, state))
        return findings

    def _player_repeats(
        self, event: ChatEvent, fp: str, span: timedelta, state: State
    ) -> list[Finding]:
        route = routing_key(event.table_id, event.player_id)
        key = (route, event.player_id, "said")
        history: deque[_Said] | None = state.get(key)
        if history is None:
            history = deque(maxlen=HISTORY)
        horizon = event.ts - span
        while history and history[0].ts <= horizon:
            history.popleft()
        grams: list[frozenset[str]] = []  # this message's trigrams, once needed
        matches = [said.message_id for said in history if said.similar(fp, grams, self.similarity)]
        history.append(_Said(event.ts, event.message_id, fp, grams[0] if grams else None))
        state.put(key, history, span)
        count = len(matches) + 1
        if count < self.min_repeats:
            return []
        ids = [*matches, event.message_id]
        burst_key = (route, event.player_id, "repeat-burst")
        burst: Burst = state.get(burst_key) or Burst()
        severity = severity_for(count / self.min_repeats)
        emission = burst.violate(
            f"repeat:{route}:{event.player_id}",
            event.ts,
            ids,
            event.message_id,
            severity,
            span,
            self.min_repeats,
        )
        state.put(burst_key, burst, span)
        if emission is None:
            return []
        summary = (
            f"same message {count} times in {self.window_seconds:.0f} s "
            f"(limit {self.min_repeats - 1})"
        )
        return [
            self._finding(
                event,
                (event.player_id,),
                emission.message_ids,
                emission.dedupe_key,
                severity,
                "repeated_message",
                summary,
                {"repeats": count, "window_seconds": self.window_seconds},
            )
        ]

    def _wave(self, event: ChatEvent, fp: str, span: timedelta, state: State) -> list[Finding]:
        wave_fp = _DIGITS.sub("", fp)
        scope = event.table_id or event.tournament_id or event.channel
        key = (scope, "wave", wave_fp)
        wave: _Wave | None = state.get(key)
        if wave is None:
            wave = _Wave()
        horizon = event.ts - span
        for player in list(wave.messages):
            kept = [m for m in wave.messages[player] if m[0] > horizon]
            if kept:
                wave.messages[player] = kept
            else:
                del wave.messages[player]
        said = wave.messages.setdefault(event.player_id, [])
        if len(said) < HISTORY:
            said.append((event.ts, event.message_id))
        while len(wave.messages) > WAVE_MAX_PLAYERS:
            del wave.messages[next(iter(wave.messages))]
        state.put(key, wave, span)
        players = len(wave.messages)
        if players < self.wave_min_players:
            return []
        ids = sorted((m for ms in wave.messages.values() for m in ms), key=lambda m: m[0])
        ratio = players / self.wave_min_players
        severity: Severity = "critical" if ratio >= 4 else "high" if ratio >= 2 else "medium"
        emission = wave.burst.violate(
            f"wave:{scope}",
            event.ts,
            [mid for _, mid in ids],
            event.message_id,
            severity,
            span,
            self.wave_min_players,
        )
        if emission is None:
            return []
        summary = f"same text from {players} players within {self.window_seconds:.0f} s: bot wave"
        return [
            self._finding(
                event,
                tuple(sorted(wave.messages)),
                emission.message_ids,
                emission.dedupe_key,
                severity,
                "bot_wave",
                summary,
                {"players": players, "window_seconds": self.window_seconds},
            )
        ]

    def _finding(
        self,
        event: ChatEvent,
        players: tuple[str, ...],
        message_ids: tuple[str, ...],
        dedupe_key: str,
        severity: Severity,
        kind: str,
        summary: str,
        measures: dict[str, int | float],
    ) -> Finding:
        return Finding(
            detector=self.name,
            category="spam",
            severity=severity,
            score={"low": 0.6, "medium": 0.75, "high": 0.9, "critical": 0.97}[severity],
            ts=event.ts,
            player_ids=players,
            table_id=event.table_id,
            tournament_id=event.tournament_id,
            message_ids=message_ids,
            dedupe_key=dedupe_key,
            evidence=Evidence(
                kind=kind,
                summary=summary,
                event_ids=message_ids,
                measures=dict(measures),
            ),
        )
