"""In-hand influence by private message: the hand watch (`hand_watch`) for the private channel.

A private message is keyed by its sender, but the hand it can sway is the recipient's, at
another table and so on another Kafka partition: this detector is keyed by hand
(`keyed_by = "hand"`), so a stream brings it each table's events and hands together with the
private messages sent to the players dealt in there (`ingest.kafka.topology`), while table
chat, keyed like its hand, is read by the table-keyed `InHandInfluence`. Same live and
retrospective verdicts, same flags; only the detector name (and so the flag id) differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.detector import Keying
from railbird.detectors.events import AnyEvent, ChatEvent, TableEvent
from railbird.detectors.findings import Finding
from railbird.detectors.in_hand.hand_watch import HandWatch
from railbird.detectors.state import State


@dataclass(frozen=True, slots=True)
class PrivateInHandInfluence(HandWatch):
    name: ClassVar[str] = "in_hand_private"
    keyed_by: ClassVar[Keying] = "hand"  # the recipient's hand may be at any table
    channels: ClassVar[frozenset[str]] = frozenset({"private"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        # The watch's dispatch, with its channel test moved up: the site stage sees every
        # message and nine in ten are not private, so they return before any further call.
        if isinstance(event, ChatEvent):
            if event.channel != "private":
                return []
            return self._on_chat(event, state)
        if isinstance(event, TableEvent):
            self._on_table(event, state)
            return []
        return self._on_hand(event, state)
