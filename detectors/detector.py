"""The one shape every detector has, so the pipeline can run them all the same way."""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

from detectors.events import AnyEvent
from detectors.findings import Finding
from detectors.state import State


@runtime_checkable
class Detector(Protocol):
    """Pure: reads and updates its own `state`, returns findings. Never does I/O."""

    name: ClassVar[str]

    def detect(self, event: AnyEvent, state: State) -> list[Finding]: ...
