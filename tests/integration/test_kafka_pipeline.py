"""`railbird run` against a real broker: same flags as `scan`, through crashes and takeovers.

Every test gets its own topics, consumer group and SQLite store, so they share the session's
broker without seeing each other's records. Workers run as real subprocesses (`railbird run`)
configured through their environment, and are killed with SIGKILL where the test says so.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import signal
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient
from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
from kafka.admin import ConfigResource, ConfigResourceType
from kafka.errors import KafkaError
from sqlalchemy import func, select, update

from railbird.api.app import create_app
from railbird.ingest.files.jsonl import read_jsonl
from railbird.ingest.kafka.clients import make_producer
from railbird.ingest.kafka.codec import header_dict
from railbird.ingest.kafka.producer import produce_records
from railbird.rules.actions import RESTRICTING_KINDS
from railbird.rules.flags import format_ts
from railbird.sim.config import ChatRates, SimConfig
from railbird.sim.run import write_simulation
from railbird.store import schema
from railbird.store.database import make_engine
from tests.api.conftest import KEYS as API_KEYS
from tests.api.conftest import auth as api_auth

from .net import free_port, scrape_metrics
from .procs import alive, descendants
from .topics import prefixed_settings

pytestmark = pytest.mark.kafka

REPO = Path(__file__).resolve().parents[2]
RAILBIRD = REPO / ".venv" / "bin" / "railbird"
PARTITIONS = 6
_lane_ids = itertools.count(1)

FlagSet = set[tuple[str, str]]
# action_id -> the action as the contract writes it (kind, player, times, reason, flag ids)
Actions = dict[str, dict[str, Any]]


@dataclass(frozen=True)
class Stream:
    events: Path
    count: int
    event_ids: frozenset[str]
    scan_flags: FlagSet
    scan_actions: Actions


@pytest.fixture(scope="module")
def stream(tmp_path_factory: pytest.TempPathFactory) -> Stream:
    """A simulated hour and a half with violations, and what `railbird scan` flags in it."""
    base = tmp_path_factory.mktemp("stream")
    events, flags, actions = base / "events.jsonl", base / "flags.jsonl", base / "actions.jsonl"
    config = SimConfig(
        seed=11,
        tournaments=1,
        cash_tables=2,
        hours=1.5,
        players_per_tournament=45,
        violation_scale=3.0,
        team_intensity=0.9,
        # Lobby waves, whose lines reach every worker's partitions.
        rates=ChatRates(bot_waves_per_hour=2.0),
        # Refusals to play at two levels: join blocks whose ladder spans the players' tables.
        cash_big_blinds=(100, 200),
        hit_and_runners=6,
        refusal_exceptions=2,
    )
    write_simulation(config, events, base / "truth.jsonl")
    subprocess.run(
        [str(RAILBIRD), "scan", str(events), "--out", str(flags), "--actions", str(actions)],
        check=True,
        capture_output=True,
        env={**os.environ, "RAILBIRD_DATABASE_URL": f"sqlite:///{base / 'scan.db'}"},
    )
    ids = set()
    for line in events.read_bytes().splitlines():
        data = orjson.loads(line)
        ids.add(data.get("message_id") or data.get("event_id") or data["hand_id"])
    scan_flags = _flag_set(orjson.loads(line) for line in flags.read_bytes().splitlines())
    assert len(scan_flags) >= 10, "the stream should carry enough violations to compare"
    # ... of the site-scoped kinds too (state spanning tables: see ingest.kafka.stages).
    categories = {category for _flag_id, category in scan_flags}
    detectors = {orjson.loads(line)["detector"] for line in flags.read_bytes().splitlines()}
    assert "lobby_waves" in detectors
    assert {"coordinated_sit_out", "bounty_collusion", "in_hand_influence"} <= categories
    scan_actions = _actions(orjson.loads(line) for line in actions.read_bytes().splitlines())
    # Ladders that climb: the same player struck again, by flags of different workers' tables.
    assert {"warn", "mute_chat", "refer_investigator"} <= {a["kind"] for a in scan_actions.values()}
    assert any("strike 2" in a["reason"] for a in scan_actions.values())
    # Refusals to play, and join blocks from the second one at a level on.
    assert "refusal_to_play" in categories
    blocks = [a for a in scan_actions.values() if a["kind"] == "block_table_join"]
    assert blocks and all(a["blind_level"] in ("50/100", "100/200") for a in blocks)
    return Stream(events, len(ids), frozenset(ids), scan_flags, scan_actions)


def _actions(records: Any) -> Actions:
    """Each id's last record, without the topic's `status` ("applied" for every action the
    stream takes; scan writes none)."""
    skip = ("action_id", "status")
    return {a["action_id"]: {k: v for k, v in a.items() if k not in skip} for a in records}


def assert_same_actions(got: Actions, want: Actions) -> None:
    """Same ids and the same content (the strike a reason names included)."""
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    changed = sorted(k for k in set(want) & set(got) if got[k] != want[k])
    assert not missing and not extra and not changed, (
        f"missing {[want[k] for k in missing[:5]]}; extra {[got[k] for k in extra[:5]]}; "
        f"changed {[(got[k], want[k]) for k in changed[:5]]} ({len(missing)}, {len(extra)}, "
        f"{len(changed)} in all)"
    )


def assert_same_flags(got: FlagSet, want: FlagSet) -> None:
    """Compare flag sets showing only the difference (the sets are long)."""
    missing, extra = sorted(want - got), sorted(got - want)
    assert not missing and not extra, f"missing {missing}; extra {extra}"


def _flag_set(flags: Any) -> FlagSet:
    return {(f["flag_id"], f["category"]) for f in flags}


class Lane:
    """One test's topics, consumer group, store and worker processes."""

    def __init__(self, bootstrap: str, workdir: Path, **settings: Any) -> None:
        n = next(_lane_ids)
        prefix = f"t{n}-{os.getpid()}"
        self.workdir = workdir
        self.db_url = f"sqlite:///{workdir / 'store.db'}"
        chosen: dict[str, Any] = {
            "session_timeout_ms": 6000,
            "commit_interval_ms": 100,  # fine-grained commits, so a kill lands between them
            # Cover the whole test stream: a worker taking over rebuilds state from all of it.
            "replay_window_seconds": 86400,
            "site_replay_window_seconds": 86400,
            # The stream is produced ~1,000x faster than real time: ms of fetch skew are
            # seconds of event time (see test_two_workers_one_killed_the_survivor_finishes).
            "site_merge_hold_ms": 1000,
        }
        self.settings = prefixed_settings(bootstrap, prefix, PARTITIONS, **{**chosen, **settings})
        self.workers: list[subprocess.Popen[bytes]] = []

    def env(self) -> dict[str, str]:
        env = {**os.environ, "RAILBIRD_DATABASE_URL": self.db_url}
        for name, value in self.settings.model_dump().items():
            env[f"RAILBIRD_KAFKA_{name.upper()}"] = str(value)
        return env

    def start_worker(self, *args: str) -> subprocess.Popen[bytes]:
        with (self.workdir / f"worker-{len(self.workers)}.log").open("wb") as log:
            process = subprocess.Popen(
                [str(RAILBIRD), "-v", "run", *args],
                env=self.env(),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )
        self.workers.append(process)
        return process

    def worker_log(self, index: int) -> str:
        return (self.workdir / f"worker-{index}.log").read_text(errors="replace")

    def produce(self, events: Path, rate: float | None = None) -> None:
        producer = make_producer(self.settings)
        try:
            report = produce_records(read_jsonl(events), self.settings, producer, rate=rate)
        finally:
            producer.close()
        assert report.failed == 0 and not report.skipped

    def stored_events(self) -> int:
        engine = make_engine(self.db_url)
        try:
            with engine.connect() as conn:
                return sum(
                    conn.execute(select(func.count()).select_from(t)).scalar_one()
                    for t in (schema.chat_messages, schema.table_events, schema.hands)
                )
        except Exception:  # the worker has not created the schema yet
            return 0
        finally:
            engine.dispose()

    def stored_ids(self) -> set[str]:
        engine = make_engine(self.db_url)
        with engine.connect() as conn:
            ids = set(conn.execute(select(schema.chat_messages.c.message_id)).scalars())
            ids |= set(conn.execute(select(schema.table_events.c.event_id)).scalars())
            ids |= set(conn.execute(select(schema.hands.c.hand_id)).scalars())
        engine.dispose()
        return ids

    def stored_flags(self) -> FlagSet:
        engine = make_engine(self.db_url)
        with engine.connect() as conn:
            rows = conn.execute(select(schema.flags.c.flag_id, schema.flags.c.category)).all()
        engine.dispose()
        return {(r[0], r[1]) for r in rows}

    @contextlib.contextmanager
    def committed_counter(self) -> Iterator[Callable[[], int]]:
        """A function giving how many input records the group has committed, asked of the
        broker (a stopped worker cannot answer on its metrics port)."""
        consumer = KafkaConsumer(
            bootstrap_servers=self.settings.bootstrap_servers,
            group_id=self.settings.group_id,
            enable_auto_commit=False,
        )
        tps = [TopicPartition(t, p) for t in self.settings.input_topics for p in range(PARTITIONS)]
        try:
            yield lambda: sum(consumer.committed(tp) or 0 for tp in tps)
        finally:
            consumer.close(autocommit=False)

    def topic_records(self, topic: str) -> list[Any]:
        consumer = KafkaConsumer(bootstrap_servers=self.settings.bootstrap_servers)
        try:
            tps = [TopicPartition(topic, p) for p in range(PARTITIONS)]
            consumer.assign(tps)
            consumer.seek_to_beginning(*tps)
            end = consumer.end_offsets(tps)
            records: list[Any] = []
            deadline = time.monotonic() + 20
            while any(consumer.position(tp) < end[tp] for tp in tps):
                assert time.monotonic() < deadline, f"could not read {topic} to its end"
                for batch in consumer.poll(timeout_ms=200).values():
                    records.extend(batch)
            return records
        finally:
            consumer.close()

    def stored_actions(self) -> Actions:
        """The store's actions in the contract's shape (what the topic carries)."""
        engine = make_engine(self.db_url)
        with engine.connect() as conn:
            rows = conn.execute(select(schema.actions)).mappings().all()
        engine.dispose()
        return {
            r["action_id"]: {
                "kind": r["kind"],
                "player_id": r["player_id"],
                "ts": format_ts(_utc(r["ts"])),
                "expires_at": None if r["expires_at"] is None else format_ts(_utc(r["expires_at"])),
                "duration_s": None
                if r["expires_at"] is None
                else int((r["expires_at"] - r["ts"]).total_seconds()),
                "reason": r["reason"],
                "flag_ids": list(r["flag_ids"]),
                "actor": r["actor"],
                # A join block's level, as the contract's record names it.
                **({} if r["scope"] is None else {"blind_level": r["scope"]}),
            }
            for r in rows
        }

    def topic_actions(self) -> Actions:
        """The actions topic, each id's last record (a re-sent action has the same id)."""
        records = self.topic_records(self.settings.actions_topic)
        return _actions(orjson.loads(r.value) for r in records)

    def assert_actions_are_scans(self, stream: Stream) -> None:
        assert_same_actions(self.stored_actions(), stream.scan_actions)
        assert_same_actions(self.topic_actions(), stream.scan_actions)

    def flag_detectors(self) -> set[str]:
        engine = make_engine(self.db_url)
        with engine.connect() as conn:
            found = set(conn.execute(select(schema.flags.c.detector)).scalars())
        engine.dispose()
        return found

    def topic_flags(self) -> FlagSet:
        return _flag_set(
            orjson.loads(r.value) for r in self.topic_records(self.settings.flags_topic)
        )

    def stop_all(self) -> None:
        for process in self.workers:
            if process.poll() is None:
                process.kill()
                process.wait(10)


@pytest.fixture
def lane(kafka_bootstrap: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Lane]:
    created = Lane(kafka_bootstrap, tmp_path, **getattr(request, "param", {}))
    yield created
    created.stop_all()


def _utc(when: datetime) -> datetime:
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out after {timeout:.0f} s waiting for {what}"
        time.sleep(0.1)


def _exits(process: subprocess.Popen[bytes], timeout: float) -> int:
    return process.wait(timeout)


def _producing(lane: Lane, stream: Stream, rate: float) -> threading.Thread:
    thread = threading.Thread(target=lane.produce, args=(stream.events, rate), daemon=True)
    thread.start()
    return thread


STAGES = ("tables", "site")


def _owns_everything_and_caught_up(port: int) -> bool:
    """Both stages of the worker own every partition and have processed all of it."""
    metrics = scrape_metrics(port)
    for stage in STAGES:
        lag = f'railbird_kafka_consumer_lag{{stage="{stage}",'
        lags = [v for k, v in metrics.items() if k.startswith(lag)]
        buffered = metrics.get(f'railbird_kafka_buffered_records{{stage="{stage}"}}')
        if len(lags) != 3 * PARTITIONS or any(lags) or buffered != 0:
            return False
    return True


def _partitions_owned(port: int, stage: str = "tables") -> int:
    owned = f'railbird_kafka_assigned_partition{{stage="{stage}",'
    return sum(k.startswith(owned) for k in scrape_metrics(port))


def _summary(log: str, stage: str = "tables") -> str:
    """The stage's closing line (`railbird run (tables stage): N records ...`)."""
    return next(line for line in log.splitlines() if f"railbird run ({stage} stage):" in line)


def _run_in_slices_until(
    process: subprocess.Popen[bytes], condition: Callable[[], bool], timeout: float
) -> None:
    """Let `process` run in 50 ms slices, stopped (SIGSTOP) while `condition` is checked.

    A worker fast enough to finish the whole stream between two checks would make a crash
    test vacuous; checking while it is stopped guarantees the crash lands mid-stream.
    """
    deadline = time.monotonic() + timeout
    process.send_signal(signal.SIGSTOP)
    while not condition():
        assert process.poll() is None, "the worker exited before the crash"
        assert time.monotonic() < deadline, f"timed out after {timeout:.0f} s"
        process.send_signal(signal.SIGCONT)
        time.sleep(0.05)
        process.send_signal(signal.SIGSTOP)


def _committed_mid_stream(lane: Lane, stream: Stream, port: int) -> bool:
    """A third of the stream stored and several batches committed: a fair moment to crash."""
    return (
        lane.stored_events() >= stream.count // 3
        and scrape_metrics(port).get('railbird_kafka_commits_total{stage="tables"}', 0) >= 3
    )


# The second lane buffers so little per partition that fetching pauses and resumes all along
# (kafka-python once left a resumed partition stalled for good: see kafka_intake).
@pytest.mark.parametrize("lane", [{}, {"max_buffered_per_partition": 20}], indirect=True)
def test_worker_flags_exactly_what_scan_flags(lane: Lane, stream: Stream) -> None:
    lane.produce(stream.events)
    worker = lane.start_worker("--exit-when-idle", "2")
    assert _exits(worker, 120) == 0, lane.worker_log(0)[-3000:]
    assert lane.stored_ids() == stream.event_ids
    assert_same_flags(lane.stored_flags(), stream.scan_flags)
    assert_same_flags(lane.topic_flags(), stream.scan_flags)
    lane.assert_actions_are_scans(stream)
    # Both stages read the whole stream; only the table stage stores events.
    for stage in STAGES:
        summary = _summary(lane.worker_log(0), stage)
        assert f"{stream.count} records" in summary and "0 dead letters" in summary


@pytest.mark.parametrize("lane", [{"max_poll_records": 100}], indirect=True)
def test_kill_9_then_restart_loses_nothing_and_duplicates_no_flag(
    lane: Lane, stream: Stream
) -> None:
    # The stream is in Kafka before the worker starts, so the worker merges it exactly in event
    # time (live, cross-topic order is only as good as arrival order: see kafka_merge).
    lane.produce(stream.events)
    first = lane.start_worker()
    # Stored and committed: the store (a child process) runs on while the worker is stopped,
    # so storage alone can be far ahead of the worker's last commit.
    with lane.committed_counter() as committed:
        _run_in_slices_until(
            first,
            lambda: lane.stored_events() >= stream.count // 3 and committed() >= stream.count // 4,
            60,
        )
    children = descendants(first.pid)  # the site stage's and the store's processes
    assert len(children) >= 2, children
    first.send_signal(signal.SIGKILL)  # still stopped: it dies mid-stream, whatever its speed
    first.wait(10)
    # They learn of it from their pipes and exit (the site stage after committing): no orphan
    # goes on consuming, writing or holding partitions.
    wait_for(lambda: not any(alive(pid) for pid in children), 60, "the worker's children")
    killed_at = lane.stored_events()
    assert killed_at < stream.count, "the worker should die mid-stream"
    second = lane.start_worker("--exit-when-idle", "2")
    assert _exits(second, 120) == 0, lane.worker_log(1)[-3000:]
    assert lane.stored_ids() == stream.event_ids
    assert_same_flags(lane.stored_flags(), stream.scan_flags)
    # The topic may carry a flag twice (re-sent after the crash), never a flag scan lacks.
    assert_same_flags(lane.topic_flags(), stream.scan_flags)
    lane.assert_actions_are_scans(stream)
    assert "replaying offsets" in lane.worker_log(1), "the restart should rebuild state"


# No replay window at all: only the checkpointed state (`kafka.snapshots`) can bring back
# what the killed worker's detectors had built, hours of event time before the restart.
@pytest.mark.parametrize(
    "lane",
    [
        {
            "max_poll_records": 100,
            "replay_window_seconds": 0,
            "site_replay_window_seconds": 0,
            "snapshot_interval_seconds": 0.3,
        }
    ],
    indirect=True,
)
def test_kill_9_then_restart_restores_the_state_snapshot(lane: Lane, stream: Stream) -> None:
    lane.produce(stream.events)
    first = lane.start_worker()
    with lane.committed_counter() as committed:
        _run_in_slices_until(
            first,
            lambda: (
                lane.stored_events() >= stream.count // 2
                and committed() >= stream.count // 3
                and lane.worker_log(0).count("[site]: state snapshot") >= 2  # one committed
            ),
            90,
        )
    children = descendants(first.pid)
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    wait_for(lambda: not any(alive(pid) for pid in children), 60, "the worker's children")
    assert lane.stored_events() < stream.count, "the worker should die mid-stream"
    second = lane.start_worker("--exit-when-idle", "2")
    assert _exits(second, 180) == 0, lane.worker_log(1)[-3000:]
    log = lane.worker_log(1)
    assert "restored state snapshot tables:" in log and "restored state snapshot site@" in log
    assert "restored snapshot escalation:" in log
    assert lane.stored_ids() == stream.event_ids
    assert_same_flags(lane.stored_flags(), stream.scan_flags)
    assert_same_flags(lane.topic_flags(), stream.scan_flags)
    lane.assert_actions_are_scans(stream)


# Produced live at 600 events/s, the simulated stream runs ~1,000x faster than real time: 10 ms
# between two partitions' fetch answers is 10 s of event time, enough to expire a table's
# chat-flood window early. The table stage gets the site stage's merge hold here (it has none by
# default, for latency) so that live order, not luck, is what the test compares.
@pytest.mark.parametrize("lane", [{"max_poll_records": 100, "merge_hold_ms": 1000}], indirect=True)
def test_two_workers_one_killed_the_survivor_finishes(lane: Lane, stream: Stream) -> None:
    doomed_port, port = free_port(), free_port()
    # One joins, then the other: two members joining an empty group at the same instant can
    # leave kafka-python 3.0.12 stuck mid-rebalance, and no commit exists yet to detect it.
    doomed = lane.start_worker("--metrics-port", str(doomed_port))
    wait_for(
        lambda: (
            _partitions_owned(doomed_port)
            == _partitions_owned(doomed_port, "site")
            == 3 * PARTITIONS
        ),
        90,
        "the first worker",
    )
    survivor = lane.start_worker("--metrics-port", str(port))
    wait_for(
        lambda: _partitions_owned(doomed_port) == _partitions_owned(port) == 3 * PARTITIONS // 2,
        90,
        "both workers sharing the table partitions",
    )
    # The site stage stays with the first worker (sticky); the second is its standby.
    assert _partitions_owned(doomed_port, "site") == 3 * PARTITIONS
    assert _partitions_owned(port, "site") == 0
    producing = _producing(lane, stream, rate=600)
    wait_for(lambda: _committed_mid_stream(lane, stream, doomed_port), 60, "a third of the stream")
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    assert lane.stored_events() < stream.count, "the worker should die mid-stream"
    producing.join(60)
    wait_for(lambda: _owns_everything_and_caught_up(port), 90, "the survivor to take over")
    # The ladders finish once every source's marks have passed the last offences.
    wait_for(lambda: lane.stored_actions() == stream.scan_actions, 60, "scan's actions")
    survivor.send_signal(signal.SIGTERM)
    assert _exits(survivor, 30) == 0
    assert "replaying offsets" in lane.worker_log(1), "the takeover should rebuild state"
    assert lane.stored_ids() == stream.event_ids
    # Every category, the tournament-wide ones too: the survivor's site stage took the whole
    # stream over from the killed worker and rebuilt the site detectors' state.
    assert_same_flags(lane.stored_flags(), stream.scan_flags)
    assert_same_flags(lane.topic_flags(), stream.scan_flags)
    lane.assert_actions_are_scans(stream)


@pytest.mark.parametrize("lane", [{"max_poll_records": 100, "merge_hold_ms": 1000}], indirect=True)
def test_a_standby_told_to_exit_when_idle_still_takes_over_from_a_killed_owner(
    lane: Lane, stream: Stream
) -> None:
    """`--exit-when-idle` means the whole group is idle. A site-stage standby owns nothing and
    once counted as idle at once: it exited while the owner worked, and when the owner was
    killed nobody took over (site flags lost, exit 0)."""
    doomed_port, port = free_port(), free_port()
    doomed = lane.start_worker("--metrics-port", str(doomed_port))
    wait_for(
        lambda: _partitions_owned(doomed_port, "site") == 3 * PARTITIONS,
        90,
        "the first worker's site stage",
    )
    survivor = lane.start_worker("--metrics-port", str(port), "--exit-when-idle", "2")
    wait_for(
        lambda: _partitions_owned(doomed_port) == _partitions_owned(port) == 3 * PARTITIONS // 2,
        90,
        "both workers sharing the table partitions",
    )
    assert _partitions_owned(port, "site") == 0  # the standby
    producing = _producing(lane, stream, rate=600)
    wait_for(lambda: _committed_mid_stream(lane, stream, doomed_port), 60, "a third of the stream")
    doomed.send_signal(signal.SIGKILL)
    doomed.wait(10)
    producing.join(60)
    assert _exits(survivor, 180) == 0, lane.worker_log(1)[-3000:]
    assert lane.stored_ids() == stream.event_ids
    assert_same_flags(lane.stored_flags(), stream.scan_flags)
    assert_same_flags(lane.topic_flags(), stream.scan_flags)
    lane.assert_actions_are_scans(stream)


def _sharing(started: list[tuple[subprocess.Popen[bytes], int]]) -> bool:
    """Each started worker owns its share of the table partitions, and escalation ones."""
    share = 3 * PARTITIONS // len(started)
    return all(
        abs(_partitions_owned(p) - share) <= 3 and _partitions_owned(p, "escalation") > 0
        for _, p in started
    )


def _start_one_by_one(lane: Lane, count: int) -> list[tuple[subprocess.Popen[bytes], int]]:
    """`count` workers, each started once the previous ones share the table partitions (two
    members joining an empty group at once can leave kafka-python stuck mid-rebalance)."""
    started: list[tuple[subprocess.Popen[bytes], int]] = []
    for n in range(count):
        port = free_port()
        started.append((lane.start_worker("--metrics-port", str(port)), port))
        wait_for(lambda: _sharing(started), 90, f"{n + 1} workers sharing the partitions")
    return started


# Two and three workers, produced live; one of them (chosen at random) killed at a random point,
# and started again later, once the others have gone on without it. Flags and actions must be
# `scan`'s: one escalation ladder per player however the flags were spread (the same player's
# strikes raised by different workers' tables and by the site stage), lobby bot waves whole
# although their lines reach different workers, and nothing lost or duplicated by the kill.
@pytest.mark.parametrize(
    ("lane", "workers"),
    [
        ({"max_poll_records": 100, "merge_hold_ms": 1000}, 2),
        ({"max_poll_records": 100, "merge_hold_ms": 1000, "snapshot_interval_seconds": 1}, 3),
    ],
    indirect=["lane"],
)
def test_several_workers_one_killed_and_restarted_give_scans_flags_and_actions(
    lane: Lane, stream: Stream, workers: int
) -> None:
    rng = random.Random(workers)
    started = _start_one_by_one(lane, workers)
    victim = rng.randrange(workers)
    doomed, _ = started[victim]
    producing = _producing(lane, stream, rate=500)
    share = rng.uniform(0.2, 0.6)
    with lane.committed_counter() as committed:
        wait_for(lambda: committed() >= stream.count * share, 90, "the kill point")
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(10)
        producing.join(90)
        # The others take its partitions over and go on; it comes back much later.
        wait_for(lambda: committed() >= stream.count * 0.9, 120, "the others to go on")
    back = lane.start_worker("--exit-when-idle", "3")
    for process, _ in started:
        if process is not doomed:
            wait_for(lambda: lane.stored_actions() == stream.scan_actions, 120, "scan's actions")
            process.send_signal(signal.SIGTERM)
            assert _exits(process, 60) == 0
    try:
        code = _exits(back, 360)
    except subprocess.TimeoutExpired:
        back.kill()
        log = lane.worker_log(len(lane.workers) - 1)[-6000:]
        pytest.fail(f"the restarted worker never went idle: {log}")
    assert code == 0, lane.worker_log(len(lane.workers) - 1)[-3000:]
    assert lane.stored_ids() == stream.event_ids
    assert lane.stored_events() == stream.count  # one row per event: no duplicates
    assert_same_flags(lane.stored_flags(), stream.scan_flags)
    assert_same_flags(lane.topic_flags(), stream.scan_flags)
    lane.assert_actions_are_scans(stream)
    # Lobby bot waves among them (their lines came through every worker's partitions).
    assert "lobby_waves" in lane.flag_detectors()


def _chat(message_id: str, text: str, t: int) -> dict[str, Any]:
    return {
        "type": "chat",
        "message_id": message_id,
        "ts": f"2026-11-29T20:00:{t:02d}.000Z",
        "player_id": "p-1",
        "channel": "table",
        "table_id": "t-1",
        "tournament_id": None,
        "kind": "text",
        "text": text,
    }


def test_bad_records_go_to_the_dead_letter_topics_and_the_stream_goes_on(lane: Lane) -> None:
    s = lane.settings
    sit_out = {
        "type": "table",
        "event_id": "e-1",
        "ts": "2026-11-29T20:00:03.000Z",
        "table_id": "t-1",
        "action": "sit_out",
        "player_id": "p-2",
        "seat": 2,
    }
    records = [
        (s.chat_topic, orjson.dumps(_chat("m-1", "nice hand", 1))),
        (s.chat_topic, b'{"type": "chat", "message_id": "m-x", "ts": '),  # malformed JSON
        (s.table_topic, orjson.dumps({**sit_out, "event_id": "e-bad", "seat": "three"})),
        (s.hand_topic, orjson.dumps({"type": "tip", "hand_id": "h-1", "table_id": "t-1"})),
        (s.table_topic, orjson.dumps(sit_out)),
        (s.chat_topic, orjson.dumps(_chat("m-2", "you are a fucking idiot", 5))),
    ]
    producer = KafkaProducer(bootstrap_servers=s.bootstrap_servers)
    for topic, value in records:
        producer.send(topic, key=b"t-1", value=value)
    producer.flush()
    producer.close()

    worker = lane.start_worker("--exit-when-idle", "2")
    assert _exits(worker, 60) == 0, lane.worker_log(0)[-3000:]

    dead = {t: lane.topic_records(s.dlq_topic(t)) for t in s.input_topics}
    assert [r.value for r in dead[s.chat_topic]] == [records[1][1]]
    assert [orjson.loads(r.value)["event_id"] for r in dead[s.table_topic]] == ["e-bad"]
    assert [orjson.loads(r.value)["type"] for r in dead[s.hand_topic]] == ["tip"]
    reasons = {t: header_dict(rs[0].headers) for t, rs in dead.items()}
    assert "json" in reasons[s.chat_topic]["reason"].lower()
    assert "seat" in reasons[s.table_topic]["reason"]
    assert "tip" in reasons[s.hand_topic]["reason"]
    for topic, headers in reasons.items():
        assert headers["source_topic"] == topic
        assert headers["source_offset"].isdigit() and headers["source_partition"].isdigit()
    assert reasons[s.chat_topic]["source_offset"] == "1"

    assert lane.stored_ids() == {"m-1", "e-1", "m-2"}
    # The profane message around the bad records was processed: flagged, and only it.
    flagged = [orjson.loads(r.value) for r in lane.topic_records(s.flags_topic)]
    assert "profanity" in {f["category"] for f in flagged}
    assert {m for f in flagged for m in f["message_ids"]} == {"m-2"}
    assert "3 dead letters" in _summary(lane.worker_log(0))
    assert "0 dead letters" in _summary(lane.worker_log(0), "site")  # stored once, not twice


def test_poison_records_land_in_the_dead_letter_topic_and_the_stream_goes_on(lane: Lane) -> None:
    """The records that used to stop a partition for good: a >1 MB invalid record on a topic
    that allows it (the DLQ producer refused it at its 1 MB request limit, at every restart), a
    year-0001 time whose UTC form overflows, a seat the store cannot hold, and one id sent again
    with other text."""
    s = lane.settings
    admin = KafkaAdminClient(bootstrap_servers=s.bootstrap_servers)
    try:
        admin.alter_configs(
            [
                ConfigResource(
                    ConfigResourceType.TOPIC, s.chat_topic, {"max.message.bytes": "4194304"}
                )
            ]
        )
    finally:
        admin.close()
    big = b'{"type": "chat", "message_id": "m-big", "text": "' + b"z" * 1_500_000 + b'"}'
    records = [
        orjson.dumps(_chat("m-1", "nice hand", 1)),
        big,
        json.dumps({**_chat("m-old", "hi", 2), "ts": "0001-01-01T00:00:00+05:00"}).encode(),
        orjson.dumps(_chat("m-1", "you are a fucking idiot", 3)),  # m-1 again, other words
        orjson.dumps(_chat("m-2", "you are a fucking idiot", 5)),
    ]
    seat = {
        "type": "table",
        "event_id": "e-huge",
        "ts": "2026-11-29T20:00:04.000Z",
        "table_id": "t-1",
        "action": "join",
        "player_id": "p-2",
        "seat": 10**30,
    }
    producer = KafkaProducer(bootstrap_servers=s.bootstrap_servers, max_request_size=4_194_304)
    for value in records:
        # One at a time, in order; the big one is retried until the topic's new limit has
        # reached the partition leader (the config change is applied asynchronously), each
        # time with a new producer (kafka-python aborts a producer on a too-large record).
        for attempt in itertools.count():
            try:
                producer.send(s.chat_topic, key=b"t-1", value=value).get(timeout=10)
                break
            except KafkaError:
                assert attempt < 60, "the topic never accepted the large record"
                producer.close()
                time.sleep(0.5)
                producer = KafkaProducer(
                    bootstrap_servers=s.bootstrap_servers, max_request_size=4_194_304
                )
    producer.send(s.table_topic, key=b"t-1", value=json.dumps(seat).encode())
    producer.flush()
    producer.close()

    worker = lane.start_worker("--exit-when-idle", "2")
    assert _exits(worker, 90) == 0, lane.worker_log(0)[-3000:]

    dead = lane.topic_records(s.dlq_topic(s.chat_topic))
    by_offset = {header_dict(r.headers)["source_offset"]: r for r in dead}
    assert sorted(by_offset) == ["1", "2", "3"]
    cut = header_dict(by_offset["1"].headers)
    assert cut["original_size"] == str(len(big)) and cut["truncated"] == "1"
    assert big.startswith(by_offset["1"].value) and len(by_offset["1"].value) < 1_000_000
    assert "bytes, over the" in cut["reason"]
    assert "out of range" in header_dict(by_offset["2"].headers)["reason"]
    assert "duplicate chat id 'm-1'" in header_dict(by_offset["3"].headers)["reason"]
    [table_dead] = lane.topic_records(s.dlq_topic(s.table_topic))
    assert "seat" in header_dict(table_dead.headers)["reason"]
    assert lane.stored_ids() == {"m-1", "m-2"}
    flagged = [orjson.loads(r.value) for r in lane.topic_records(s.flags_topic)]
    assert {m for f in flagged for m in f["message_ids"]} == {"m-2"}  # never the second m-1


def test_a_worker_whose_site_stage_dies_stops_cleanly_and_says_so(lane: Lane) -> None:
    """The site stage is a child process: if it dies, the worker must not go on as half a
    worker (its site detectors silently gone), but stop, committing, and exit non-zero so that
    its supervisor restarts it whole."""
    port = free_port()
    worker = lane.start_worker("--metrics-port", str(port))
    wait_for(
        lambda: _partitions_owned(port) == _partitions_owned(port, "site") == 3 * PARTITIONS,
        90,
        "both stages to own every partition",
    )
    # The worker's children are its store writer and the site stage, which has a store writer
    # of its own: the child with children is the site stage.
    family = descendants(worker.pid)
    site = [pid for pid in family if descendants(pid)]
    assert len(site) == 1, family  # (the others: a store writer, multiprocessing's tracker)
    os.kill(site[0], signal.SIGKILL)
    assert _exits(worker, 60) == 1, lane.worker_log(0)[-3000:]
    log = lane.worker_log(0)
    assert "site stage process exited with code -9" in log
    assert "railbird run (tables stage):" in log  # it finished its batch and committed
    # The killed stage's own store writer too: it exits when its parent's pipe closes.
    wait_for(lambda: not any(alive(pid) for pid in family), 30, "no orphan")


def test_restriction_changes_reach_the_actions_topic_once_each_through_the_outbox(
    lane: Lane, tmp_path: Path
) -> None:
    """The stream's actions, then an analyst's: a dismissal that lifts a rules' mute, a manual
    mute lifted, a manual ban whose time runs out; `railbird relay` run twice (the second pass
    finds nothing new). On the topic: every stored action applied, no record twice, each lift
    and expiry once. The simulated hour ends now, so some of its mutes are still in force."""
    events = tmp_path / "recent.jsonl"
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=95)
    config = SimConfig(
        seed=3,
        tournaments=1,
        cash_tables=2,
        hours=1.5,
        players_per_tournament=45,
        violation_scale=3.0,
        start=start,
    )
    write_simulation(config, events, tmp_path / "truth.jsonl")
    lane.produce(events)
    worker = lane.start_worker("--exit-when-idle", "2")
    assert _exits(worker, 120) == 0, lane.worker_log(0)[-3000:]
    engine = make_engine(lane.db_url)
    with TestClient(create_app(engine, API_KEYS)) as client:
        mute = next(
            a
            for a in lane.stored_actions().items()
            if a[1]["kind"] == "mute_chat"
            and len(a[1]["flag_ids"]) == 1
            and a[1]["expires_at"] > format_ts(datetime.now(UTC) + timedelta(minutes=5))
        )
        dismissed = client.post(
            f"/v1/flags/{mute[1]['flag_ids'][0]}/review",
            json={"decision": "dismiss", "note": "banter", "version": 0},
            headers=api_auth("analyst"),
        )
        assert dismissed.status_code == 200, dismissed.text
        assert mute[0] in dismissed.json()["lifted_action_ids"]
        manual = {}
        for kind, player in (("mute_chat", "p-manual-1"), ("snapcam_ban", "p-manual-2")):
            body = {"player_id": player, "kind": kind, "duration_minutes": 60, "reason": "abuse"}
            applied = client.post("/v1/restrictions", json=body, headers=api_auth("analyst"))
            assert applied.status_code == 201, applied.text
            manual[kind] = applied.json()["action_id"]
        lifted = client.post(
            f"/v1/restrictions/{manual['mute_chat']}/lift",
            json={"reason": "appeal upheld"},
            headers=api_auth("admin"),
        )
        assert lifted.status_code == 200, lifted.text
    with engine.begin() as conn:  # the ban's hour passes
        conn.execute(
            update(schema.actions)
            .where(schema.actions.c.action_id == manual["snapcam_ban"])
            .values(expires_at=datetime.now(UTC) - timedelta(seconds=1))
        )
    for _ in range(2):
        relayed = subprocess.run(
            [str(RAILBIRD), "relay", "--once"], env=lane.env(), capture_output=True, timeout=120
        )
        assert relayed.returncode == 0, relayed.stderr.decode()
    records = [orjson.loads(r.value) for r in lane.topic_records(lane.settings.actions_topic)]
    changes = Counter((r["action_id"], r["status"]) for r in records)
    stored = lane.stored_actions()
    applied = {a for a, status in changes if status == "applied"}
    assert applied == set(stored), "every stored action, the stream's and the analysts', applied"
    # A rules' action is re-sent, same id, when its flag gets worse (a new state); no record
    # is ever sent twice, and each lift or expiry once.
    sent = Counter(orjson.dumps(r, option=orjson.OPT_SORT_KEYS) for r in records)
    assert not [r for r, n in sent.items() if n > 1], "a record sent twice"
    later = {c: n for c, n in changes.items() if c[1] != "applied" and n > 1}
    assert not later, f"changes sent more than once: {later}"
    assert (mute[0], "lifted") in changes and (manual["mute_chat"], "lifted") in changes
    assert (manual["snapcam_ban"], "expired") in changes
    # Every rules' restriction whose time ran out (in the relay's week of look-back) expired.
    now = datetime.now(UTC)
    with engine.connect() as conn:
        rows = conn.execute(select(schema.actions)).mappings().all()
    ended = {
        r["action_id"]
        for r in rows
        if r["kind"] in RESTRICTING_KINDS
        and r["lifted_at"] is None
        and r["expires_at"] is not None
        and now - timedelta(days=7) < _utc(r["expires_at"]) <= now
    }
    assert ended == {a for a, status in changes if status == "expired"}
    # An upserting consumer (highest revision per id; the stream's own records carry none)
    # ends with the store's state.
    latest: dict[str, dict[str, Any]] = {}
    for r in records:
        if r.get("revision", 0) >= latest.get(r["action_id"], {}).get("revision", 0):
            latest[r["action_id"]] = r
    assert latest[mute[0]]["lifted_at"] is not None
    assert latest[manual["snapcam_ban"]]["status"] == "expired"
    engine.dispose()
