"""`railbird run` against a real broker: `scan`'s flags and actions, through crashes and takeovers.

Every test gets its own topics, consumer groups and SQLite store, so they share the session's
broker without seeing each other's records. Workers run as real subprocesses (`railbird run`)
configured through their environment, and are killed with SIGKILL where the test says so.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import random
import re
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
    """A simulated hour and a half of two tournaments and two cash tables with violations, and
    what `railbird scan` flags in it."""
    base = tmp_path_factory.mktemp("stream")
    events, flags, actions = base / "events.jsonl", base / "flags.jsonl", base / "actions.jsonl"
    config = SimConfig(
        seed=11,
        tournaments=2,
        cash_tables=2,
        hours=1.5,
        players_per_tournament=45,
        violation_scale=3.0,
        team_intensity=0.9,
        # Lobby waves, whose lines come from senders on every partition.
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
    records = [orjson.loads(line) for line in flags.read_bytes().splitlines()]
    scan_flags = _flag_set(records)
    assert len(scan_flags) >= 10, "the stream should carry enough violations to compare"
    # ... of every keying: re-keyed by tournament, by text and through the players' join too.
    categories = {category for _flag_id, category in scan_flags}
    detectors = {f["detector"] for f in records}
    assert "lobby_waves" in detectors
    assert {"coordinated_sit_out", "in_hand_influence"} <= categories
    assert any(f["evidence"]["measures"].get("private") for f in records), "no private in-hand"
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
            "snapshot_interval_seconds": 1,  # and snapshots, so restarts restore and replay
            # Produced live ~500x faster than real time, ms of fetch skew are seconds of event
            # time: a partition's three topics are merged, and marks promise, with a second
            # of hold (the defaults, 0 and 100 ms, are for real time).
            "merge_hold_ms": 1000,
            "mark_hold_ms": 1000,
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


def _samples(port: int) -> list[tuple[str, dict[str, str], float]]:
    """A worker's `/metrics` as (name, labels, value) samples ([] if unreachable)."""
    found = []
    for key, value in scrape_metrics(port).items():
        name, _, rest = key.partition("{")
        labels = dict(re.findall(r'(\w+)="((?:[^"\\]|\\.)*)"', rest))
        found.append((name, labels, value))
    return found


def _partitions_owned(port: int, stage: str = "tables") -> int:
    return sum(
        1
        for name, labels, _ in _samples(port)
        if name == "railbird_kafka_assigned_partition" and labels.get("stage") == stage
    )


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


def assert_exactly_scans(lane: Lane, stream: Stream) -> None:
    """Every event stored once, and `scan`'s flags and actions, in the store and on the topics,
    private in-hand flags and lobby bot waves among them."""
    assert lane.stored_ids() == stream.event_ids
    assert lane.stored_events() == stream.count  # one row per event: no duplicates
    assert_same_flags(lane.stored_flags(), stream.scan_flags)
    # The topic may carry a flag twice (re-sent after a crash), never a flag scan lacks.
    assert_same_flags(lane.topic_flags(), stream.scan_flags)
    lane.assert_actions_are_scans(stream)
    assert {"lobby_waves", "in_hand_influence"} <= lane.flag_detectors()


def test_one_worker_flags_exactly_what_scan_flags(lane: Lane, stream: Stream) -> None:
    lane.produce(stream.events)
    worker = lane.start_worker("--exit-when-idle", "2")
    assert _exits(worker, 180) == 0, lane.worker_log(0)[-3000:]
    assert_exactly_scans(lane, stream)
    log = lane.worker_log(0)
    assert "0 dead letters" in _summary(log) and "0 dead letters" in _summary(log, "keyed")
    assert "0 late" in _summary(log, "keyed")  # every lane record within its sources' marks


# A single worker killed mid-stream (checked while it is stopped, so it cannot finish first)
# and started again: it restores each task's snapshot and replays what followed. Fetching is
# paused and resumed all along (20 records buffered a partition at most: kafka-python once
# left a resumed partition stalled for good, see `internals.restore_parked`).
@pytest.mark.parametrize(
    "lane", [{"max_poll_records": 100, "max_buffered_per_partition": 20}], indirect=True
)
def test_one_worker_killed_9_and_restarted_restores_its_snapshots(
    lane: Lane, stream: Stream
) -> None:
    lane.produce(stream.events)
    first = lane.start_worker()
    with lane.committed_counter() as committed:
        _run_in_slices_until(
            first,
            lambda: (
                lane.stored_events() >= stream.count // 2
                and committed() >= stream.count // 3
                and "[keyed]: keyed stage: state snapshot" in lane.worker_log(0)
            ),
            120,
        )
    children = descendants(first.pid)  # the keyed stage's process and the store's
    assert len(children) >= 2, children
    first.send_signal(signal.SIGKILL)  # still stopped: it dies mid-stream, whatever its speed
    first.wait(10)
    # They learn of it from their pipes and exit: no orphan goes on consuming or writing.
    wait_for(lambda: not any(alive(pid) for pid in children), 60, "the worker's children")
    assert lane.stored_events() < stream.count, "the worker should die mid-stream"
    second = lane.start_worker("--exit-when-idle", "2")
    assert _exits(second, 240) == 0, lane.worker_log(1)[-3000:]
    log = lane.worker_log(1)
    for stage in ("tables", "keyed", "escalation"):
        assert f"{stage} task 0: restored state snapshot {stage}:0@" in log, stage
    assert "replaying offsets" in log
    assert_exactly_scans(lane, stream)


def _start_one_by_one(lane: Lane, count: int) -> list[tuple[subprocess.Popen[bytes], int]]:
    """`count` workers, each started once the previous ones share the partitions (two members
    joining an empty group at once can leave kafka-python stuck mid-rebalance)."""
    started: list[tuple[subprocess.Popen[bytes], int]] = []
    for n in range(count):
        port = free_port()
        process = lane.start_worker("--metrics-port", str(port), "--exit-when-idle", "3")
        started.append((process, port))

        def sharing() -> bool:
            return all(
                _partitions_owned(p, stage) > 0
                for _, p in started
                for stage in ("tables", "keyed", "escalation")
            )

        wait_for(sharing, 120, f"{n + 1} workers sharing every stage's partitions")
    return started


# One, two and three workers, produced live; one of them (chosen at random) killed with kill -9
# at a random point, and started again later, once the others have gone on without it. Every
# stage's partitions are shared: the keyed stage's (tournaments, bot-wave texts, players) are
# owned by more than one worker, as /metrics says. Flags and actions must be `scan`'s, private
# in-hand flags and lobby waves among them, and every worker exits by itself once the
# deployment is done.
@pytest.mark.parametrize(
    ("lane", "workers"),
    [({"max_poll_records": 100}, 1), ({"max_poll_records": 100}, 2), ({}, 3)],
    indirect=["lane"],
)
def test_workers_one_killed_9_and_restarted_give_scans_flags_and_actions(
    lane: Lane, stream: Stream, workers: int
) -> None:
    rng = random.Random(workers)
    started = _start_one_by_one(lane, workers)
    if workers > 1:
        # A scrape during a rebalance can catch a member that has not yet dropped the gauges of
        # partitions it gave up (seen: 2 + 3 + 2 of 6): wait for the assignment to settle.
        def keyed_owned() -> list[int]:
            return [_partitions_owned(port, "keyed") for _, port in started]

        wait_for(lambda: sum(keyed_owned()) == PARTITIONS, 60, "keyed partitions owned once")
        keyed = keyed_owned()
        assert sum(1 for owned in keyed if owned) == workers, keyed
        assert sum(keyed) == PARTITIONS  # shared, not one owner with standbys
    victim = rng.randrange(workers)
    doomed, _ = started[victim]
    producing = _producing(lane, stream, rate=500)
    share = rng.uniform(0.2, 0.6)
    with lane.committed_counter() as committed:
        wait_for(lambda: committed() >= stream.count * share, 120, "the kill point")
        doomed.send_signal(signal.SIGKILL)
        doomed.wait(10)
        producing.join(90)
        if workers > 1:  # the others take its partitions over and go on; it comes back later
            wait_for(lambda: committed() >= stream.count * 0.9, 180, "the others to go on")
    back = lane.start_worker("--exit-when-idle", "3")
    for process, _ in started:
        if process is not doomed:
            assert _exits(process, 360) == 0, lane.worker_log(lane.workers.index(process))[-3000:]
    try:
        code = _exits(back, 360)
    except subprocess.TimeoutExpired:
        back.kill()
        pytest.fail(f"the restarted worker never went idle: {lane.worker_log(workers)[-6000:]}")
    assert code == 0, lane.worker_log(workers)[-3000:]
    assert_exactly_scans(lane, stream)


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
    assert "0 dead letters" in _summary(lane.worker_log(0), "keyed")  # stored once, not twice


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


def test_a_worker_whose_keyed_stage_dies_stops_cleanly_and_says_so(lane: Lane) -> None:
    """The keyed stage is a child process: if it dies, the worker must not go on as half a
    worker (its keyed detectors silently gone), but stop, committing, and exit non-zero so that
    its supervisor restarts it whole."""
    port = free_port()
    worker = lane.start_worker("--metrics-port", str(port))
    wait_for(
        lambda: _partitions_owned(port) > 0 and _partitions_owned(port, "keyed") == PARTITIONS,
        90,
        "both stages to own their partitions",
    )
    family = descendants(worker.pid)
    (keyed,) = re.findall(r"keyed stage runs in process (\d+)", lane.worker_log(0))
    assert int(keyed) in family, family
    os.kill(int(keyed), signal.SIGKILL)
    assert _exits(worker, 60) == 1, lane.worker_log(0)[-3000:]
    log = lane.worker_log(0)
    assert "keyed stage process exited with code -9" in log
    assert "railbird run (tables stage):" in log  # it finished its batch and committed
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
