"""The one interface every mode writes through: `scan`, the demo's live feed, the Kafka worker.

Records are added as the pipeline processes them and made durable by `flush`, which a
checkpoint calls before anything that depends on them is committed: store first, then the
produced records, then the offsets (Quix Streams' sinks are flushed by its checkpoint the same
way). `flush` returns a ticket and `durable` the highest ticket whose write, and every earlier
one, is safe, so a sink that writes in the background (the Kafka worker's store process) and
one that writes at once (`scan`'s) look alike to their callers. Every write is an upsert keyed
by the deterministic ids, so a replay after a crash changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from railbird.rules.actions import Action
from railbird.rules.flags import Flag

EventRecord = TypeVar("EventRecord", contravariant=True)


class Sink(Protocol[EventRecord]):
    """Where processed records go; `EventRecord` is what the caller has of an event (a decoded
    event, or the Kafka worker's (event type, raw record) pair)."""

    def add(
        self, events: Sequence[EventRecord], flags: Sequence[Flag], actions: Sequence[Action]
    ) -> None:
        """Take what one batch produced; nothing is durable before the next `flush`."""
        ...

    def add_dead_letter(self, source: str, position: str, reason: str, raw: str | None) -> None:
        """A record that could not be processed, with where it came from and why (`raw`
        already redacted); made durable by the same `flush` as the records before it."""
        ...

    set_aside: int  # records the store refused and dead-lettered, so far

    @property
    def pending(self) -> int:
        """Events added since the last flush: the caller flushes when this is large enough."""
        ...

    def flush(self) -> int:
        """Start writing everything added so far; returns the ticket that write will reach."""
        ...

    def durable(self) -> int:
        """The highest ticket whose write, and every earlier one, is durable; never blocks."""
        ...

    def wait(self, ticket: int | None = None) -> None:
        """Block until `ticket` (default: everything flushed) is durable."""
        ...
