"""The one shape every detector has, so the pipeline can run them all the same way."""

from __future__ import annotations

from typing import ClassVar, Literal, Protocol, get_args, runtime_checkable

from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import State

EVENT_TYPES: frozenset[str] = frozenset({"chat", "table", "hand"})


@runtime_checkable
class Detector(Protocol):
    """Pure: reads and updates its own `state`, returns findings. Never does I/O.

    A detector may also declare `consumes: ClassVar[frozenset[str]]`, the event types it
    reads ("chat", "table", "hand"); the pipeline then never calls it with the others, which
    is most of the chain's cost on a busy table. Without it a detector sees every event.

    And `keyed_by: ClassVar[Keying]`, what everything it remembers is about (`KEYINGS`); without
    it, "table".
    """

    name: ClassVar[str]

    def detect(self, event: AnyEvent, state: State) -> list[Finding]: ...


def consumed_types(detector: Detector) -> frozenset[str]:
    """The event types `detector` reads: its `consumes` declaration, or all of them."""
    declared = getattr(detector, "consumes", None)
    if declared is None:
        return EVENT_TYPES
    unknown = set(declared) - EVENT_TYPES
    if unknown:
        raise ValueError(f"detector {detector.name} consumes unknown event types {unknown}")
    return frozenset(declared)


# What a detector's memory is about, and so which events of a stream it must see together:
# a stream edge gives each key's events to one place, in event time, and a detector there sees
# only the events of its keys (`ingest.kafka.topology` says which events reach which key). A
# detector declares the one its state needs and never learns how keys map onto partitions.
# - "table": the contract's key: the event's table, or the sender of a message with no table
#   (every chat rule, floods and repeats, chip dumping, soft play, refusals to play).
# - "hand": the table whose hand an event can sway: a table's own events, hands and chat, and a
#   private message to a player dealt into a hand in play, at that player's table (in-hand
#   influence). Lobby and tournament chat reach no hand.
# - "tournament": the event's tournament; a message that names none goes to the tournament its
#   sender was last dealt into (or joined), if any. Cash tables' events reach none.
# - "text": the fingerprint of a message's text, for chat away from the tables (lobby,
#   tournament, private), so the copies of one bot wave meet whoever sent them.
# - "player": the sender of a chat message, whatever the channel and table (what one player
#   says anywhere: a flag per player, not per table). Table and hand events reach none.
Keying = Literal["table", "hand", "tournament", "text", "player"]
KEYINGS: tuple[Keying, ...] = get_args(Keying)


def keying(detector: Detector | type[Detector]) -> Keying:
    """`detector`'s declared `keyed_by` ("table" when it declares none).

    A detector that still declares the retired `scope = "site"` (state spanning tables) is
    read as keyed by tournament, the only such detectors being tournament-wide ones.
    """
    declared = getattr(detector, "keyed_by", None)
    if declared is None:
        declared = "tournament" if getattr(detector, "scope", None) == "site" else "table"
    for known in KEYINGS:
        if declared == known:
            return known
    raise ValueError(f"detector {detector.name} is keyed by unknown {declared!r}: {KEYINGS}")
