"""Flags a refusal to play: joining a cash table, playing a hand or more and leaving before ten.

The house rule ("Cash tables: leaving after a hand") exists because a player who wins a pot and
leaves at once ("hit and run") takes chips off a table without giving them a chance back. It is
a rule, not a suspicion: each finding is certain given the events, so its score is 1.0 and its
severity low; the sanction (a block from joining tables of the same blind level) is the rules'
ladder, counted per player and blind level over 12 hours (`rules.policy`).

Not a refusal, per the rule: leaving when every other seated player is sitting out, or when
alone; any session at a Rush & Cash or All-In or Fold table; any tournament table. A player
already seated when railbird started watching the table has an unknown hand count and is never
flagged: a refusal must be proved, not assumed.

State is one record per cash table (its seated players' sessions, blind level and format),
keyed by table id like the topics, so a Kafka worker owning a table's partition sees all of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar

from pydantic import PositiveInt

from railbird.detectors.events import AnyEvent, HandEvent, TableEvent
from railbird.detectors.findings import Evidence, Finding
from railbird.detectors.state import State

EXCLUDED_FORMATS = frozenset({"rush_and_cash", "all_in_or_fold"})
UNKNOWN_LEVEL = "unknown"


def blind_level(small_blind: int | None, big_blind: int | None) -> str:
    """The blind level as the rules count it ("50/100"); "unknown" before the table says."""
    if not big_blind:
        return UNKNOWN_LEVEL
    return f"{small_blind or 0}/{big_blind}"


@dataclass(slots=True)
class SeatSession:
    """One player's stay at one table, from their `join` to their `leave`."""

    join_event_id: str | None  # None: seated before railbird saw the table
    joined_at: datetime | None
    hands: int | None = 0  # hands dealt in since the join; None: unknown (seated before)
    sitting_out: bool = False


@dataclass(slots=True)
class CashTable:
    seats: dict[str, SeatSession] = field(default_factory=dict)
    small_blind: int | None = None
    big_blind: int | None = None
    table_format: str = "ring"


@dataclass(frozen=True, slots=True)
class LeaveRefusal:
    name: ClassVar[str] = "leave_refusal"
    consumes: ClassVar[frozenset[str]] = frozenset({"table", "hand"})
    # The house rule's number, the operator's to set in [detectors.leave_refusal].
    operator_settings: ClassVar[tuple[str, ...]] = ("min_hands",)
    min_hands: PositiveInt = 10  # leaving after fewer than this (and at least one) is a refusal
    table_ttl: timedelta = timedelta(hours=12)  # an idle table's seats are forgotten after

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if event.tournament_id is not None:
            return []
        key = (event.table_id, "cash_table")
        table: CashTable = state.get(key) or CashTable()
        findings: list[Finding] = []
        if isinstance(event, HandEvent):
            if event.big_blind:  # the table's latest hand says its level
                table.small_blind, table.big_blind = event.small_blind, event.big_blind
        elif isinstance(event, TableEvent):
            found = self._table_event(event, table)
            if found is not None:
                findings.append(found)
        state.put(key, table, self.table_ttl)
        return findings

    def _table_event(self, event: TableEvent, table: CashTable) -> Finding | None:
        if event.big_blind:
            table.small_blind, table.big_blind = event.small_blind, event.big_blind
        if event.table_format is not None:
            table.table_format = event.table_format
        action, pid = event.action, event.player_id
        if action == "hand_start":
            for dealt in event.players or ():
                seat = table.seats.get(dealt)
                if seat is None:
                    table.seats[dealt] = SeatSession(None, None, None)
                    continue
                seat.sitting_out = False
                if seat.hands is not None:
                    seat.hands += 1
            return None
        if pid is None:
            return None
        if action == "join":
            table.seats[pid] = SeatSession(event.event_id, event.ts)
        elif action in ("sit_out", "sit_in"):
            seat = table.seats.setdefault(pid, SeatSession(None, None, None))
            seat.sitting_out = action == "sit_out"
        elif action == "leave":
            session = table.seats.pop(pid, None)
            if session is not None:
                return self._judge(event, pid, session, table)
        return None

    def _judge(
        self, event: TableEvent, pid: str, session: SeatSession, table: CashTable
    ) -> Finding | None:
        hands = session.hands
        if hands is None or not 1 <= hands < self.min_hands:
            return None
        if table.table_format in EXCLUDED_FORMATS:
            return None
        others = len(table.seats)
        sitting_out = sum(1 for s in table.seats.values() if s.sitting_out)
        if others == 0 or sitting_out == others:
            return None  # alone, or every other player sitting out: the rule's exceptions
        level = blind_level(table.small_blind, table.big_blind)
        joined = session.joined_at
        minutes = None if joined is None else (event.ts - joined).total_seconds() / 60
        stay = "" if minutes is None else f" after {minutes:.0f} min"
        summary = (
            f"{pid} left cash table {event.table_id} ({level}) after {hands} hand"
            f"{'s' if hands != 1 else ''}{stay}, fewer than {self.min_hands}, with {others} other "
            f"player{'s' if others != 1 else ''} seated ({others - sitting_out} playing)"
        )
        join_ids = () if session.join_event_id is None else (session.join_event_id,)
        return Finding(
            detector=self.name,
            category="refusal_to_play",
            severity="low",
            score=1.0,
            ts=event.ts,
            player_ids=(pid,),
            table_id=event.table_id,
            dedupe_key=event.event_id,
            evidence=Evidence(
                kind="refusal_to_play",
                summary=summary,
                event_ids=(*join_ids, event.event_id),
                measures={
                    "hands_played": hands,
                    "min_hands": self.min_hands,
                    "blind_level": level,
                    "small_blind": table.small_blind,
                    "big_blind": table.big_blind,
                    "table_format": table.table_format,
                    "joined_at": None if joined is None else joined.isoformat(),
                    "left_at": event.ts.isoformat(),
                    "others_seated": others,
                    "others_sitting_out": sitting_out,
                },
            ),
        )
