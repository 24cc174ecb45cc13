"""Flags talk that can steer a hand in play: card talk, reads, advice, emoji, SnapCam, at the
table or in a private message to a player dealt in.

House policy: influencing a hand in play or its participants by discussion, emoji or SnapCam is
prohibited, whoever does it, at the table or privately. What this detector remembers is about
a table's hands (`keyed_by = "hand"`): a table's events, hand histories and chat, and the
private messages sent to the players dealt in there (a stream joins each one to its recipient's
table: `ingest.kafka.topology`). One detector for both channels, so a message is judged one way
and flagged under one id scheme wherever it was said. How a hand is watched and a message
judged: `hand_watch` and `verdicts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.detector import Keying
from railbird.detectors.in_hand.hand_watch import HandWatch


@dataclass(frozen=True, slots=True)
class InHandInfluence(HandWatch):
    name: ClassVar[str] = "in_hand_influence"
    keyed_by: ClassVar[Keying] = "hand"
    channels: ClassVar[frozenset[str]] = frozenset({"table", "private"})
