"""Flags talk that can steer a hand in play at a table: card talk, reads, advice, emoji, SnapCam.

House policy: influencing a hand in play or its participants by discussion, emoji or SnapCam is
prohibited, whoever does it. Table chat, table events and hand histories are all keyed by table,
so this detector is keyed by table (the table stage: its live flags leave with that stage's
latency). How a hand is watched and a message judged: `hand_watch` and `verdicts`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.detector import Keying
from railbird.detectors.in_hand.hand_watch import HandWatch


@dataclass(frozen=True, slots=True)
class InHandInfluence(HandWatch):
    name: ClassVar[str] = "in_hand_influence"
    keyed_by: ClassVar[Keying] = "table"  # its state is keyed by table: table chat only
    channels: ClassVar[frozenset[str]] = frozenset({"table"})
