"""Flags repeated messages: one player saying (nearly) the same thing again and again, and the
same text from many players at once, which is how bot waves advertise.

The fingerprint is cheap on purpose (lower-case letters and digits only, letter runs collapsed),
and near-duplicates are found by character-trigram Jaccard against the player's last few
messages only, so the cost per message stays at a few microseconds and the state stays bounded.
Short lines ("gg", "nh", "ty") are exempt: everybody repeats those.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import ClassVar

from detectors.events import AnyEvent, ChatEvent
from detectors.findings import Evidence, Finding, Severity
from detectors.message_burst import Burst, Emission, Kept, room, severity_for, span_of
from detectors.message_fingerprint import (
    ASCII_LOWER,
    ASCII_NOT_ALNUM,
    collapse_runs,
    fingerprint,
    jaccard,
    strip_digits,
    trigrams,
)
from detectors.state import State

# How many of a player's recent messages a new one is compared with.
HISTORY = 8
WAVE_MAX_PLAYERS = 64


# One line a player said: (ts, message id, fingerprint). A tuple: one is made per message.
# The fingerprint may be stored uncollapsed (ASCII bytes, see `collapse_runs`): most lines
# are never compared with another, so their runs are collapsed only if one ever is.
_Said = tuple[datetime, str, str | bytes]


class _History(Kept):
    """A player's recent lines (at most `HISTORY`, oldest first), kept in the table's `room`
    rather than put on every message. A list, not a deque: it is short, and this is smaller."""

    __slots__ = ("grams", "said")

    def __init__(self) -> None:
        super().__init__()
        self.said: list[_Said] = []
        # Trigrams of fingerprints compared lately, built only when two lengths are close.
        self.grams: dict[str, frozenset[str]] | None = None

    def trigrams(self, fp: str) -> frozenset[str]:
        cache = self.grams
        if cache is None:
            cache = self.grams = {}
        elif len(cache) >= 4 * HISTORY:  # a cache: dropping it costs a rebuild only
            cache.clear()
        grams = cache.get(fp)
        if grams is None:
            grams = cache[fp] = trigrams(fp)
        return grams


# A text's first sighting in the window: (player, ts, message id).
_Sighting = tuple[str, datetime, str]


@dataclass(slots=True)
class _Wave:
    messages: dict[str, list[tuple[datetime, str]]]
    # No message is older: while this is inside the window there is nothing to prune. A lower
    # bound is enough (dropping a player may leave it stale-low, which only costs a prune).
    oldest: datetime
    burst: Burst | None = None  # made on the first violation: most texts never form a wave


@dataclass(frozen=True, slots=True)
class RepeatedMessages:
    name: ClassVar[str] = "repeated_messages"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    window_seconds: float = 60.0
    # A player repeating a line this many times in the window is spamming.
    min_repeats: int = 3
    min_chars: int = 6
    similarity: float = 0.7
    # The same line from this many players in the window is a bot wave.
    wave_min_players: int = 3
    wave_min_chars: int = 20

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent):
            return []
        text = event.text  # read once: a pydantic attribute costs four times a local
        if not text or event.kind == "snapcam":
            return []
        fp: str | bytes
        if text.isascii():  # `fingerprint`'s ASCII path, the length test before the collapse
            fp = text.encode("ascii").translate(ASCII_LOWER, ASCII_NOT_ALNUM)
            length = len(fp)
            if not fp:  # punctuation only: `fingerprint` keeps its symbols
                fp, length = fingerprint(text)
        else:
            fp, length = fingerprint(text)
        if length < self.min_chars:
            return []
        span = span_of(self.window_seconds)
        if length < self.wave_min_chars:
            return self._player_repeats(event, fp, span, state)
        if type(fp) is bytes:
            fp = collapse_runs(fp)
        findings = self._player_repeats(event, fp, span, state)
        findings.extend(self._wave(event, str(fp), span, state))
        return findings

    def _player_repeats(
        self, event: ChatEvent, fp: str | bytes, span: timedelta, state: State
    ) -> list[Finding]:
        """`fp` may still be uncollapsed bytes: collapsed here only if compared with a line."""
        player, ts = event.player_id, event.ts
        route = event.table_id or player  # `routing_key`, without the call
        now = state.now
        histories = room(state, (route, "said"), span, now)  # the table's players' lines
        record: _History | None = histories.get(player)
        if record is None:
            record = histories[player] = _History()
        elif record.until <= now:  # what a put on every message would have expired
            record.said.clear()
        record.until = now + span
        said = record.said
        matches: list[str] = []
        if said:
            horizon = ts - span
            while said and said[0][0] <= horizon:
                del said[0]
            if said:
                if type(fp) is bytes:
                    fp = collapse_runs(fp)
                self._match(record, str(fp), matches)
        said.append((ts, event.message_id, fp))
        if len(said) > HISTORY:
            del said[0]
        if len(matches) + 1 < self.min_repeats:
            return []
        return self._repeats(event, route, matches, span, state)

    def _match(self, record: _History, fp: str, matches: list[str]) -> None:
        """Append to `matches` the ids of the player's lines that `fp` repeats: the same
        fingerprint, or trigram Jaccard at least `similarity` (trigrams built only when the
        lengths could reach it, since most lines differ in length already)."""
        similarity = self.similarity
        size = len(fp)
        grams: frozenset[str] | None = None  # this line's trigrams, once needed
        said = record.said
        for i, (at, old_id, stored) in enumerate(said):
            if type(stored) is bytes:
                old_fp = collapse_runs(stored)
                said[i] = (at, old_id, old_fp)
            else:
                old_fp = str(stored)
            if old_fp == fp:
                matches.append(old_id)
                continue
            old_size = len(old_fp)
            if old_size < size:
                if old_size < similarity * size:
                    continue
            elif size < similarity * old_size:
                continue
            if grams is None:
                grams = record.trigrams(fp)
            if jaccard(record.trigrams(old_fp), grams) >= similarity:
                matches.append(old_id)

    def _repeats(
        self, event: ChatEvent, route: str, matches: list[str], span: timedelta, state: State
    ) -> list[Finding]:
        count = len(matches) + 1
        ids = [*matches, event.message_id]
        burst_key = (route, event.player_id, "repeat-burst")
        burst: Burst = state.get(burst_key) or Burst()
        severity = severity_for(count / self.min_repeats)
        if burst.opens(event.ts, span):
            scope = f"repeat:{route}:{event.player_id}"
            emission: Emission | None = burst.start(scope, event.ts, ids, severity)
        else:
            emission = burst.extend(event.ts, event.message_id, severity, self.min_repeats)
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
        wave_fp = strip_digits(fp)
        scope = event.table_id or event.tournament_id or event.channel
        key = (scope, "wave", wave_fp)
        player, ts, message_id = event.player_id, event.ts, event.message_id
        seen: _Wave | _Sighting | None = state.get(key)
        if seen is None:  # the usual case: a text nobody sent lately
            if self.wave_min_players > 1:  # one sender is no wave: keep a tuple, not a _Wave
                state.put(key, (player, ts, message_id), span)
                return []
            wave = _Wave({player: [(ts, message_id)]}, ts)
        else:
            if isinstance(seen, _Wave):
                wave = seen
            else:
                first, at, first_id = seen
                wave = _Wave({first: [(at, first_id)]}, at)
            messages = wave.messages
            horizon = ts - span
            if wave.oldest <= horizon:  # something may have left the window
                for sender in list(messages):
                    kept = [m for m in messages[sender] if m[0] > horizon]
                    if kept:
                        messages[sender] = kept
                    else:
                        del messages[sender]
                wave.oldest = min((m[0] for ms in messages.values() for m in ms), default=ts)
            said = messages.setdefault(player, [])
            if len(said) < HISTORY:
                said.append((ts, message_id))
                wave.oldest = min(wave.oldest, ts)
            while len(messages) > WAVE_MAX_PLAYERS:
                del messages[next(iter(messages))]  # `oldest` stays a lower bound: still safe
        state.put(key, wave, span)
        players = len(wave.messages)
        if players < self.wave_min_players:
            return []
        ratio = players / self.wave_min_players
        severity: Severity = "critical" if ratio >= 4 else "high" if ratio >= 2 else "medium"
        burst = wave.burst
        if burst is None:
            burst = wave.burst = Burst()
        if burst.opens(ts, span):  # the sorted id list only when a burst starts
            ordered = sorted((m for ms in wave.messages.values() for m in ms), key=lambda m: m[0])
            ids = [mid for _, mid in ordered]
            emission: Emission | None = burst.start(f"wave:{scope}", ts, ids, severity)
        else:
            emission = burst.extend(ts, message_id, severity, self.wave_min_players)
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
