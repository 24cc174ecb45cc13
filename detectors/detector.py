"""The one shape every detector has, so the pipeline can run them all the same way."""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

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


# Where a detector's state lives. "table": every key routes by table (or by the sender of a
# table-less message), so a Kafka worker owning a table's partition sees all it needs.
# "site": state spans tables (keyed by tournament, or by a player who may sit anywhere), so the
# detector must see the whole stream; on Kafka it runs in the single-owner site stage.
SCOPES: frozenset[str] = frozenset({"table", "site"})


def detector_scope(detector: Detector | type[Detector]) -> str:
    """`detector`'s declared `scope` ("table" when it declares none)."""
    declared = getattr(detector, "scope", "table")
    if declared not in SCOPES:
        raise ValueError(f"detector {detector.name} declares unknown scope {declared!r}")
    return str(declared)
