"""`railbird scan`: a file of events through the pipeline, flags out as JSON Lines.

The same `Pipeline.process` the Kafka workers call; only the source and sinks differ.
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import IO

import orjson

from railbird.detectors.events import AnyEvent
from railbird.detectors.text.redaction import redact
from railbird.ingest.decode import RawRecord, Rejected, decode
from railbird.ingest.duplicates import DuplicateIds
from railbird.ingest.sink import Sink
from railbird.rules.pipeline import Pipeline


@dataclass
class ScanReport:
    events: int = 0
    rejected: int = 0
    set_aside: int = 0  # valid records the store refused (dead-lettered there)
    flags: int = 0
    actions: int = 0
    seconds: float = 0.0
    peak_rss_mib: float = 0.0
    flag_counts: dict[str, int] = field(default_factory=dict)

    @property
    def events_per_second(self) -> float:
        return self.events / self.seconds if self.seconds > 0 else 0.0

    def summary(self) -> str:
        cats = ", ".join(f"{k}={v}" for k, v in sorted(self.flag_counts.items())) or "none"
        return (
            f"{self.events} events ({self.rejected} rejected"
            + (f", {self.set_aside} set aside by the store" if self.set_aside else "")
            + f") in {self.seconds:.1f} s "
            f"= {self.events_per_second:,.0f} events/s; {self.flags} flags ({cats}); "
            f"{self.actions} actions; peak RSS {self.peak_rss_mib:.0f} MiB"
        )


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def scan_records(
    records: Iterable[RawRecord],
    pipeline: Pipeline,
    flags_out: IO[bytes] | None,
    *,
    on_reject: Callable[[Rejected], None],
    sink: Sink[AnyEvent] | None = None,
    actions_out: IO[bytes] | None = None,
    batch_size: int = 1000,
) -> ScanReport:
    """Decode, process and write every record: flags (and actions) as JSON Lines as they come,
    everything to `sink` flushed every `batch_size` events; a bad record goes to `on_reject`
    (and the sink's dead letters) and the scan goes on."""
    report = ScanReport()
    started = time.perf_counter()

    def reject(rejected: Rejected) -> None:
        report.rejected += 1
        on_reject(rejected)
        if sink is not None:
            raw = redact(rejected.record.data.decode("utf-8", "replace"))
            sink.add_dead_letter(
                rejected.record.source, rejected.record.position, rejected.reason, raw
            )

    duplicates = DuplicateIds()
    for record in records:
        event = decode(record)
        if isinstance(event, Rejected):
            reject(event)
            continue
        conflict = duplicates.conflict(event)
        if conflict is not None:
            reject(Rejected(record, conflict))
            continue
        report.events += 1
        outcome = pipeline.process(event)
        for flag in outcome.flags:
            report.flags += 1
            report.flag_counts[flag.category] = report.flag_counts.get(flag.category, 0) + 1
            if flags_out is not None:
                flags_out.write(orjson.dumps(flag.to_dict()) + b"\n")
        report.actions += len(outcome.actions)
        if actions_out is not None:
            for action in outcome.actions:
                actions_out.write(orjson.dumps(action.to_dict()) + b"\n")
        if sink is not None:
            sink.add((event,), outcome.flags, outcome.actions)
            if sink.pending >= batch_size:
                sink.flush()
    if sink is not None:
        sink.flush()
        report.set_aside = sink.set_aside
    report.seconds = time.perf_counter() - started
    report.peak_rss_mib = peak_rss_mib()
    return report
