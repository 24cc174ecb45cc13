"""What is keyed how: the lanes of `railbird run`, which detectors each runs, and where each
input event is sent again under another key.

The input topics are keyed by table (table-less chat by its sender), co-partitioned, so a
detector keyed by table (`detectors.detector.keying`) reads them as they are: the *table stage*
(consumer group `<group>`, partitions shared by every worker). Every other keying gets its own
lane, fed through an internal topic re-keyed by what the lane's state is about, as Kafka
Streams' repartition topics are:

- *tournament* (key: tournament id; keyed stage): every event that names a tournament, and chat
  that names none under its sender's tournament (the players lane's join);
- *text* (key: the text's fingerprint, digits dropped; keyed stage): chat away from the tables
  (lobby, tournament, private);
- *players* (key: player id; keyed stage): who is dealt into each hand and who joins a
  tournament's table (the view, `kafka.player_view`); chat that names no tournament, and every
  chat message if a detector is keyed by player (its sender's copy: read by those detectors,
  and joined to the sender's tournament); private messages (their recipient's copy);
- *hand* (key: table id; table stage): a table's events, hands and chat (from the table stage's
  own input), and private messages joined to the table of their recipient's hand, through
  `<group>-hands`.

The tournament, text and players lanes share the internal topic `<group>-keyed` (consumer
group `<group>-keyed`, partitions shared by every worker); `<group>-hands` is co-partitioned
with the inputs, so a table's private messages meet its hands in the table stage's task of
that table. Each lane orders its records as `scan`'s stream (`kafka.lane_merge`), so whatever
the number of workers and whoever owns what, every detector sees its keys' events in `scan`'s
order. Detectors never learn any of this: they declare what their state is about.

A keyed task processes only the events of its keys, so its pipeline's state is its own: each
task (one partition number) has its own pipelines, snapshotted, restored and dropped whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import orjson
from kafka.partitioner import murmur2

from railbird.detectors.detector import Detector, Keying, keying
from railbird.detectors.events import AnyEvent, ChatEvent, TableEvent
from railbird.detectors.text.fingerprint import fingerprint, strip_digits

TOURNAMENT = "t"
TEXT = "x"
PLAYERS = "p"
HAND = "h"
LANE_NAMES = {TOURNAMENT: "tournament", TEXT: "text", PLAYERS: "players", HAND: "hand"}

# Roles of the players lane's records.
DEALT = "dealt"  # value: {"table", "hand", "tournament"}; key: a player dealt into the hand
JOINED = "joined"  # value: {"tournament"}; key: a player joining a tournament's table
SENDER = "sender"  # value: a chat event; key: its sender
RECIPIENT = "recipient"  # value: a private message; key: its recipient

# The copy number of each record one event is sent as (unique per lane and partition, so a
# re-sent copy can be told from another record: `kafka.lane_merge`).
_COPY_SENDER, _COPY_RECIPIENT, _COPY_JOINED, _COPY_DEALT = 1, 2, 3, 16


def table_source(partition: int) -> str:
    """The source name of an input partition's table-stage task."""
    return f"tables:{partition}"


def players_source(partition: int) -> str:
    """The source name of a keyed partition's players task (it forwards joined messages)."""
    return f"players:{partition}"


def keyed_source(partition: int) -> str:
    """The source name of a keyed partition's task towards the escalation stage."""
    return f"keyed:{partition}"


def partition_for(key: bytes, partitions: int) -> int:
    """The partition a key lands on: kafka-python's default partitioner's arithmetic, so a
    table id re-keyed here lands where the producer of the inputs put its events."""
    hashed: int = murmur2(key)
    return (hashed & 0x7FFFFFFF) % partitions


class KeyPartitionMemo(dict[bytes, int]):
    """`partition_for` remembered per key (the router's keys recur: players, tournaments, a
    wave's text; murmur2 in pure Python is a real share of routing a record). One partition
    count per memo; past `MAX_KEYS` it starts over."""

    MAX_KEYS = 1 << 16

    def choose(self, key: bytes, partitions: int) -> int:
        if len(self) >= self.MAX_KEYS:
            self.clear()
        found = self[key] = partition_for(key, partitions)
        return found


def text_key(text: str) -> str:
    """The key of a line in the text lane: its fingerprint without digits, as bot waves
    compare lines (numbered copies of one line share it)."""
    fp, _length = fingerprint(text)
    return fp if fp.isalpha() else strip_digits(fp)


@dataclass(frozen=True)
class Routed:
    """One record the table stage sends for an input event."""

    lane: str
    key: bytes
    copy: int
    role: str = ""
    value: bytes | None = None  # None: the event's own bytes


@dataclass(frozen=True)
class Topology:
    """The detectors of each lane and the partition counts, for every stage alike (every
    process of a deployment computes the same one from the same settings)."""

    table: tuple[Detector, ...]
    hand: tuple[Detector, ...]
    tournament: tuple[Detector, ...]
    text: tuple[Detector, ...]
    player: tuple[Detector, ...]
    inputs: int  # partitions of each input topic (and of `<group>-hands`)
    keyed: int  # partitions of `<group>-keyed`
    bare: bool = False  # no detector at all: the table stage still runs (its own overhead)
    _routes_players: bool = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_routes_players", bool(self.tournament or self.hand or self.player)
        )

    @classmethod
    def of(cls, detectors: Sequence[Detector], inputs: int, keyed: int = 0) -> Topology:
        by: dict[Keying, list[Detector]] = {
            "table": [],
            "hand": [],
            "tournament": [],
            "text": [],
            "player": [],
        }
        for detector in detectors:
            by[keying(detector)].append(detector)
        return cls(
            tuple(by["table"]),
            tuple(by["hand"]),
            tuple(by["tournament"]),
            tuple(by["text"]),
            tuple(by["player"]),
            inputs,
            keyed or inputs,
            bare=not detectors,
        )

    # ---- which stages and lanes run ---------------------------------------------------------

    @property
    def table_stage(self) -> bool:
        return bool(self.table or self.hand or self.bare)

    @property
    def keyed_stage(self) -> bool:
        return bool(self.tournament or self.text or self.hand or self.player)

    @property
    def keyed_lanes(self) -> tuple[str, ...]:
        """The lanes of `<group>-keyed` that run."""
        lanes = []
        if self.tournament:
            lanes.append(TOURNAMENT)
        if self.text:
            lanes.append(TEXT)
        if self._routes_players:
            lanes.append(PLAYERS)
        return tuple(lanes)

    def table_sources(self) -> list[str]:
        return [table_source(p) for p in range(self.inputs)]

    def players_sources(self) -> list[str]:
        return [players_source(k) for k in range(self.keyed)]

    def lane_sources(self, lane: str) -> list[str]:
        """Who sends a lane its records and marks."""
        if lane == TOURNAMENT:
            return self.table_sources() + self.players_sources()
        if lane == HAND:
            return ["self", *self.players_sources()]
        return self.table_sources()

    def escalation_sources(self) -> list[str]:
        """Every source of offences: each input partition's table-stage task, and each keyed
        partition's task if the keyed stage flags anything."""
        sources = self.table_sources() if (self.table or self.hand or self.bare) else []
        if self.tournament or self.text or self.player:
            sources += [keyed_source(k) for k in range(self.keyed)]
        return sources

    # ---- where an input event goes ----------------------------------------------------------

    def routes(self, event: AnyEvent) -> list[Routed]:
        """The re-keyed records the table stage sends for `event` (most events: none or one)."""
        out: list[Routed] = []
        tournament = event.tournament_id
        if self.tournament and tournament is not None:
            out.append(Routed(TOURNAMENT, tournament.encode(), 0))
        if isinstance(event, ChatEvent):
            if self.text and not event.table_id and event.text and event.kind != "snapcam":
                out.append(Routed(TEXT, text_key(event.text).encode(), 0))
            if self.player or (self.tournament and tournament is None):
                out.append(Routed(PLAYERS, event.player_id.encode(), _COPY_SENDER, SENDER))
            if self.hand and event.channel == "private" and event.recipient_id:
                recipient = event.recipient_id.encode()
                out.append(Routed(PLAYERS, recipient, _COPY_RECIPIENT, RECIPIENT))
        elif isinstance(event, TableEvent) and self._routes_players:
            if event.action == "hand_start" and event.hand_id and event.players:
                seat = orjson.dumps(
                    {"table": event.table_id, "hand": event.hand_id, "tournament": tournament}
                )  # the player is each record's key
                out.extend(
                    Routed(PLAYERS, player.encode(), _COPY_DEALT + n, DEALT, seat)
                    for n, player in enumerate(event.players)
                )
            elif (
                self.tournament
                and event.action == "join"
                and tournament is not None
                and event.player_id
            ):
                value = orjson.dumps({"tournament": tournament})
                out.append(Routed(PLAYERS, event.player_id.encode(), _COPY_JOINED, JOINED, value))
        return out

    def reaches_hand(self, event: AnyEvent) -> bool:
        """Whether the hand lane reads `event` from the table stage's own input: a table's
        events, hands and chat (private messages come joined, through `<group>-hands`)."""
        return bool(self.hand) and (not isinstance(event, ChatEvent) or bool(event.table_id))
