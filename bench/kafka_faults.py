"""Kafka fault harness (`make bench-kafka-faults`): a simulated 7-hour day through `railbird run`
on a broker of its own, stopped and killed mid-stream, compared row by row with
`railbird scan --store` on the same file.

1. the day: `railbird simulate` (five tournaments, seven cash tables, 7 h: ~100,000 events
   with every kind of injected violation), and `railbird scan EVENTS --store` into a fresh
   SQLite file: the reference;
2. run "sigterm": the day produced to its own topics, one worker, SIGTERM once 42 % of the input
   is committed, then a worker started again with `--exit-when-idle 10`;
3. run "kill-9": two workers, the first plain, the second a standby started with
   `--exit-when-idle 10`; the first killed with `kill -9` once 51 % of the input is committed;
   the second takes everything over.
Each run's store is compared with scan's: flags missing, extra, or changed (any column the
pipeline writes: category, detector, severity, score, time, table, tournament, hand, players,
messages, explanation, evidence) and actions that differ (kind, player, time, expiry, reason,
flags, actor, level). Every process must exit by itself (the killed one excepted), within the
timeout. Results go to var/benchmarks-kafka-faults.md unless `--out` names another file.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kafka import KafkaConsumer, TopicPartition
from sqlalchemy import select

from bench.kafka_runs import PARTITIONS, RAILBIRD, REPO, produce
from bench.machine import describe_machine, write_report
from railbird.sim.config import SimConfig
from railbird.sim.run import write_simulation
from railbird.store import schema
from railbird.store.database import make_engine
from tests.integration.kafka_broker import start_broker
from tests.integration.topics import prefixed_settings

DAY = SimConfig(seed=7, tournaments=5, cash_tables=7, hours=7.0)
FLAG_COLUMNS = (
    "category",
    "detector",
    "severity",
    "score",
    "ts",
    "table_id",
    "tournament_id",
    "hand_id",
    "player_ids",
    "message_ids",
    "explanation",
    "evidence",
)
ACTION_COLUMNS = (
    "kind",
    "player_id",
    "ts",
    "expires_at",
    "reason",
    "flag_ids",
    "actor",
    "scope",
)


def rows(db: Path, table: Any, key: str, columns: tuple[str, ...]) -> dict[str, tuple[Any, ...]]:
    engine = make_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            found = conn.execute(select(table)).mappings().all()
    finally:
        engine.dispose()
    return {
        r[key]: tuple(json.dumps(r[c], sort_keys=True, default=str) for c in columns) for r in found
    }


@dataclass
class Comparison:
    missing: list[str] = field(default_factory=list)
    extra: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    def line(self) -> str:
        return f"{len(self.missing)} / {len(self.extra)} / {len(self.changed)}"


def compare(got: dict[str, Any], want: dict[str, Any]) -> Comparison:
    return Comparison(
        sorted(set(want) - set(got)),
        sorted(set(got) - set(want)),
        sorted(k for k in set(got) & set(want) if got[k] != want[k]),
    )


@dataclass
class Run:
    name: str
    flags: Comparison
    actions: Comparison
    exits: list[str]  # each process: how it ended
    seconds: float
    fault_at: float  # share of the input committed when the fault came


class Deployment:
    """One run's topics, group, store and worker processes."""

    def __init__(self, bootstrap: str, workdir: Path, name: str) -> None:
        self.workdir = workdir
        self.db = workdir / "store.db"
        self.settings = prefixed_settings(bootstrap, name, PARTITIONS)
        self.processes: list[subprocess.Popen[bytes]] = []

    def env(self) -> dict[str, str]:
        env = {**os.environ, "RAILBIRD_DATABASE_URL": f"sqlite:///{self.db}"}
        env.update(
            {f"RAILBIRD_KAFKA_{k.upper()}": str(v) for k, v in self.settings.model_dump().items()}
        )
        return env

    def start(self, *args: str) -> subprocess.Popen[bytes]:
        log = (self.workdir / f"worker-{len(self.processes)}.log").open("wb")
        process = subprocess.Popen(
            [str(RAILBIRD), "-v", "run", *args],
            env=self.env(),
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        self.processes.append(process)
        return process

    def committed_share(self, total: int) -> Callable[[], float]:
        consumer = KafkaConsumer(
            bootstrap_servers=self.settings.bootstrap_servers,
            group_id=self.settings.group_id,
            enable_auto_commit=False,
        )
        tps = [TopicPartition(t, p) for t in self.settings.input_topics for p in range(PARTITIONS)]
        return lambda: sum(consumer.committed(tp) or 0 for tp in tps) / total


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout:.0f} s waiting for {what}")
        time.sleep(0.2)


def ended(process: subprocess.Popen[bytes], timeout: float) -> str:
    try:
        code = process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGTERM)
        process.wait(60)
        return f"did NOT exit within {timeout:.0f} s (stopped with SIGTERM)"
    return f"exited by itself, code {code}"


def run_sigterm(deployment: Deployment, total: int, timeout: float) -> tuple[list[str], float]:
    share = deployment.committed_share(total)
    first = deployment.start()
    wait_until(lambda: share() >= 0.42, timeout, "42 % committed")
    at = share()
    first.send_signal(signal.SIGTERM)
    code = first.wait(120)
    second = deployment.start("--exit-when-idle", "10")
    return [f"SIGTERM at {at:.0%}: exit {code}", ended(second, timeout)], at


def run_kill9(deployment: Deployment, total: int, timeout: float) -> tuple[list[str], float]:
    share = deployment.committed_share(total)
    owner = deployment.start()
    time.sleep(5)  # one joins, then the other (kafka-python and two joins at once)
    standby = deployment.start("--exit-when-idle", "10")
    wait_until(lambda: share() >= 0.51, timeout, "51 % committed")
    at = share()
    owner.send_signal(signal.SIGKILL)
    owner.wait(30)
    return [f"kill -9 at {at:.0%}", ended(standby, timeout)], at


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hours", type=float, default=DAY.hours)
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds a run may take")
    parser.add_argument(
        "--out", type=Path, default=REPO / "var" / "benchmarks-kafka-faults.md", help="report"
    )
    parser.add_argument("--keep", type=Path, help="keep the day, stores and logs in this folder")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    config = dataclasses.replace(DAY, hours=args.hours)
    results: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="kafka-faults-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        events = work / "events.jsonl"
        write_simulation(config, events, work / "truth.jsonl")
        lines = [line for line in events.read_bytes().splitlines() if line.strip()]
        total = len(lines)
        print(f"day: {total:,} events", flush=True)
        reference = work / "scan.db"
        subprocess.run(
            [str(RAILBIRD), "scan", str(events), "--store", "--out", str(work / "flags.jsonl")],
            env={**os.environ, "RAILBIRD_DATABASE_URL": f"sqlite:///{reference}"},
            check=True,
            capture_output=True,
        )
        want_flags = rows(reference, schema.flags, "flag_id", FLAG_COLUMNS)
        want_actions = rows(reference, schema.actions, "action_id", ACTION_COLUMNS)
        print(f"scan --store: {len(want_flags)} flags, {len(want_actions)} actions", flush=True)
        broker = start_broker(work / "broker", jvm_opts="")
        try:
            for name, fault in (("sigterm", run_sigterm), ("kill9", run_kill9)):
                where = work / name
                where.mkdir()
                deployment = Deployment(broker.bootstrap, where, f"{name}{os.getpid()}")
                produce(deployment.settings, lines)
                started = time.perf_counter()
                exits, at = fault(deployment, total, args.timeout)
                seconds = time.perf_counter() - started
                got_flags = rows(deployment.db, schema.flags, "flag_id", FLAG_COLUMNS)
                got_actions = rows(deployment.db, schema.actions, "action_id", ACTION_COLUMNS)
                result = Run(
                    name,
                    compare(got_flags, want_flags),
                    compare(got_actions, want_actions),
                    exits,
                    seconds,
                    at,
                )
                results.append(result)
                print(
                    f"{name}: flags missing/extra/changed {result.flags.line()}, actions "
                    f"{result.actions.line()}; {'; '.join(exits)}; {seconds:.0f} s",
                    flush=True,
                )
        finally:
            broker.stop()
    report = render(results, config, total, len(want_flags), len(want_actions), began, argv)
    write_report(args.out, report)
    print(report)
    failed = any(
        r.flags.line() != "0 / 0 / 0"
        or r.actions.line() != "0 / 0 / 0"
        or not r.exits[-1].startswith("exited by itself, code 0")
        for r in results
    )
    return 1 if failed else 0


def render(
    results: list[Run],
    config: SimConfig,
    total: int,
    flags: int,
    actions: int,
    began: float,
    argv: list[str] | None,
) -> str:
    command = "make bench-kafka-faults  (python -m bench.kafka_faults " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    code = subprocess.run(
        ["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True
    ).stdout.strip()
    rows_ = "\n".join(
        f"| {r.name} | {r.flags.line()} | {r.actions.line()} | {'; '.join(r.exits)} "
        f"| {r.seconds:.0f} s |"
        for r in results
    )
    details = "\n".join(
        f"- {r.name}: flags missing {r.flags.missing[:5]}, extra {r.flags.extra[:5]}, changed "
        f"{r.flags.changed[:5]}; actions missing {r.actions.missing[:5]}, extra "
        f"{r.actions.extra[:5]}, changed {r.actions.changed[:5]}"
        for r in results
        if (r.flags.line(), r.actions.line()) != ("0 / 0 / 0", "0 / 0 / 0")
    )
    return f"""# Kafka fault harness

Command: `{command.strip()})`, {(time.perf_counter() - began) / 60:.0f} minutes, on commit {code}
Machine: {describe_machine()}, load average at the end {os.getloadavg()[0]:.1f}
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; a single-node Kafka 4.1.1 broker of its own, \
{PARTITIONS} partitions per topic, default settings (snapshots every 300 s, so each restart
restores the snapshot written when its task started and replays what followed).
The day: `railbird simulate` seed {config.seed}, {config.tournaments} tournaments of \
{config.players_per_tournament}, {config.cash_tables} cash tables, {config.hours:g} h: \
{total:,} events, produced before the workers start. Reference: `railbird scan --store` on
the same file: {flags:,} flags, {actions:,} actions.

| run | flags missing / extra / changed | actions missing / extra / changed | processes | time |
|---|---|---|---|---|
{rows_}
{details}
"""


if __name__ == "__main__":
    raise SystemExit(main())
