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
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

log = logging.getLogger(__name__)

TopicPartition = tuple[str, int]


class WorkerMetrics:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.records: Counter[str] = Counter()  # consumed and processed, by topic
        self.replayed: Counter[str] = Counter()  # re-read to rebuild state, outputs discarded
        self.dead_letters: Counter[str] = Counter()
        self.flags = 0
        self.actions = 0
        self.batches = 0
        self.commits = 0
        self.commit_failures = 0
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

    def note(
        self, *, commit: bool = False, commit_failure: bool = False, rebalance: bool = False
    ) -> None:
        with self._lock:
            self.commits += commit
            self.commit_failures += commit_failure
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
            "kafka worker: %d records (%.0f/s), lag %d, %d flags, %d dead letters, %d replayed",
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
                f"{self.rebalances} rebalances, {self.commits} commits "
                f"({self.commit_failures} failed)"
            )

    def render(self) -> str:
        """The Prometheus text exposition format (version 0.0.4)."""
        with self._lock:
            lines = [
                "# TYPE railbird_kafka_records_total counter",
                *(
                    f'railbird_kafka_records_total{{topic="{t}"}} {n}'
                    for t, n in sorted(self.records.items())
                ),
                "# TYPE railbird_kafka_replayed_records_total counter",
                *(
                    f'railbird_kafka_replayed_records_total{{topic="{t}"}} {n}'
                    for t, n in sorted(self.replayed.items())
                ),
                "# TYPE railbird_kafka_dead_letters_total counter",
                *(
                    f'railbird_kafka_dead_letters_total{{topic="{t}"}} {n}'
                    for t, n in sorted(self.dead_letters.items())
                ),
                "# TYPE railbird_kafka_consumer_lag gauge",
                *(
                    f'railbird_kafka_consumer_lag{{topic="{t}",partition="{p}"}} '
                    f"{'NaN' if n is None else n}"
                    for (t, p), n in sorted(self.lag.items())
                ),
                "# TYPE railbird_kafka_detector_errors_total counter",
                *(
                    f'railbird_kafka_detector_errors_total{{detector="{d}"}} {n}'
                    for d, n in sorted(self.detector_errors.items())
                ),
                "# TYPE railbird_kafka_flags_total counter",
                f"railbird_kafka_flags_total {self.flags}",
                "# TYPE railbird_kafka_actions_total counter",
                f"railbird_kafka_actions_total {self.actions}",
                "# TYPE railbird_kafka_batches_total counter",
                f"railbird_kafka_batches_total {self.batches}",
                "# TYPE railbird_kafka_commits_total counter",
                f"railbird_kafka_commits_total {self.commits}",
                "# TYPE railbird_kafka_commit_failures_total counter",
                f"railbird_kafka_commit_failures_total {self.commit_failures}",
                "# TYPE railbird_kafka_rebalances_total counter",
                f"railbird_kafka_rebalances_total {self.rebalances}",
                "# TYPE railbird_kafka_buffered_records gauge",
                f"railbird_kafka_buffered_records {self.buffered}",
                "# TYPE railbird_kafka_last_batch_seconds gauge",
                f"railbird_kafka_last_batch_seconds {self.last_batch_seconds:.6f}",
                "# TYPE railbird_kafka_uptime_seconds gauge",
                f"railbird_kafka_uptime_seconds {time.monotonic() - self.started:.3f}",
            ]
        return "\n".join(lines) + "\n"


def serve_metrics(metrics: WorkerMetrics, host: str, port: int) -> ThreadingHTTPServer:
    """Start `/metrics` on a daemon thread; the caller shuts the server down."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path.split("?")[0] != "/metrics":
                self.send_error(404)
                return
            body = metrics.render().encode()
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
