"""What the Kafka benchmarks share: the simulator's mixed traffic, producing it, starting a
worker, and the machine's CPU that other jobs used meanwhile (on a small shared machine CPU,
not wall time, is what a stage or another worker competes for)."""

from __future__ import annotations

import os
import random
import re
import subprocess
import time
from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson

from railbird.ingest.decode import RawRecord
from railbird.ingest.kafka.clients import make_producer
from railbird.ingest.kafka.producer import produce_records
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.flags import format_ts
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate, write_simulation
from tests.integration.procs import tree_cpu_seconds
from tests.integration.topics import prefixed_settings

REPO = Path(__file__).resolve().parents[1]
RAILBIRD = REPO / ".venv" / "bin" / "railbird"
PARTITIONS = 6


# The simulator's day, sized to ~60,000 events of every kind (61,471 at seed 5: 15.6k chat,
# 32.9k table events, 13.0k hand histories): five tournaments of 180 (bounty ones among them,
# with their collusion teams) and six cash tables over three hours, with the injected
# violations and hard negatives of `railbird simulate`.
TRAFFIC = SimConfig(seed=5, tournaments=5, cash_tables=6, hours=3.0, players_per_tournament=180)


@dataclass(frozen=True)
class Traffic:
    """A simulated day written to `path` (what `railbird scan` reads), and its lines."""

    path: Path
    lines: list[bytes]  # one contract event each, in file order (what `railbird produce` sends)
    events: list[dict[str, Any]]

    @property
    def by_type(self) -> Counter[str]:
        return Counter(str(e["type"]) for e in self.events)


def mixed_traffic(workdir: Path, config: SimConfig = TRAFFIC) -> Traffic:
    """`railbird simulate`'s output for `config`: chat, table events and hand histories."""
    path = workdir / "events.jsonl"
    write_simulation(config, path, workdir / "truth.jsonl")
    lines = [line.rstrip() for line in path.read_bytes().splitlines() if line.strip()]
    return Traffic(path, lines, [orjson.loads(line) for line in lines])


# Plain table-talk words for `with_distinct_texts` (written for this benchmark).
_FILLER_TEXT = """
    the a and but so then now again today tonight really just still maybe sure okay ok yes no
    nice good great bad lucky unlucky sick cooler wow lol haha hmm well oh man guys all you me
    we they this that there here what why how when who call fold raise check bet shove jam
    limp flop turn river board pot hand hands stack chips blinds ante level break table seat
    button dealer cards pair set straight flush kings queens aces jacks tens suited gutshot
    draw outs odds read tell bluff value tilt run deep short big small early late final push
    time bank think sorry thanks ty np gl gg nh wp vnh brb back home coffee tea late night
"""
_FILLER = tuple(_FILLER_TEXT.split())


def chat_messages(count: int, seed: int) -> list[dict[str, Any]]:
    """Realistic chat (with the simulator's violations), repeated with fresh ids up to `count`:
    the chat corpus the codec and store tests read (the benchmark itself runs mixed traffic)."""
    config = SimConfig(
        seed=seed, tournaments=2, cash_tables=4, hours=2.0, players_per_tournament=90
    )
    base = [e for kind, e in simulate(config) if kind == "event" and e["type"] == "chat"]
    out: list[dict[str, Any]] = []
    span = _when(base[-1]) - _when(base[0]) + timedelta(minutes=1)
    for rep in range(count // len(base) + 1):
        # Later rounds: fresh players and message ids, and later times, so a repeat reads as
        # new traffic (not as one spammer, and not as time running backwards).
        out.extend(
            {
                **e,
                "message_id": f"{e['message_id']}-r{rep}",
                "player_id": f"{e['player_id']}-r{rep}",
                "ts": format_ts(_when(e) + rep * span),
            }
            for e in base
        )
    return out[:count]


def _when(event: dict[str, Any]) -> datetime:
    return datetime.fromisoformat(str(event["ts"]).replace("Z", "+00:00"))


def with_distinct_texts(messages: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """The same events, each chat text made (nearly always) unique by three plain words appended.

    The simulator's chat repeats itself (about a thousand distinct texts in 60,000 messages),
    so the detectors' per-text caches hit far more often than on a real room's chat; this
    stream is the other bound, where they almost never hit. The words are ordinary table talk,
    so what the detectors find stays about the same (made-up strings would take the lexicons'
    slowest paths, which real chat rarely does).
    """
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for m in messages:
        text = m.get("text")
        if m.get("type") == "chat" and isinstance(text, str) and text:
            m = {**m, "text": f"{text} {' '.join(rng.choices(_FILLER, k=3))}"}
        out.append(m)
    return out


def settings_for(bootstrap: str, prefix: str) -> KafkaSettings:
    return prefixed_settings(bootstrap, prefix, PARTITIONS)


def produce(settings: KafkaSettings, lines: list[bytes]) -> float:
    """Every line to its type's topic with the contract's key and its sequence header, as
    `railbird produce` sends a file (`produce_records`); records/s."""
    producer = make_producer(settings)
    try:
        report = produce_records(
            (RawRecord("bench", f"line {n}", line) for n, line in enumerate(lines, 1)),
            settings,
            producer,
        )
    finally:
        producer.close()
    if report.failed or report.skipped or report.total != len(lines):
        raise RuntimeError(f"produce: {report.summary()}")
    return report.per_second


def median_rate(samples: list[Rate]) -> Rate:
    """The sample with the median events/s (the middle one of an odd count): a baseline that
    one lucky or unlucky sample cannot move."""
    if not samples:
        raise ValueError("no samples")
    return sorted(samples, key=lambda r: r.events_per_second)[(len(samples) - 1) // 2]


def start_worker(
    settings: KafkaSettings, workdir: Path, port: int, *args: str, verbose: bool = False
) -> Any:
    """`railbird run` with `settings`, its log in `workdir/worker.log` (`verbose`: INFO lines,
    which name the keyed stage's process)."""
    env = {**os.environ, "RAILBIRD_DATABASE_URL": f"sqlite:///{workdir / 'store.db'}"}
    env.update({f"RAILBIRD_KAFKA_{k.upper()}": str(v) for k, v in settings.model_dump().items()})
    log = (workdir / "worker.log").open("wb")
    return subprocess.Popen(
        [str(RAILBIRD), *(["-v"] if verbose else []), "run", "--metrics-port", str(port), *args],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


@dataclass(frozen=True)
class Rate:
    """A timed run: events/s, and the CPU all of the worker's processes spent meanwhile."""

    events_per_second: float
    cpu_us_per_event: float  # both stages and their store writers, start-up excluded
    cores: float  # CPU seconds per wall second over the timed span
    peak_rss_mib: float = 0.0  # the worker's processes together, sampled while it ran
    # CPU that processes outside this benchmark (its broker, workers and scans are inside)
    # used on the machine meanwhile, per second: another job's share of the cores.
    others_cores: float = 0.0


_TICKS = os.sysconf("SC_CLK_TCK")


def outside_cpu_seconds() -> float:
    """The machine's busy CPU time (user, nice, system, irq, softirq) minus this benchmark's
    own: this process, its finished children (`cutime`, `cstime`) and its live descendants
    (the broker, a running worker's processes). Differences of it over a span are what
    other jobs took from the cores meanwhile."""
    cpu = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:8]
    user, nice, system, _idle, _iowait, irq, softirq = (int(x) for x in cpu)
    fields = Path(f"/proc/{os.getpid()}/stat").read_text().rsplit(")", 1)[1].split()
    own = sum(int(x) for x in fields[11:15])  # utime, stime, cutime, cstime
    live = tree_cpu_seconds(os.getpid()) - (int(fields[11]) + int(fields[12])) / _TICKS
    return (user + nice + system + irq + softirq - own) / _TICKS - live


_SCAN_SUMMARY = re.compile(r"(\d+) events \(\d+ rejected\) in ([\d.]+) s")


@dataclass(frozen=True)
class ScanRun:
    """`railbird scan --store` timed from outside: `rate` over the command's whole wall time
    (start-up, migrations and the last flush included) and its CPU; `loop_seconds` is what
    the scan itself reports for its loop (decode -> pipeline -> store), start-up excluded."""

    rate: Rate
    wall_seconds: float
    loop_seconds: float


def scan_store(events: Path, workdir: Path, count: int) -> ScanRun:
    """`railbird scan EVENTS --store` into a fresh SQLite file (flags and actions to files)."""
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "scan.db"
    env = {**os.environ, "RAILBIRD_DATABASE_URL": f"sqlite:///{db}"}
    command = [str(RAILBIRD), "scan", str(events), "--store"]
    command += ["--out", str(workdir / "flags.jsonl"), "--actions", str(workdir / "actions.jsonl")]
    log = workdir / "scan.log"
    started, outside = time.perf_counter(), outside_cpu_seconds()
    with log.open("wb") as err:
        scan = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)
        # wait4: this child's own CPU and peak RSS (RUSAGE_CHILDREN would mix in the workers).
        _pid, status, usage = os.wait4(scan.pid, 0)
    seconds = time.perf_counter() - started
    others = (outside_cpu_seconds() - outside) / seconds
    scan.returncode = os.waitstatus_to_exitcode(status)
    db.unlink(missing_ok=True)
    stderr = log.read_text()
    if scan.returncode != 0:
        raise RuntimeError(f"railbird scan failed ({scan.returncode}): {stderr[-2000:]}")
    summary = stderr.strip().splitlines()[-1]
    match = _SCAN_SUMMARY.search(summary)
    if match is None or int(match.group(1)) != count:
        raise RuntimeError(f"unexpected scan summary (expected {count} events): {summary}")
    cpu = usage.ru_utime + usage.ru_stime
    rate = Rate(count / seconds, cpu / count * 1e6, cpu / seconds, usage.ru_maxrss / 1024, others)
    return ScanRun(rate, seconds, float(match.group(2)))
