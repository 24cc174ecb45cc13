"""One escalation ladder per player for a whole deployment, decided in event time.

Why a stage of its own: flags come from several places (each table-stage worker, the site
stage), but a player's strikes must be counted on one ladder, in the order `scan` would count
them, or a player `scan` suspends at strike 3 is only warned. The workers send each flag's
offence (one per player it names) to a topic keyed by player, so all of one player's offences
meet on one partition, whoever produced them; the escalation member owning that partition
decides them there.

Order. Offences from different producers arrive interleaved however the network pleases. Each
carries the event time of the event that raised it (`at`) and its place among that event's
outcomes; each producer also sends every partition a *mark* per input source it owns ("no more
offences raised before T from table partition 3", "... from the site stage") once everything it
sent before is acknowledged. An offence is decided once every source's mark has passed its
`at`, in (`at`, event, place) order: the order in which `scan`, which reads one merged stream,
decides them. A source that has said nothing yet holds everything; one that ends (the stream
is done) sends `END`. An offence that arrives after its source's mark passed it (a record the
upstream merge had to process out of order) is decided at once and counted in `late`.

Duplicates: an upstream worker that crashes before its commit re-sends what it had sent; an
offence already seen (same flag, player and severity or worse) is dropped.

Everything here is a deterministic function of one partition's records in offset order, so a
restart that restores a snapshot and replays the records after it (`ingest.kafka.escalation`)
resumes exactly.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from railbird.detectors import state_codec
from railbird.detectors.findings import SEVERITY_RANK
from railbird.detectors.state import TtlState
from railbird.rules.actions import Action
from railbird.rules.policy import Offence, RuleBook

END = datetime.max.replace(tzinfo=UTC)  # a source's mark once it has nothing more to send
HOLD = datetime.min.replace(tzinfo=UTC)  # a source that has (re)started: hold until it says
# How long an offence's (flag, player, severity) is remembered to drop re-sent copies: as long
# as the pipeline remembers an emitted flag (`rules.pipeline.EMITTED_MEMORY`).
SEEN_MEMORY = timedelta(days=2)

Place = tuple[str, str, int]  # the raising event's type and id, the flag's place among its flags


def place_of(event_type: str, event_id: str, detector: str, index: int) -> Place:
    """Where an offence stands among the flags one event raised, as `scan` orders them: by the
    detector's place in the registry (the pipeline runs them in that order), then by its place
    among that detector's flags. Not by its place in one stage's outcome: two stages raising
    flags on one event would then both count from 0."""
    return (event_type, event_id, detector_rank(detector) * 1000 + index)


def detector_rank(detector: str) -> int:
    from railbird.detectors.registry import DETECTOR_TYPES  # the registry builds on rules

    ranks = {t.name: n for n, t in enumerate(DETECTOR_TYPES)}
    return ranks.get(detector, len(ranks))


@dataclass(frozen=True, slots=True)
class Raised:
    """An offence with where it was raised: the event time and place that order it."""

    offence: Offence
    at: datetime
    place: Place


class Escalation:
    """The ladder of the players of one partition of the offences topic.

    `sources` are the names of every input that sends marks (`tables:<n>` per input partition,
    `site`); nothing is decided while one of them has not sent a mark.
    """

    def __init__(self, sources: Iterable[str], rulebook: RuleBook | None = None) -> None:
        self.sources = frozenset(sources)
        if not self.sources:
            raise ValueError("an escalation needs at least one source of marks")
        self.rulebook = rulebook if rulebook is not None else RuleBook()
        self.marks: dict[str, datetime] = {}
        self._waiting: list[tuple[datetime, Place, str, int, Raised]] = []
        self._count = 0
        self._seen = TtlState()
        self.late = 0  # offences that arrived after their source's mark had passed them

    @property
    def watermark(self) -> datetime:
        """Offences raised before this are all here: the oldest of the sources' marks."""
        marks = self.marks
        if len(marks) < len(self.sources):
            return HOLD
        return min(marks[s] for s in self.sources)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def complete(self) -> bool:
        """Every source has ended and nothing waits: this partition is done for now."""
        return not self._waiting and self.watermark == END

    def offer(self, raised: Raised) -> list[Action]:
        """Take one offence; returns the actions decided now (none while it must wait)."""
        offence = raised.offence
        seen = self._seen
        seen.advance(offence.ts)
        key = (offence.flag_id, offence.player_id)
        rank = SEVERITY_RANK.get(offence.severity, 0)
        previous = seen.get(key)
        if previous is not None and previous >= rank:
            return []
        seen.put(key, rank, SEEN_MEMORY)
        if raised.at < self.watermark:
            self.late += 1
            return self.rulebook.decide_for(offence)
        self._count += 1
        entry = (raised.at, raised.place, offence.player_id, self._count, raised)
        heapq.heappush(self._waiting, entry)
        return []

    def mark(self, source: str, until: datetime) -> list[Action]:
        """A source's new mark (a later one, or `HOLD` from a source starting over, whose next
        marks count from scratch); returns the actions it lets through."""
        if source not in self.sources:
            return []
        previous = self.marks.get(source)
        if until == HOLD or previous is None or until > previous or previous == HOLD:
            self.marks[source] = until
        # else: a mark never moves back (a record its source processed out of order is
        # counted late when its offence comes), except to HOLD: a source starting over.
        return self._release()

    def _release(self) -> list[Action]:
        watermark = self.watermark
        waiting = self._waiting
        decide = self.rulebook.decide_for
        actions: list[Action] = []
        while waiting and waiting[0][0] < watermark:
            actions.extend(decide(heapq.heappop(waiting)[4].offence))
        return actions

    # ---- checkpointed state ------------------------------------------------------------------

    def snapshot(self) -> bytes:
        """Everything this ladder remembers, as bytes (`state_codec`, no pickle)."""
        return state_codec.encode(
            {
                "marks": dict(self.marks),
                "waiting": [_raised_to_plain(e[4]) for e in sorted(self._waiting)],
                "seen_clock": self._seen.now,
                "seen": self._seen.live_entries(),
                "strikes_clock": self.rulebook.strikes.now,
                "strikes": self.rulebook.strikes.live_entries(),
                "late": self.late,
            }
        )

    def restore(self, data: bytes) -> None:
        """Replace this ladder's memory with a `snapshot`'s (decoded whole first: one that
        cannot be read changes nothing)."""
        saved = state_codec.decode(data)
        waiting = [_raised_from_plain(item) for item in saved["waiting"]]
        self.marks = {str(k): v for k, v in saved["marks"].items()}
        self._waiting = []
        self._count = 0
        for raised in waiting:
            self._count += 1
            entry = (raised.at, raised.place, raised.offence.player_id, self._count, raised)
            heapq.heappush(self._waiting, entry)
        self._seen = TtlState()
        self._seen.advance(saved["seen_clock"])
        self._seen.load(saved["seen"])
        strikes = self.rulebook.strikes
        strikes.drop_where(lambda _key: True)
        strikes.advance(saved["strikes_clock"])
        strikes.load(saved["strikes"])
        self.late = int(saved["late"])


def _raised_to_plain(raised: Raised) -> dict[str, Any]:
    o = raised.offence
    return {
        "flag_id": o.flag_id,
        "category": o.category,
        "severity": o.severity,
        "ts": o.ts,
        "player_id": o.player_id,
        "medium": o.medium,
        "level": o.level,
        "at": raised.at,
        "place": list(raised.place),
    }


def _raised_from_plain(item: dict[str, Any]) -> Raised:
    offence = Offence(
        item["flag_id"],
        item["category"],
        item["severity"],
        item["ts"],
        item["player_id"],
        str(item.get("medium", "text")),
        None if item.get("level") is None else str(item["level"]),
    )
    kind, event_id, index = item["place"]
    return Raised(offence, item["at"], (str(kind), str(event_id), int(index)))
