"""Orders a lane of re-keyed records, sent by many sources, into the order of `scan`'s stream.

A partition of an internal topic (`kafka.topology`) interleaves what several sources sent
(each input partition's table-stage task, each players task) however the network pleased. Each
source sends its records in sort-key order and, from time to time, a *mark*: "nothing more
from me before T". So a record can be processed once every source's mark has passed its event
time: nothing that sorts before it can still come. Records are then released in sort-key order,
which is the order in which `scan` reads the same events (event time, then the file's line):
the detectors downstream see their keys' events exactly as `scan` shows them.

Everything here is a function of the partition's records in offset order (no clock, no
arrival timing), so a task restored from a snapshot and fed the same records again releases
the same records in the same order; `progress` (the last key released) says which of them a
restart has already processed.

Copies re-sent after a crash (a source replays from its last commit) are dropped: a source
sends the records of one origin (its input partition and topic) in offset order, so a record
whose origin offset (and copy) is not past the last one seen from that source and origin was
seen before.

A source that has said nothing holds the lane (`HOLD`: also a mark a source may send to take
its promises back); one whose input has ended sends `END`. A record that arrives after its
source's mark passed it (the source broke its promise: an upstream merge that gave up waiting)
is still released, next, and counted in `late`.
"""

from __future__ import annotations

import base64
import heapq
from collections.abc import Iterable
from typing import Any

from railbird.ingest.kafka.codec import END, HOLD, SortKey


class Held:
    """A record waiting in a lane: its role, value and key as they came and, once known, its
    decoded form (not kept in a snapshot: decoded again)."""

    __slots__ = ("decoded", "key", "role", "value")

    def __init__(self, role: str, value: bytes, decoded: Any = None, key: bytes = b"") -> None:
        self.role = role
        self.value = value
        self.decoded = decoded
        self.key = key


Released = tuple[SortKey, str, Held]  # key, source, record


class LaneMerge:
    def __init__(self, sources: Iterable[str]) -> None:
        self.sources = frozenset(sources)
        if not self.sources:
            raise ValueError("a lane needs at least one source")
        self.marks: dict[str, int] = {}
        self._heap: list[tuple[SortKey, str, Held]] = []
        # (source, origin partition, origin topic rank) -> (origin offset, copy) last seen
        self._newest: dict[tuple[str, int, int], tuple[int, int]] = {}
        self.progress: SortKey | None = None  # the last key released
        self.late = 0

    @property
    def watermark(self) -> int:
        """Records whose event time (µs) is below this can all be here: the sources' oldest
        mark, `HOLD` while one has said nothing."""
        marks = self.marks
        if len(marks) < len(self.sources):
            return HOLD
        return min(marks.values())

    @property
    def settled(self) -> int:
        """Everything before this (µs) has been released: the watermark, or the oldest record
        still waiting if a `limit` held it back. What this lane may promise downstream."""
        heap = self._heap
        watermark = self.watermark
        if heap and heap[0][0][0] < watermark:
            return heap[0][0][0]
        return watermark

    @property
    def waiting(self) -> int:
        return len(self._heap)

    @property
    def complete(self) -> bool:
        """Every source has ended and nothing waits."""
        return not self._heap and self.watermark == END

    def add(self, source: str, key: SortKey, record: Held) -> bool:
        """Take a record; False if its source is not one of this lane's or it is a copy
        already seen."""
        if source not in self.sources:
            return False
        origin = (source, key[3], key[2])
        place = (key[4], key[5])
        seen = self._newest.get(origin)
        if seen is not None and place <= seen:
            return False
        self._newest[origin] = place
        heapq.heappush(self._heap, (key, source, record))
        return True

    def mark(self, source: str, until: int) -> None:
        """A source's mark; it never moves back, except to `HOLD` (the source starts over)."""
        if source not in self.sources:
            return
        previous = self.marks.get(source)
        if until == HOLD or previous is None or previous == HOLD or until > previous:
            self.marks[source] = until

    def release(self, limit: int | None = None) -> list[Released]:
        """The records every source's mark has passed, in sort-key order (at most `limit`)."""
        heap = self._heap
        if not heap:
            return []
        watermark = self.watermark
        out: list[Released] = []
        progress = self.progress
        while heap and (
            heap[0][0][0] < watermark or (progress is not None and heap[0][0] <= progress)
        ):
            if limit is not None and len(out) >= limit:
                break
            key, source, record = heapq.heappop(heap)
            if progress is not None and key < progress:
                self.late += 1
            else:
                progress = key
            out.append((key, source, record))
        self.progress = progress
        return out

    # ---- checkpointed state ----------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """Everything this lane holds, as JSON-ready data (for a task's snapshot)."""
        return {
            "marks": dict(self.marks),
            "waiting": [
                [list(key), source, record.role, _b64(record.value), _b64(record.key)]
                for key, source, record in sorted(self._heap, key=lambda item: item[0])
            ],
            "newest": [[list(o), list(p)] for o, p in sorted(self._newest.items())],
            "progress": None if self.progress is None else list(self.progress),
            "late": self.late,
        }

    def load(self, saved: dict[str, Any]) -> None:
        """Replace this lane's memory with what `state` returned."""
        self.marks = {str(source): int(until) for source, until in saved["marks"].items()}
        self._heap = [
            (_key(key), str(source), Held(str(role), _bytes(value), None, _bytes(routing)))
            for key, source, role, value, routing in saved["waiting"]
        ]
        heapq.heapify(self._heap)
        self._newest = {
            (str(o[0]), int(o[1]), int(o[2])): (int(p[0]), int(p[1])) for o, p in saved["newest"]
        }
        self.progress = None if saved["progress"] is None else _key(saved["progress"])
        self.late = int(saved["late"])


def _key(values: list[Any]) -> SortKey:
    time, seq, rank, partition, offset, copy = (int(v) for v in values)
    return (time, seq, rank, partition, offset, copy)


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _bytes(text: str) -> bytes:
    return base64.b64decode(text)
