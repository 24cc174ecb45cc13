"""In-hand influence by private message: `in_hand_influence`'s rule for the private channel.

A private message is keyed by its sender, but the hand it can sway is the recipient's, at
another table and so on another Kafka partition: this detector needs every table's hands and
runs site-scoped (`ingest.kafka_stages`), while table chat, keyed like its hand, is read by the
table-scoped `InHandInfluence` without the site stage's merge hold. Same live and
retrospective verdicts, same flags; only the detector name (and so the flag id) differs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from detectors.in_hand_influence import InHandInfluence


@dataclass(frozen=True, slots=True)
class PrivateInHandInfluence(InHandInfluence):
    name: ClassVar[str] = "in_hand_private"
    scope: ClassVar[str] = "site"  # the recipient's hand may be at any table
    channels: ClassVar[frozenset[str]] = frozenset({"private"})
