"""What a commit says about resuming its task, in the commit's metadata (one string per
partition, the same for every partition of a task).

- `snapshot=<id>`: the task's newest state snapshot (`kafka.snapshots`) when the offsets were
  committed. A new owner restores it, reads each partition again from the offset the snapshot
  covers, and processes what lies before the committed offset with its outputs discarded
  (they were produced before that commit).
- `lanes=<lane>@<key>,...`: for a task whose lanes order records from many sources
  (`kafka.lane_merge`), the last sort key each lane had released: a released record at or
  before it was processed before the commit, whatever offset it came at.
- `done=1`: the task had nothing left to do (its input ended, every lane drained): when every
  partition of a deployment says so at its end offset, `--exit-when-idle` members may exit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from railbird.ingest.kafka.codec import SortKey

SNAPSHOT = "snapshot="
LANES = "lanes="
DONE = "done=1"


@dataclass(frozen=True)
class ResumeNote:
    snapshot_id: str | None = None
    lanes: dict[str, SortKey] = field(default_factory=dict)
    done: bool = False

    def format(self) -> str:
        parts = []
        if self.snapshot_id:
            parts.append(f"{SNAPSHOT}{self.snapshot_id}")
        if self.lanes:
            lanes = ",".join(
                f"{lane}@{'.'.join(map(str, key))}" for lane, key in sorted(self.lanes.items())
            )
            parts.append(f"{LANES}{lanes}")
        if self.done:
            parts.append(DONE)
        return ";".join(parts)


def parse_note(metadata: str | None) -> ResumeNote:
    """What `ResumeNote.format` wrote; anything unreadable is left out (an older worker's
    metadata, a hand-made commit), never an error."""
    snapshot_id: str | None = None
    lanes: dict[str, SortKey] = {}
    done = False
    for part in (metadata or "").split(";"):
        if part.startswith(SNAPSHOT):
            snapshot_id = part.removeprefix(SNAPSHOT) or None
        elif part.startswith(LANES):
            for item in part.removeprefix(LANES).split(","):
                lane, _, text = item.partition("@")
                key = _key(text)
                if lane and key is not None:
                    lanes[lane] = key
        elif part == DONE:
            done = True
    return ResumeNote(snapshot_id, lanes, done)


def _key(text: str) -> SortKey | None:
    try:
        values = [int(v) for v in text.split(".")]
    except ValueError:
        return None
    if len(values) != 6:
        return None
    return (values[0], values[1], values[2], values[3], values[4], values[5])
