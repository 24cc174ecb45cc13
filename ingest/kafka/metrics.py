"""What an operator watches on a worker: throughput, lag and what each stage owns, as a log line
and Prometheus `/metrics` (prometheus-client, the API's library and registry style).

Each stage counts in plain Python, once a batch, under a lock (a prometheus-client counter per
record would cost a lock per increment on the hot path); a collector turns the counts into
metric families when a scrape asks, every sample labelled with its `stage`. A stage running in
a child process (`kafka.stage_process`) sends its families to the parent as plain data, so the
parent's `/metrics` shows every stage of the worker. Names (all `railbird_kafka_*`) are those
the hand-written exposition had, plus `late_records_total`.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Protocol
from wsgiref.simple_server import WSGIServer

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

PREFIX = "railbird_kafka_"
# (name without prefix, "counter" | "gauge", help, label names, [(label values, value)]):
# plain data, so a stage in another process can send it over a pipe.
Sample = tuple[list[str], float]
Family = tuple[str, str, str, list[str], list[Sample]]

HELP = {
    "records": "Records consumed and processed, by topic.",
    "replayed_records": "Records re-read to rebuild state, their outputs discarded.",
    "dead_letters": "Records sent to the dead-letter topic (or skipped as unreadable), by topic.",
    "late_records": "Re-keyed records that arrived after their source's mark had passed them.",
    "store_set_aside": "Valid records the store refused, kept in its dead-letter table.",
    "consumer_lag": "Records behind the partition's end (absent until first known).",
    "assigned_partition": "1 for each partition this stage owns now.",
    "detector_errors": "Events a detector raised on (skipped for that detector).",
    "flags": "Flags produced.",
    "actions": "Actions produced.",
    "batches": "Batches processed.",
    "commits": "Successful offset commits.",
    "commit_failures": "Failed offset commit attempts (retried at the next checkpoint).",
    "rebalances": "Consumer group rebalances seen.",
    "buffered_records": "Records fetched and waiting to be ordered (merges and lanes).",
    "last_batch_seconds": "Time the last batch took to process.",
    "uptime_seconds": "Seconds since the stage started.",
}


class StageFamilies(Protocol):
    """What `/metrics` renders for a stage: its families (local, or sent by a child)."""

    def families(self) -> list[Family]: ...


class StageMetrics:
    def __init__(self, stage: str) -> None:
        self.stage = stage  # a label on every sample, and the log line's prefix
        self._lock = threading.Lock()
        self.records: Counter[str] = Counter()
        self.replayed: Counter[str] = Counter()
        self.dead_letters: Counter[str] = Counter()
        self.late = 0
        self.store_set_aside = 0
        self.flags = 0
        self.actions = 0
        self.batches = 0
        self.commits = 0
        self.commit_failures = 0
        self.last_commit_ok = True
        self.rebalances = 0
        self.detector_errors: Counter[str] = Counter()
        self.lag: dict[tuple[str, int], int | None] = {}  # every owned partition; None: unknown
        self.buffered = 0
        self.last_batch_seconds = 0.0
        self.started = time.monotonic()
        self._last_log = self.started
        self._last_log_records = 0

    def batch_done(
        self,
        *,
        records: Counter[str],
        replayed: Counter[str],
        dead_letters: Counter[str],
        flags: int,
        actions: int,
        late: int,
        seconds: float,
        lag: dict[tuple[str, int], int | None],
        buffered: int,
        detector_errors: Counter[str],
        store_set_aside: int,
    ) -> None:
        with self._lock:
            self.records.update(records)
            self.replayed.update(replayed)
            self.dead_letters.update(dead_letters)
            self.flags += flags
            self.actions += actions
            self.late = late
            self.batches += 1
            self.last_batch_seconds = seconds
            self.lag = dict(lag)
            self.buffered = buffered
            self.detector_errors = Counter(detector_errors)
            self.store_set_aside = store_set_aside

    def commits_seen(self, commits: int, failures: int, last_ok: bool) -> None:
        with self._lock:
            self.commits, self.commit_failures, self.last_commit_ok = commits, failures, last_ok

    def rebalanced(self) -> None:
        with self._lock:
            self.rebalances += 1

    def families(self) -> list[Family]:
        with self._lock:
            lag = sorted(self.lag.items())
            return [
                ("records", "counter", HELP["records"], ["topic"], _by(self.records)),
                (
                    "replayed_records",
                    "counter",
                    HELP["replayed_records"],
                    ["topic"],
                    _by(self.replayed),
                ),
                (
                    "dead_letters",
                    "counter",
                    HELP["dead_letters"],
                    ["topic"],
                    _by(self.dead_letters),
                ),
                ("late_records", "counter", HELP["late_records"], [], [([], self.late)]),
                (
                    "store_set_aside",
                    "counter",
                    HELP["store_set_aside"],
                    [],
                    [([], self.store_set_aside)],
                ),
                (
                    "consumer_lag",
                    "gauge",
                    HELP["consumer_lag"],
                    ["topic", "partition"],
                    [([t, str(p)], n) for (t, p), n in lag if n is not None],
                ),
                (
                    "assigned_partition",
                    "gauge",
                    HELP["assigned_partition"],
                    ["topic", "partition"],
                    [([t, str(p)], 1) for (t, p), _ in lag],
                ),
                (
                    "detector_errors",
                    "counter",
                    HELP["detector_errors"],
                    ["detector"],
                    _by(self.detector_errors),
                ),
                ("flags", "counter", HELP["flags"], [], [([], self.flags)]),
                ("actions", "counter", HELP["actions"], [], [([], self.actions)]),
                ("batches", "counter", HELP["batches"], [], [([], self.batches)]),
                ("commits", "counter", HELP["commits"], [], [([], self.commits)]),
                (
                    "commit_failures",
                    "counter",
                    HELP["commit_failures"],
                    [],
                    [([], self.commit_failures)],
                ),
                ("rebalances", "counter", HELP["rebalances"], [], [([], self.rebalances)]),
                ("buffered_records", "gauge", HELP["buffered_records"], [], [([], self.buffered)]),
                (
                    "last_batch_seconds",
                    "gauge",
                    HELP["last_batch_seconds"],
                    [],
                    [([], round(self.last_batch_seconds, 6))],
                ),
                (
                    "uptime_seconds",
                    "gauge",
                    HELP["uptime_seconds"],
                    [],
                    [([], round(time.monotonic() - self.started, 3))],
                ),
            ]

    def total_lag(self) -> int:
        with self._lock:
            return sum(v for v in self.lag.values() if v is not None)

    def maybe_log(self, interval: float) -> None:
        now = time.monotonic()
        if now - self._last_log < interval:
            return
        with self._lock:
            records = sum(self.records.values())
            rate = (records - self._last_log_records) / (now - self._last_log)
            lag = sum(v for v in self.lag.values() if v is not None)
            flags, dead = self.flags, sum(self.dead_letters.values())
            replayed = sum(self.replayed.values())
        self._last_log, self._last_log_records = now, records
        log.info(
            "%s stage: %d records (%.0f/s), lag %d, %d flags, %d dead letters, %d replayed",
            self.stage,
            records,
            rate,
            lag,
            flags,
            dead,
            replayed,
        )

    def summary(self) -> str:
        with self._lock:
            records = sum(self.records.values())
            seconds = max(time.monotonic() - self.started, 1e-9)
            failed = _failed_commits(self.commit_failures, self.last_commit_ok)
            return (
                f"{records} records in {seconds:.1f} s ({records / seconds:,.0f}/s), "
                f"{sum(self.replayed.values())} replayed, {self.flags} flags, "
                f"{self.actions} actions, {sum(self.dead_letters.values())} dead letters, "
                f"{self.store_set_aside} set aside by the store, {self.late} late, "
                f"{self.rebalances} rebalances, {self.commits} commits{failed}"
            )


def _by(counts: Counter[str]) -> list[Sample]:
    return [([key], n) for key, n in sorted(counts.items())]


class RemoteFamilies:
    """A child stage's latest families, read by the parent's `/metrics` like its own."""

    def __init__(self) -> None:
        self._families: list[Family] = []

    def families(self) -> list[Family]:
        return self._families  # replaced whole, never mutated: a reader sees one snapshot

    def update(self, families: list[Family]) -> None:
        self._families = families


class _StagesCollector(Collector):
    def __init__(self, stages: Sequence[tuple[str, StageFamilies]]) -> None:
        self.stages = stages

    def collect(self) -> Iterable[Metric]:
        merged: dict[str, CounterMetricFamily | GaugeMetricFamily] = {}
        for stage, source in self.stages:
            for name, kind, doc, labels, samples in source.families():
                family = merged.get(name)
                if family is None:
                    names = ["stage", *labels]
                    family = merged[name] = (
                        CounterMetricFamily(PREFIX + name, doc, labels=names)
                        if kind == "counter"
                        else GaugeMetricFamily(PREFIX + name, doc, labels=names)
                    )
                for values, value in samples:
                    family.add_metric([stage, *values], value)
        return list(merged.values())


def serve_metrics(stages: Sequence[tuple[str, StageFamilies]], host: str, port: int) -> WSGIServer:
    """Serve `/metrics` for `stages` ((stage name, families) pairs) on a daemon thread; the
    caller shuts the server down."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_StagesCollector(stages))
    server, _thread = start_http_server(port, addr=host, registry=registry)
    return server


def _failed_commits(failures: int, last_ok: bool) -> str:
    """A failed attempt is retried with the next checkpoint's offsets: say whether the offsets
    did get committed in the end, rather than a bare "(26 failed)" beside 26 commits."""
    if not failures:
        return ""
    if last_ok:
        return f" ({failures} failed attempts, each retried; the last commit succeeded)"
    return (
        f" ({failures} failed attempts; the last one failed too: records since the last "
        "successful commit will be read again)"
    )
