"""A reloaded policy's detector settings in a running pipeline: the next event is judged by
them, with what each detector remembers unless a setting that shaped its memory changed."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import ClassVar

import pytest

from railbird.detectors.detector import Detector
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import State
from railbird.rules.detector_settings import detectors_for
from railbird.rules.pipeline import Pipeline
from railbird.rules.policy_file import parse_policy
from tests.builders import chat


@dataclass(frozen=True, slots=True)
class Tally:
    """Counts a player's messages in `unit`s: its memory means nothing under another unit."""

    name: ClassVar[str] = "tally"
    state_reset_by: ClassVar[frozenset[str]] = frozenset({"unit"})
    unit: int = 1
    label: str = "a"

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        assert isinstance(event, ChatEvent)
        state.put(event.player_id, state.get(event.player_id, 0) + self.unit, timedelta(hours=1))
        return []


def _flood_limit(limit: int) -> list[Detector]:
    body = f'version = "v{limit}"\n[detectors.chat_flood]\nmax_messages = {{ table = {limit} }}\n'
    return detectors_for(parse_policy(body, "test").detectors, only={"chat_flood"})


def test_a_lower_limit_applies_to_the_next_message_with_the_window_kept() -> None:
    pipeline = Pipeline(_flood_limit(3))
    said = [pipeline.detect(chat(f"hello {n}", t=n, player="p-7")) or [] for n in range(2)]
    assert said == [[], []]
    assert pipeline.reconfigure(_flood_limit(2)) == []
    third = pipeline.detect(chat("hello 2", t=2, player="p-7")) or []
    # Three messages in the window kept across the reload, over the new limit of 2.
    assert [f.category for f in third] == ["spam"]
    assert "limit 2" in third[0].evidence.summary


def test_memory_starts_over_only_when_a_setting_that_shaped_it_changed() -> None:
    pipeline = Pipeline([Tally()])
    pipeline.detect(chat("one", player="p-1"))
    assert pipeline.reconfigure([Tally(label="b")]) == []
    assert pipeline.states["tally"].get("p-1") == 1  # kept: the label shaped nothing
    assert pipeline.reconfigure([Tally(unit=10, label="b")]) == ["tally"]
    assert pipeline.states["tally"].get("p-1") is None
    pipeline.detect(chat("two", player="p-1"))
    assert pipeline.states["tally"].get("p-1") == 10


def test_adding_or_removing_a_detector_is_a_restart_not_a_reload() -> None:
    pipeline = Pipeline([Tally()])
    with pytest.raises(ValueError, match="reconfigure needs the same detectors"):
        pipeline.reconfigure(_flood_limit(2))
