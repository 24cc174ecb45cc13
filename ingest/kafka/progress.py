"""What a worker remembers per partition: how far it got, and what to replay after a takeover.

Replay marks: every commit carries, in its metadata, the offset from which `replay_window` of
event time precedes the committed offset. A worker that takes the partition over seeks there and
re-runs those records through the pipeline with their outputs discarded (they were stored and
produced before that commit), so per-table detector state is rebuilt instead of starting empty.
Marks are kept one per `mark_spacing(window)` of event time (a second for the table stage's
half hour, 16 s for the site stage's 8 h: at most ~1,800 a partition), so memory stays small on
a busy partition; a replay starts at most that much earlier than it needs to.

The routing index maps the routing keys detector state is keyed by (table, or player for
table-less chat; tournament for tournament-wide state) to the partitions they arrived on, so a
worker can drop exactly the state of partitions it gave up.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from railbird.detectors.events import AnyEvent, ChatEvent

REPLAY_PREFIX = "replay="
SNAPSHOT_PREFIX = "snapshot="
FROM_PREFIX = "from="
_MARK_EVERY = timedelta(seconds=1)
_MAX_MARKS = 1800


def mark_spacing(window: timedelta) -> timedelta:
    """Replay marks' spacing for a replay window: a second, or coarser for long windows."""
    return max(_MARK_EVERY, window / _MAX_MARKS)


@dataclass
class PartitionProgress:
    processed: int | None = None  # next offset to process
    fetched: int | None = None  # next offset the consumer will hand us
    replay_until: int = -1  # offsets below this are replayed with outputs discarded
    marks: deque[tuple[datetime, int]] = field(default_factory=deque)
    mark_every: timedelta = _MARK_EVERY
    # The newest snapshot of this partition's state (`kafka.snapshots`) and the offset it
    # covers up to: named in every commit from then on.
    snapshot: tuple[str, int] | None = None
    last_time: datetime | None = None  # event time of the last record processed

    def mark(self, when: datetime, offset: int) -> None:
        self.last_time = when
        if not self.marks or when - self.marks[-1][0] >= self.mark_every:
            self.marks.append((when, offset))

    def replay_from(self, cutoff: datetime) -> int | None:
        """The first offset whose event time may be at or after `cutoff` (at most `mark_every`
        early).

        Records after a mark and before the next one are less than `mark_every` younger than
        it, so a mark that much before `cutoff` and everything up to the next mark can go.
        """
        marks = self.marks
        every = self.mark_every
        while marks and marks[0][0] + every <= cutoff:
            marks.popleft()
        return marks[0][1] if marks else self.processed

    def commit_metadata(self, cutoff: datetime | None) -> str:
        replay = self.replay_from(cutoff) if cutoff is not None else None
        text = f"{REPLAY_PREFIX}{replay}" if replay is not None else ""
        if self.snapshot is not None:
            sid, covered = self.snapshot
            text += f";{SNAPSHOT_PREFIX}{sid};{FROM_PREFIX}{covered}"
        return text


@dataclass(frozen=True, slots=True)
class ResumePlan:
    """What a commit's metadata says about resuming a partition: the window replay's start,
    and the snapshot to restore with the offset it covers up to (replay from there)."""

    replay: int | None = None
    snapshot_id: str | None = None
    snapshot_from: int | None = None


def parse_resume(metadata: str | None) -> ResumePlan:
    fields: dict[str, str] = {}
    for part in (metadata or "").split(";"):
        name, sep, value = part.partition("=")
        if sep:
            fields[name + sep] = value
    replay = _int(fields.get(REPLAY_PREFIX))
    covered = _int(fields.get(FROM_PREFIX))
    sid = fields.get(SNAPSHOT_PREFIX) or None
    if sid is None or covered is None:
        return ResumePlan(replay)
    return ResumePlan(replay, sid, covered)


def parse_replay(metadata: str | None) -> int | None:
    return parse_resume(metadata).replay


def _int(text: str | None) -> int | None:
    try:
        return None if text is None else int(text)
    except ValueError:
        return None


class RoutingIndex:
    def __init__(self) -> None:
        self._keys: dict[Hashable, int] = {}  # table / player -> partition
        self._tournaments: dict[str, set[int]] = {}  # tournament -> partitions it was seen on

    def note(self, event: AnyEvent, partition: int) -> None:
        key = event.table_id or (event.player_id if isinstance(event, ChatEvent) else None)
        if key is not None:
            self._keys[key] = partition
        if event.tournament_id is not None:
            seen_on = self._tournaments.get(event.tournament_id)
            if seen_on is None:
                self._tournaments[event.tournament_id] = {partition}
            else:
                seen_on.add(partition)

    def adopt(self, keys: Iterable[Hashable], partition: int) -> None:
        """Route `keys` to `partition` (a restored snapshot's tables, before any event of
        theirs arrives), so the next snapshot keeps them and losing the partition drops them."""
        for key in keys:
            self._keys.setdefault(key, partition)

    def on_partition(self, partition: int) -> set[Hashable]:
        """The routing keys last seen on `partition` (its tables and table-less players)."""
        return {k for k, p in self._keys.items() if p == partition}

    def release(self, partitions: set[int]) -> set[Hashable]:
        """Forget and return the routing keys of `partitions`; a tournament goes only when
        none of its partitions is left here (other tables of it may still be ours)."""
        keys: set[Hashable] = {k for k, p in self._keys.items() if p in partitions}
        for key in keys:
            del self._keys[key]
        for tournament, seen_on in list(self._tournaments.items()):
            seen_on -= partitions
            if not seen_on:
                keys.add(tournament)
                del self._tournaments[tournament]
        return keys
