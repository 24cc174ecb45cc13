"""The one pipeline: deterministic flag ids, failing detectors isolated, repeats suppressed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.chat.profanity import Profanity
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.detectors.state import State
from railbird.rules.pipeline import Pipeline
from tests.builders import chat


@dataclass(frozen=True, slots=True)
class Exploding:
    name: ClassVar[str] = "exploding"

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        raise RuntimeError("bug in a detector")


@dataclass(frozen=True, slots=True)
class Escalating:
    """Finds the same thing on every message, with the severity the text names."""

    name: ClassVar[str] = "escalating"

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        assert isinstance(event, ChatEvent)
        severity: Severity = event.text  # type: ignore[assignment]
        return [
            Finding(
                detector=self.name,
                category="spam",
                severity=severity,
                score=0.5,
                ts=event.ts,
                player_ids=(event.player_id,),
                evidence=Evidence(kind="test", summary="same finding"),
                dedupe_key="burst-1",
            )
        ]


def test_failing_detector_is_counted_and_others_still_run() -> None:
    pipeline = Pipeline([Exploding(), Profanity()])
    outcome = pipeline.process(chat("shit", t=1))
    assert [f.category for f in outcome.flags] == ["profanity"]
    assert pipeline.metrics.detector_errors["exploding"] == 1


def test_same_input_gives_same_flag_ids() -> None:
    events = [chat("fuck this", t=1, message_id="m-a"), chat("shit", t=2, message_id="m-b")]
    ids = [
        [f.flag_id for e in events for f in Pipeline([Profanity()]).process(e).flags]
        for _ in range(2)
    ]
    assert ids[0] == ids[1] and len(set(ids[0])) == 2


def test_a_refound_flag_is_re_emitted_only_when_severity_rises() -> None:
    pipeline = Pipeline([Escalating()])
    emitted = [
        [f.severity for f in pipeline.process(chat(sev, t=i)).flags]
        for i, sev in enumerate(["low", "low", "high", "medium", "critical"])
    ]
    assert emitted == [["low"], [], ["high"], [], ["critical"]]


def test_flags_pass_through_the_rules() -> None:
    pipeline = Pipeline([Profanity()])
    kinds = [
        [a.kind for a in pipeline.process(chat("shit", t=i, player="p-9")).actions]
        for i in range(3)
    ]
    assert kinds == [["warn"], ["mute_chat"], ["mute_chat"]]
