"""Kafka memory benchmark (`make bench-kafka-rss`): resident memory of each stage of one
`railbird run` worker over a stream of a million events and more, to see it level off once the
state windows are full.

The stream: the simulator's day (`bench.kafka_runs.TRAFFIC`, ~61,000 events over 3 h) repeated
`--rounds` times, each round later by the day's length and with its own tables, tournaments,
hands and message ids (new tournaments and cash sessions, as a real site's day follows the
last), the same players. It is produced before the worker starts; the worker (every stage,
its SQLite store) is sampled every `--every` seconds: the resident set of the table stage's
process (which runs the escalation stage on a thread), of the keyed stage's process and of the
store writer, against the input records processed. The broker is started for the run (its
memory is not counted). Results go to var/benchmarks-kafka-rss.md unless `--out` names another.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from bench.kafka_runs import REPO, TRAFFIC, mixed_traffic, produce, settings_for, start_worker
from bench.machine import describe_machine, write_report
from railbird.rules.flags import format_ts
from tests.integration.kafka_broker import start_broker
from tests.integration.net import free_port, scrape_metrics
from tests.integration.procs import descendants

_TIMES = ("ts", "started_at", "ended_at")
_IDS = ("event_id", "message_id", "hand_id", "table_id", "tournament_id")


def _shift(event: dict[str, Any], by: timedelta, tag: str) -> dict[str, Any]:
    out = dict(event)
    for name in _TIMES:
        if isinstance(out.get(name), str):
            out[name] = format_ts(_when(out[name]) + by)
    for name in _IDS:
        if isinstance(out.get(name), str):
            out[name] = f"{out[name]}{tag}"
    if isinstance(out.get("actions"), list):
        out["actions"] = [
            {**a, "ts": format_ts(_when(a["ts"]) + by)} if a.get("ts") else a
            for a in out["actions"]
        ]
    return out


def _when(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def long_stream(events: list[dict[str, Any]], rounds: int) -> list[bytes]:
    first = _when(events[0]["ts"] if "ts" in events[0] else events[0]["ended_at"])
    last = max(_when(e.get("ts") or e["ended_at"]) for e in events)
    span = last - first + timedelta(minutes=30)
    return [
        orjson.dumps(_shift(e, span * k, f"-r{k}" if k else ""))
        for k in range(rounds)
        for e in events
    ]


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def processes(worker: int, log: Path) -> dict[str, int]:
    """The worker's stage processes: its own (table + escalation stages), the keyed stage's
    child (named in the log) and the store writer (the other spawned child)."""
    found = {"tables+escalation": worker}
    keyed = re.findall(r"keyed stage runs in process (\d+)", log.read_text(errors="replace"))
    if keyed:
        found["keyed"] = int(keyed[0])
    for pid in descendants(worker):
        if str(pid) not in keyed and rss_mib(pid) > 40 and pid not in found.values():
            found.setdefault("store", pid)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=17, help="days (17 x ~61,000 > 1 M)")
    parser.add_argument("--every", type=float, default=15.0, help="seconds between samples")
    parser.add_argument("--out", type=Path, default=REPO / "var" / "benchmarks-kafka-rss.md")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    samples: list[tuple[float, float, dict[str, float]]] = []  # (s, records, rss by stage)
    with tempfile.TemporaryDirectory(prefix="kafka-rss-") as tmp:
        work = Path(tmp)
        day = mixed_traffic(work, TRAFFIC)
        lines = long_stream(day.events, args.rounds)
        count = len(lines)
        print(f"stream: {count:,} events ({args.rounds} rounds of {len(day.events):,})", flush=True)
        broker = start_broker(work / "broker", jvm_opts="")
        try:
            settings = settings_for(broker.bootstrap, f"rss{os.getpid()}")
            produced = produce(settings, lines)
            del lines
            print(f"produced at {produced:,.0f} records/s", flush=True)
            port = free_port()
            worker = start_worker(settings, work, port, "--exit-when-idle", "5", verbose=True)
            log = work / "worker.log"
            started = time.perf_counter()
            while worker.poll() is None:
                time.sleep(args.every)
                records = sum(
                    v
                    for k, v in scrape_metrics(port).items()
                    if k.startswith("railbird_kafka_records_total{")
                    and 'stage="tables"' in k
                    and any(f'topic="{t}"' in k for t in settings.input_topics)
                )
                rss = {name: rss_mib(pid) for name, pid in processes(worker.pid, log).items()}
                samples.append((time.perf_counter() - started, records, rss))
                print(
                    f"{records:>10,.0f} records: "
                    + ", ".join(f"{k} {v:,.0f} MiB" for k, v in rss.items()),
                    flush=True,
                )
                if time.perf_counter() - started > 4 * 3600:
                    worker.send_signal(signal.SIGTERM)
            worker.wait(120)
        finally:
            broker.stop()
    command = "make bench-kafka-rss  (python -m bench.kafka_rss " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    report = render(command, count, samples, began)
    write_report(args.out, report)
    print(report)
    return 0


def render(
    command: str, count: int, samples: list[tuple[float, float, dict[str, float]]], began: float
) -> str:
    code = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    stages = sorted({k for _, _, rss in samples for k in rss})
    # One row per tenth of the stream (the sample nearest each step).
    rows: list[str] = []
    for tenth in range(1, 11):
        target = count * tenth / 10
        near = min(samples, key=lambda s: abs(s[1] - target), default=None)
        if near is None:
            continue
        cells = " | ".join(f"{near[2].get(k, 0):,.0f}" for k in stages)
        rows.append(f"| {near[1]:,.0f} | {near[0] / 60:.1f} | {cells} |")
    head = " | ".join(stages)
    return f"""# Kafka memory over a long stream

Command: `{command.strip()})`, {(time.perf_counter() - began) / 60:.0f} minutes, on commit {code}
Machine: {describe_machine()}
Run: {datetime.now().astimezone():%Y-%m-%d %H:%M %Z}; one `railbird run` worker (every stage,
SQLite store), 6 partitions per topic, {count:,} events produced before it started.

Resident memory (MiB) of each stage's process, at each tenth of the stream:

| input records processed | minutes | {head} |
|---|---|{"---|" * len(stages)}
{chr(10).join(rows)}
"""


if __name__ == "__main__":
    raise SystemExit(main())
