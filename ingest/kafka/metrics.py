"""What an operator watches on a worker: throughput and consumer lag, as a log line and /metrics.

A tiny `http.server` thread serves the Prometheus text format so the worker needs no web
framework (and `ingest/` does not reach into `api/`). Counters are updated once per batch under a
lock; the HTTP thread only ever reads a consistent snapshot.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Protocol

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]
# (metric, type, [(labels, value)]) for every metric of one stage: plain data, so a stage in
# another process (`ingest.kafka.site_process`) can send it over a pipe.
Samples = list[tuple[str, str, list[tuple[str, float | int | None]]]]


class StageSamples(Protocol):
    """What `/metrics` renders: a stage's name and its samples (local or sent by a child)."""

    @property
    def stage(self) -> str: ...

    def samples(self) -> Samples: ...


class WorkerMetrics:
    def __init__(self, stage: str = "") -> None:
        self.stage = stage  # a label on every sample, and the log line's prefix
        self._lock = threading.Lock()
        self.records: Counter[str] = Counter()  # consumed and processed, by topic
        self.replayed: Counter[str] = Counter()  # re-read to rebuild state, outputs discarded
        self.dead_letters: Counter[str] = Counter()
        self.store_set_aside = 0  # records the store process could not write, dead-lettered
        self.flags = 0
        self.actions = 0
        self.batches = 0
        self.commits = 0
        self.commit_failures = 0
        self.last_commit_ok = True  # whether the latest commit attempt succeeded
        self.rebalances = 0
        self.detector_errors: Counter[str] = Counter()
        self.lag: dict[TopicPartition, int | None] = {}  # None: not known yet
        self.buffered = 0
        self.last_batch_seconds = 0.0
        self.started = time.monotonic()
        self._last_log = self.started
        self._last_log_events = 0

    def batch_done(
        self,
        *,
        records: Counter[str],
        replayed: Counter[str],
        dead_letters: Counter[str],
        flags: int,
        actions: int,
        seconds: float,
        lag: dict[TopicPartition, int | None],
        buffered: int,
        detector_errors: Counter[str],
        store_set_aside: int = 0,
    ) -> None:
        with self._lock:
            self.records.update(records)
            self.replayed.update(replayed)
            self.dead_letters.update(dead_letters)
            self.flags += flags
            self.actions += actions
            self.batches += 1
            self.last_batch_seconds = seconds
            self.lag = dict(lag)
            self.buffered = buffered
            self.detector_errors = Counter(detector_errors)
            self.store_set_aside = store_set_aside

    def note(
        self, *, commit: bool = False, commit_failure: bool = False, rebalance: bool = False
    ) -> None:
        with self._lock:
            self.commits += commit
            self.commit_failures += commit_failure
            if commit or commit_failure:
                self.last_commit_ok = commit
            self.rebalances += rebalance

    def total_lag(self) -> int:
        with self._lock:
            return sum(v for v in self.lag.values() if v is not None)

    def maybe_log(self, interval: float) -> None:
        now = time.monotonic()
        if now - self._last_log < interval:
            return
        with self._lock:
            events = sum(self.records.values())
            rate = (events - self._last_log_events) / (now - self._last_log)
            lag = sum(v for v in self.lag.values() if v is not None)
            dlq = sum(self.dead_letters.values())
            flags, replayed = self.flags, sum(self.replayed.values())
        self._last_log, self._last_log_events = now, events
        log.info(
            "kafka worker%s: %d records (%.0f/s), lag %d, %d flags, %d dead letters, %d replayed",
            f" ({self.stage} stage)" if self.stage else "",
            events,
            rate,
            lag,
            flags,
            dlq,
            replayed,
        )

    def summary(self) -> str:
        with self._lock:
            events = sum(self.records.values())
            seconds = max(time.monotonic() - self.started, 1e-9)
            return (
                f"{events} records in {seconds:.1f} s ({events / seconds:,.0f}/s), "
                f"{sum(self.replayed.values())} replayed, {self.flags} flags, "
                f"{self.actions} actions, {sum(self.dead_letters.values())} dead letters, "
                f"{self.store_set_aside} set aside by the store, "
                f"{self.rebalances} rebalances, {self.commits} commits"
                + _failed_commits(self.commit_failures, self.last_commit_ok)
            )

    def samples(self) -> Samples:
        """(metric, type, [(labels, value)]) for every metric, read under the lock."""
        with self._lock:
            return [
                ("records_total", "counter", _by("topic", self.records)),
                ("replayed_records_total", "counter", _by("topic", self.replayed)),
                ("dead_letters_total", "counter", _by("topic", self.dead_letters)),
                ("store_set_aside_total", "counter", [("", self.store_set_aside)]),
                (
                    "consumer_lag",
                    "gauge",
                    [(f'topic="{t}",partition="{p}"', n) for (t, p), n in sorted(self.lag.items())],
                ),
                (
                    "assigned_partition",
                    "gauge",
                    [(f'topic="{t}",partition="{p}"', 1) for (t, p) in sorted(self.lag)],
                ),
                ("detector_errors_total", "counter", _by("detector", self.detector_errors)),
                ("flags_total", "counter", [("", self.flags)]),
                ("actions_total", "counter", [("", self.actions)]),
                ("batches_total", "counter", [("", self.batches)]),
                ("commits_total", "counter", [("", self.commits)]),
                ("commit_failures_total", "counter", [("", self.commit_failures)]),
                ("rebalances_total", "counter", [("", self.rebalances)]),
                ("buffered_records", "gauge", [("", self.buffered)]),
                ("last_batch_seconds", "gauge", [("", round(self.last_batch_seconds, 6))]),
                ("uptime_seconds", "gauge", [("", round(time.monotonic() - self.started, 3))]),
            ]

    def render(self) -> str:
        return render_metrics([self])


def _by(label: str, counts: Counter[str]) -> list[tuple[str, float | int | None]]:
    return [(f'{label}="{key}"', n) for key, n in sorted(counts.items())]


HELP = {
    "records_total": "Records consumed and processed, by input topic.",
    "replayed_records_total": "Records re-read to rebuild state, their outputs discarded.",
    "dead_letters_total": "Records sent to the dead-letter topic, by input topic.",
    "store_set_aside_total": "Valid records the store refused, kept in its dead-letter table.",
    "consumer_lag": "Records behind the partition's end (absent until first known).",
    "assigned_partition": "1 for each input partition this stage owns now.",
    "detector_errors_total": "Events a detector raised on (skipped for that detector).",
    "flags_total": "Flags produced.",
    "actions_total": "Actions produced.",
    "batches_total": "Batches processed.",
    "commits_total": "Successful offset commits.",
    "commit_failures_total": "Failed offset commit attempts (retried at the next checkpoint).",
    "rebalances_total": "Consumer group rebalances seen.",
    "buffered_records": "Records fetched and waiting in the event-time merge.",
    "last_batch_seconds": "Time the last batch took to process.",
    "uptime_seconds": "Seconds since the worker started.",
}


def render_metrics(stages: Sequence[StageSamples]) -> str:
    """The Prometheus text exposition format (version 0.0.4), every sample labelled with its
    stage when the worker has one (`railbird run` runs a tables and a site stage)."""
    families: dict[str, tuple[str, list[str]]] = {}
    for metrics in stages:
        stage = f'stage="{metrics.stage}"' if metrics.stage else ""
        for name, kind, samples in metrics.samples():
            lines = families.setdefault(name, (kind, []))[1]
            for labels, value in samples:
                joined = ",".join(x for x in (stage, labels) if x)
                if value is None:  # not known yet (a partition's lag before its first fetch)
                    continue
                lines.append(
                    f"railbird_kafka_{name}{{{joined}}} {value}"
                    if joined
                    else f"railbird_kafka_{name} {value}"
                )
    out: list[str] = []
    for name, (kind, lines) in families.items():
        out.append(f"# HELP railbird_kafka_{name} {HELP.get(name, name.replace('_', ' '))}")
        out.append(f"# TYPE railbird_kafka_{name} {kind}")
        out.extend(lines)
    return "\n".join(out) + "\n"


def serve_metrics(
    metrics: WorkerMetrics | Sequence[StageSamples], host: str, port: int
) -> ThreadingHTTPServer:
    """Start `/metrics` on a daemon thread; the caller shuts the server down."""
    stages = [metrics] if isinstance(metrics, WorkerMetrics) else list(metrics)

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.split("?")[0] != "/metrics":
                self.send_error(404)
                return
            body = render_metrics(stages).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            log.debug("metrics request: " + format, *args)  # noqa: G003

    server = ThreadingHTTPServer((host, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="metrics", daemon=True).start()
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
