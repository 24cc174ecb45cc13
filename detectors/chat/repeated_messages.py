"""Flags repeated messages: one player saying (nearly) the same thing again and again, and the
same text from many players at a table at once, which is how bot waves advertise (waves away
from the tables, whose copies come from senders anywhere, are `lobby_waves`', keyed by text).

The fingerprint is cheap on purpose (lower-case letters and digits only, letter runs collapsed),
and near-duplicates are found by character-trigram Jaccard against the player's last few
messages only, so the cost per message stays at a few microseconds and the state stays bounded.
Short lines ("gg", "nh", "ty") are exempt: everybody repeats those.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, ClassVar

from pydantic import PositiveFloat, PositiveInt

from railbird.detectors.chat.bot_wave import TEXTS, Texts, wave_findings
from railbird.detectors.chat.bursts import (
    Burst,
    Emission,
    room,
    severity_for,
    span_of,
)
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding, Severity, message_finding
from railbird.detectors.state import State
from railbird.detectors.text.fingerprint import (
    Grams,
    fingerprint,
    jaccard,
    misses,
    probe,
    trigrams,
)

# How many of a player's recent messages a new one is compared with.
HISTORY = 8
# Texts (and fingerprints) remembered by the pure functions' memos below; past this many the
# memo starts over. Chat repeats itself ("gg wp", "nice hand", a bot's line), so most messages
# are answered by one dict lookup; a text longer than `_MEMO_CHARS` is never remembered.
_MEMO_SIZE = 4096
_MEMO_CHARS = 256

# One line a player said: (ts, message id, fingerprint). A tuple: one is made per message.
_Said = tuple[datetime, str, str]
# What a text is to this detector: its fingerprint (None under `min_chars`) and whether it is
# long enough to be part of a bot wave.
_Print = tuple[str | None, bool]


class _History(list[_Said]):
    """A player's recent lines (at most `HISTORY`, oldest first), kept in the table's `room`
    rather than put on every message (`until` as in `bursts.Kept`). The list itself,
    not an object holding one: half the messages start a history, and this is made in C."""

    __slots__ = ("until",)
    until: datetime


@dataclass(frozen=True, slots=True)
class RepeatedMessages:
    name: ClassVar[str] = "repeated_messages"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    # Policy, not statistics: the operator sets these in the policy file (`[detectors.<name>]`).
    operator_settings: ClassVar[tuple[str, ...]] = (
        "window_seconds",
        "min_repeats",
        "wave_min_players",
    )
    window_seconds: PositiveFloat = 60.0
    # A player repeating a line this many times in the window is spamming.
    min_repeats: PositiveInt = 3
    min_chars: int = 6
    similarity: float = 0.7
    # The same line from this many players in the window is a bot wave.
    wave_min_players: PositiveInt = 3
    wave_min_chars: int = 20
    _span: timedelta = field(init=False, repr=False, compare=False)
    # text -> `_Print`, and fingerprint -> trigrams: pure functions of their keys.
    _prints: dict[str, _Print] = field(default_factory=dict, init=False, repr=False, compare=False)
    _grams: dict[str, Grams] = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        span = span_of(self.window_seconds)
        object.__setattr__(self, "_span", span)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent):
            return []
        text = event.text  # read once: a pydantic attribute costs four times a local
        if not text or event.kind == "snapcam":
            return []
        known = self._prints.get(text)
        fp, wave = self._print(text) if known is None else known
        if fp is None:
            return []
        span = self._span
        now = state.now  # a property: read once for both halves
        findings, histories = self._player_repeats(event, fp, span, state, now)
        if wave and event.table_id:  # waves away from the tables are `lobby_waves`'
            findings.extend(self._wave(event, fp, histories, span, now))
        return findings

    def _print(self, text: str) -> _Print:
        """What `text` is to this detector (`_Print`), remembered for the next time it is said."""
        fp, length = fingerprint(text)
        found: _Print = (
            (None, False) if length < self.min_chars else (fp, length >= self.wave_min_chars)
        )
        if len(text) <= _MEMO_CHARS:
            memo = self._prints
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            memo[text] = found
        return found

    def _player_repeats(
        self, event: ChatEvent, fp: str, span: timedelta, state: State, now: datetime
    ) -> tuple[list[Finding], dict[Hashable, Any]]:
        """The repeat flags, and the room of the event's routing key (which, for table chat,
        also holds the table's texts for `_wave`)."""
        player = event.player_id
        route = event.table_id or player  # `routing_key`, without the call
        key = (route, "said")
        histories = room(state, key, span, now)
        said: _History | None = histories.get(player)
        if said is None:
            said = histories[player] = _History()
        elif said.until <= now:  # what a put on every message would have expired
            said.clear()
        said.until = now + span
        ts = event.ts
        if not said:  # the usual case: nothing to compare with
            said.append((ts, event.message_id, fp))
            if self.min_repeats > 1:
                return [], histories
            return self._repeats(event, route, [], span, state), histories
        horizon = ts - span
        while said and said[0][0] <= horizon:
            del said[0]
        matches = self._match(said, fp) if said else []
        said.append((ts, event.message_id, fp))
        if len(said) > HISTORY:
            del said[0]
        if len(matches) + 1 < self.min_repeats:
            return [], histories
        return self._repeats(event, route, matches, span, state), histories

    def _match(self, said: list[_Said], fp: str) -> list[str]:
        """The ids of the player's lines that `fp` repeats: the same fingerprint, or trigram
        Jaccard at least `similarity` (trigrams built only when the lengths and then a third of
        this line's trigrams (`probe`) could reach it: most lines differ already)."""
        similarity = self.similarity
        size = len(fp)
        grams: Grams | None = None  # this line's trigrams, once needed
        chunks: set[str] | None = None  # `probe`'s, once needed
        slack = 0.0
        matches: list[str] = []
        for _, old_id, old_fp in said:
            if old_fp == fp:
                matches.append(old_id)
                continue
            old_size = len(old_fp)
            if old_size < size:
                if old_size < similarity * size:
                    continue
            elif size < similarity * old_size:
                continue
            if chunks is None:
                chunks, slack = probe(fp, similarity)
            if misses(chunks, old_fp) > slack:  # most lines: no trigram set built
                continue
            if grams is None:
                grams = self._trigrams(fp)
            if jaccard(self._trigrams(old_fp), grams) >= similarity:
                matches.append(old_id)
        return matches

    def _trigrams(self, fp: str) -> Grams:
        memo = self._grams
        grams = memo.get(fp)
        if grams is None:
            if len(memo) >= _MEMO_SIZE:
                memo.clear()
            grams = memo[fp] = trigrams(fp)
        return grams

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

    def _wave(
        self,
        event: ChatEvent,
        fp: str,
        histories: dict[Hashable, Any],
        span: timedelta,
        now: datetime,
    ) -> list[Finding]:
        """A table's waves: its texts live in the table's room beside its players' histories
        (one state entry for both; the table is the key of everything this detector keeps)."""
        texts: Texts | None = histories.get(TEXTS)  # `texts_of`, without the call
        if texts is None:
            texts = histories[TEXTS] = Texts()
        return wave_findings(
            event,
            texts,
            fp,
            span,
            now,
            min_players=self.wave_min_players,
            window_seconds=self.window_seconds,
            detector=self.name,
        )

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
        return message_finding(
            event,
            detector=self.name,
            category="spam",
            severity=severity,
            score={"low": 0.6, "medium": 0.75, "high": 0.9, "critical": 0.97}[severity],
            kind=kind,
            summary=summary,
            measures=dict(measures),
            message_ids=message_ids,
            player_ids=players,
            dedupe_key=dedupe_key,
        )
