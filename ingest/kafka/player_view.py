"""Where each player is, for the joins that re-key a message by someone else's place.

Two questions, answered as of a record's event time (the players lane releases its records in
the stream's order, `kafka.lane_merge`), by the players task that owns the player:
- *which table's hand was this player last dealt into?* (`hand_start` names who is dealt in):
  a private message to them goes to that table, where the in-hand detector, which follows the
  hand, decides whether it is still in play. This is the recipient's place as the detector
  itself keeps it (the newest hand dealt, for as long as a hand may last), so the message
  reaches the one table whose hand the detector would read it against.
- *which tournament was this player last seen in?* (dealt into a tournament's hand, or joining
  one of its tables): a message that names no tournament goes to the sender's, where the
  tournament detectors read plans made in private, lobby or cash-table chat.

The view is the players task's state: it is snapshotted and restored with it, so a restart
answers exactly as the task would have (a changelog of a stream-table join, kept as snapshots
plus the replay of the lane since).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from railbird.detectors.state import TtlState
from railbird.ingest.kafka.codec import from_micros, micros

# How long a hand may stay in play (`HandWatch.hand_ttl`'s default) and how long a player's
# tournament is remembered after it last changed (`planning_chat.TOURNAMENT_TTL`).
HAND_TTL = timedelta(hours=3)
TOURNAMENT_TTL = timedelta(hours=12)


class PlayerView:
    def __init__(self, hand_ttl: timedelta = HAND_TTL) -> None:
        self.hand_ttl = hand_ttl
        self._hands = TtlState()  # (player,) -> (table id, hand id)
        self._tournaments = TtlState()  # (player,) -> tournament id

    def advance(self, now: datetime) -> None:
        self._hands.advance(now)
        self._tournaments.advance(now)

    def dealt(self, player: str, table_id: str, hand_id: str) -> None:
        self._hands.put((player,), (table_id, hand_id), self.hand_ttl)

    def seen_in(self, player: str, tournament_id: str) -> None:
        """As the tournament detectors remember it: kept from when it last changed."""
        key = (player,)
        if self._tournaments.get(key) != tournament_id:
            self._tournaments.put(key, tournament_id, TOURNAMENT_TTL)

    def hand_table(self, player: str) -> str | None:
        found: tuple[str, str] | None = self._hands.get((player,))
        return None if found is None else found[0]

    def tournament(self, player: str) -> str | None:
        found: str | None = self._tournaments.get((player,))
        return found

    def __len__(self) -> int:
        return len(self._hands) + len(self._tournaments)

    def state(self) -> dict[str, Any]:
        """JSON-ready: times as µs."""
        return {
            "now": micros(self._hands.now),
            "hands": [[k[0], micros(e), list(v)] for k, e, v in self._hands.live_entries()],
            "tournaments": [[k[0], micros(e), v] for k, e, v in self._tournaments.live_entries()],
        }

    def load(self, saved: dict[str, Any]) -> None:
        self._hands = TtlState()
        self._tournaments = TtlState()
        self.advance(from_micros(int(saved["now"])))
        self._hands.load(
            ((str(p),), from_micros(int(e)), (str(v[0]), str(v[1]))) for p, e, v in saved["hands"]
        )
        self._tournaments.load(
            ((str(p),), from_micros(int(e)), str(v)) for p, e, v in saved["tournaments"]
        )
