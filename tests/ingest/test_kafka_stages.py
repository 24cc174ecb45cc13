"""How `railbird run` splits the detectors into its two stages, and labels their metrics."""

from __future__ import annotations

import multiprocessing
from collections import Counter
from typing import ClassVar

import pytest

from railbird.detectors.detector import detector_scope
from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.registry import DETECTOR_TYPES, build_detectors
from railbird.detectors.state import State
from railbird.ingest.kafka.internals import has_joined
from railbird.ingest.kafka.metrics import WorkerMetrics, render_metrics
from railbird.ingest.kafka.site_process import RemoteMetrics
from railbird.ingest.kafka.stages import chosen_stages, stage_detectors


def test_the_site_stage_runs_exactly_the_detectors_whose_state_spans_tables() -> None:
    detectors = build_detectors()
    site = {d.name for d in stage_detectors(detectors, "site")}
    tables = {d.name for d in stage_detectors(detectors, "tables")}
    assert site == {"coordinated_sit_out", "bounty_collusion", "in_hand_private", "lobby_waves"}
    assert tables == {t.name for t in DETECTOR_TYPES} - site  # every detector in one stage


class _Odd:
    name: ClassVar[str] = "odd"
    scope: ClassVar[str] = "galaxy"

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        return []


def test_an_unknown_scope_is_refused() -> None:
    with pytest.raises(ValueError, match="galaxy"):
        detector_scope(_Odd())


@pytest.mark.parametrize(
    ("choice", "stages"),
    [
        ("all", ("tables", "site", "escalation")),
        ("tables", ("tables",)),
        ("site", ("site",)),
        ("escalation", ("escalation",)),
    ],
)
def test_stage_choice(choice: str, stages: tuple[str, ...]) -> None:
    assert chosen_stages(choice) == stages


def test_an_unknown_stage_is_refused() -> None:
    with pytest.raises(ValueError, match="tables, site, escalation or all"):
        chosen_stages("everything")


class _Coordinator:
    def __init__(self, stable: object) -> None:
        self.stable = stable

    def generation_if_stable(self) -> object:
        return self.stable


class _Consumer:
    def __init__(self, stable: object) -> None:
        self._coordinator = _Coordinator(stable)


def test_joined_means_a_stable_generation() -> None:
    assert has_joined(_Consumer(object()))
    assert not has_joined(_Consumer(None))  # still joining
    assert not has_joined(object())  # not a kafka-python consumer: never claims it


def _after_one_batch(
    stage: str, topic: str, records: int, *, flags: int, lag: dict[tuple[str, int], int | None]
) -> WorkerMetrics:
    metrics = WorkerMetrics(stage)
    metrics.batch_done(
        records=Counter({topic: records}),
        replayed=Counter(),
        dead_letters=Counter(),
        flags=flags,
        actions=1,
        seconds=0.01,
        lag=lag,
        buffered=0,
        detector_errors=Counter(),
        store_set_aside=2,
    )
    return metrics


def test_metrics_carry_the_stage_label_and_one_type_line_per_metric() -> None:
    tables = _after_one_batch("tables", "chat", 7, flags=2, lag={("chat", 0): 3, ("chat", 1): None})
    site = WorkerMetrics("site")
    text = render_metrics([tables, site])
    lines = text.splitlines()
    assert 'railbird_kafka_records_total{stage="tables",topic="chat"} 7' in lines
    assert 'railbird_kafka_consumer_lag{stage="tables",topic="chat",partition="0"} 3' in lines
    lag_lines = [line for line in lines if line.startswith("railbird_kafka_consumer_lag")]
    assert not any('partition="1"' in line for line in lag_lines)  # unknown lag: no NaN
    assert 'railbird_kafka_assigned_partition{stage="tables",topic="chat",partition="1"} 1' in lines
    assert "# HELP railbird_kafka_consumer_lag Records behind the partition's end" in text
    assert 'railbird_kafka_flags_total{stage="site"} 0' in lines
    assert 'railbird_kafka_store_set_aside_total{stage="tables"} 2' in lines
    assert "2 set aside by the store" in tables.summary()
    assert lines.count("# TYPE railbird_kafka_flags_total counter") == 1
    # A worker without a stage renders as before: no label.
    assert "railbird_kafka_flags_total 0" in WorkerMetrics().render().splitlines()


def test_a_child_stages_metrics_render_from_the_snapshot_it_sent_through_a_pipe() -> None:
    """The site stage runs in a child process (`ingest.kafka.site_process`); its samples cross a
    real pipe (pickled, as the child sends them) and render like a local stage's."""
    site = _after_one_batch("site", "hand", 4, flags=1, lag={("hand", 2): 0})
    remote = RemoteMetrics("site")
    assert render_metrics([remote]).strip() == ""  # nothing sent yet: no samples, no error
    parent_end, child_end = multiprocessing.Pipe()
    child_end.send(site.samples())
    remote.update(parent_end.recv())
    tables = WorkerMetrics("tables")

    def steady(text: str) -> list[str]:  # uptime moves between two renderings
        return [line for line in text.splitlines() if "uptime_seconds{" not in line]

    assert steady(render_metrics([tables, remote])) == steady(render_metrics([tables, site]))
    assert 'railbird_kafka_records_total{stage="site",topic="hand"} 4' in render_metrics([remote])


@pytest.mark.parametrize(
    ("attempts", "says"),
    [
        ([True, True], "2 commits"),
        ([False, True, False, True], "2 commits (2 failed attempts, each retried; the last"),
        ([True, False], "1 commits (1 failed attempts; the last one failed too"),
    ],
)
def test_the_summary_says_whether_failed_commits_were_made_good(
    attempts: list[bool], says: str
) -> None:
    metrics = WorkerMetrics()
    for ok in attempts:
        metrics.note(commit=ok, commit_failure=not ok)
    summary = metrics.summary()
    assert says in summary, summary
    assert ("failed" in summary) == (not all(attempts))
