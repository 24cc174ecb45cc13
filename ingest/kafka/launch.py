"""`railbird run` wired: the topology, the internal topics, and the stages of this process.

The command line builds a `RunOptions` (typed: the settings, which stages, the store, the
policy) and calls `run`. Each stage is one `StreamRuntime` (`kafka.runtime`) with its own
consumer group, producer and store writer: the table stage in this process, the keyed stage in
a child process (`kafka.stage_process`: a core of its own), the escalation stage on a thread
(it handles only offences and marks, a small share of the records). `--stage` runs a subset, to
place the stages on different machines.
"""

from __future__ import annotations

import dataclasses
import logging
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

import orjson
from kafka.errors import KafkaError

from railbird.ingest.gc_tuning import tune_for_streaming
from railbird.ingest.kafka.checkpoint import Durable
from railbird.ingest.kafka.client_types import Producer
from railbird.ingest.kafka.clients import (
    BrokerUnreachable,
    TopicLayoutError,
    check_copartitioned,
    ensure_topic,
    make_consumer,
    make_producer,
    partition_count,
    unreachable,
)
from railbird.ingest.kafka.escalation_stage import EscalationStage
from railbird.ingest.kafka.internals import warm_up
from railbird.ingest.kafka.keyed_stage import KeyedStage
from railbird.ingest.kafka.metrics import StageFamilies, StageMetrics, serve_metrics
from railbird.ingest.kafka.runtime import Stage, StreamRuntime
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.stage_process import StageProcess
from railbird.ingest.kafka.table_stage import TableStage
from railbird.ingest.kafka.topology import Topology
from railbird.rules.detector_settings import detectors_for
from railbird.rules.policy_file import PolicyError, policy_at
from railbird.rules.policy_watch import PolicyWatch
from railbird.store.database import make_engine
from railbird.store.writer import StoreSink, StoreWriter
from railbird.store.writer_process import StoreProcess

log = logging.getLogger(__name__)

STAGES = ("tables", "keyed", "escalation")


@dataclass(frozen=True)
class RunOptions:
    """What `railbird run` was asked to do."""

    settings: KafkaSettings
    stages: tuple[str, ...] = STAGES  # which stages run in this process (and its children)
    database_url: str | None = None  # None: nothing is stored
    policy_path: Path | None = None  # None: the default policy
    exit_when_idle: float | None = None
    verbose: bool = False

    def to_json(self) -> bytes:
        """For a child process (plain JSON: nothing pickled)."""
        fields = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        fields["settings"] = self.settings.model_dump()
        fields["policy_path"] = None if self.policy_path is None else str(self.policy_path)
        return orjson.dumps(fields)

    @classmethod
    def from_json(cls, data: bytes) -> RunOptions:
        fields = orjson.loads(data)
        return cls(
            settings=KafkaSettings(**fields["settings"]),
            stages=tuple(fields["stages"]),
            database_url=fields["database_url"],
            policy_path=None if fields["policy_path"] is None else Path(fields["policy_path"]),
            exit_when_idle=fields["exit_when_idle"],
            verbose=bool(fields["verbose"]),
        )


class StartError(RuntimeError):
    """Why `railbird run` cannot start, in the one line the command prints."""


def topology_of(settings: KafkaSettings, policy_path: Path | None = None) -> Topology:
    """The deployment's topology: the inputs checked (present, co-partitioned) and the
    internal topics created where missing; its detectors built with the policy file's
    `[site]` and `[detectors.*]` (read at start: a worker takes changed ones when it restarts).
    Raises `StartError`."""
    try:
        detectors = detectors_for(policy_at(policy_path).detectors, settings.detector_names())
    except PolicyError as exc:
        raise StartError(str(exc)) from exc
    try:
        probe = make_consumer(settings, group_id=None, client_id=f"{settings.client_id}-layout")
    except KafkaError as exc:
        raise StartError(unreachable(settings, exc)) from exc
    try:
        inputs = check_copartitioned(probe, settings.input_topics)
        topology = Topology.of(detectors, inputs, settings.keyed_partitions)
        internal = {"retention.ms": str(settings.internal_retention_ms)}
        if topology.keyed_lanes:
            ensure_topic(settings, settings.keyed_topic, topology.keyed, internal)
        if topology.hand:
            ensure_topic(settings, settings.hands_topic, inputs, internal)
            found = partition_count(probe, settings.hands_topic)
            if found not in (0, inputs):
                raise TopicLayoutError(
                    f"{settings.hands_topic} has {found} partitions, the inputs {inputs}: it must "
                    "be co-partitioned with them (delete it; the workers recreate it)"
                )
        retention = {"retention.ms": str(settings.offences_retention_ms)}
        ensure_topic(settings, settings.offences_topic_name, inputs, retention)
        return topology
    except TopicLayoutError as exc:
        raise StartError(str(exc)) from exc
    except KafkaError as exc:
        raise StartError(unreachable(settings, exc)) from exc
    finally:
        probe.close()


def deployment(settings: KafkaSettings, topology: Topology) -> list[tuple[str, list[str]]]:
    """Every stage's consumer group and topics (what `--exit-when-idle` waits for)."""
    found = []
    if topology.table_stage:
        tables = list(settings.input_topics)
        if topology.hand:
            tables.append(settings.hands_topic)
        found.append((settings.group_of("tables"), tables))
    if topology.keyed_stage:
        found.append((settings.group_of("keyed"), [settings.keyed_topic]))
    found.append((settings.group_of("escalation"), [settings.offences_topic_name]))
    return found


def run(options: RunOptions) -> int:
    """Run this process's stages until stopped (or idle); 0 if every one ended well."""
    try:
        topology = topology_of(options.settings, options.policy_path)
    except StartError as exc:
        print(f"railbird run: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    wanted = set(options.stages)
    here = [
        s
        for s in STAGES
        if s in wanted
        and (s == "escalation" or (topology.table_stage if s == "tables" else topology.keyed_stage))
    ]
    heavy = [s for s in here if s != "escalation"]
    if not here:
        print("railbird run: no stage has anything to run here", file=sys.stderr)  # noqa: T201
        return 2
    stop = threading.Event()
    child = StageProcess(heavy[1], options.to_json(), child_main) if len(heavy) == 2 else None
    main_stage = heavy[0] if heavy else "escalation"
    ladders = (
        _StageThread(options, topology, "escalation", stop)
        if "escalation" in here and main_stage != "escalation"
        else None
    )

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("signal %d: finishing the batch, committing, exiting", signum)
        stop.set()
        if child is not None:
            child.stop()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    if child is not None:
        child.on_failure(stop.set)
    served: list[tuple[str, StageFamilies]] = []
    if child is not None:
        served.append((child.stage, child.metrics))
    if ladders is not None:
        served.append(("escalation", ladders.metrics))

    def publish(metrics: StageMetrics) -> None:
        served.insert(0, (metrics.stage, metrics))

    settings = options.settings
    server = None
    code, child_code = 1, 0
    try:
        if settings.metrics_port:
            server = serve_metrics(served, settings.metrics_host, settings.metrics_port)
        if ladders is not None:
            ladders.start()
        code = run_stage(options, topology, main_stage, stop, publish)
        if ladders is not None:
            ladders.join()  # idle: it ends once every ladder has; stopped: at once
    finally:
        if ladders is not None and ladders.is_alive():
            stop.set()
            ladders.join()
        if child is not None:
            if stop.is_set():
                child.stop()
            child_code = child.wait()  # a failure is logged by `child` itself
        if server is not None:
            server.shutdown()
    failed = (child is not None and child_code != 0) or (ladders is not None and ladders.code != 0)
    return code or (1 if failed else 0)


def child_main(
    data: bytes, stage: str, publish: Callable[[StageMetrics], None], stop: threading.Event
) -> int:
    """A stage in a child process (`kafka.stage_process`)."""
    options = RunOptions.from_json(data)
    logging.basicConfig(
        level=logging.INFO if options.verbose else logging.WARNING,
        format=f"%(asctime)s %(levelname)s %(name)s [{stage}]: %(message)s",
        stream=sys.stderr,
    )
    settings = options.settings.model_copy(update={"metrics_port": 0})  # the parent serves it
    options = dataclasses.replace(options, settings=settings)
    try:
        topology = topology_of(settings, options.policy_path)
    except StartError as exc:
        print(f"railbird run ({stage} stage): {exc}", file=sys.stderr)  # noqa: T201
        return 2
    return run_stage(options, topology, stage, stop, publish)


def run_stage(
    options: RunOptions,
    topology: Topology,
    name: str,
    stop: threading.Event,
    publish: Callable[[StageMetrics], None] | None = None,
) -> int:
    """One stage in this thread, until stopped or idle: 0, or 1 if it failed."""
    settings = options.settings
    try:
        consumer = make_consumer(
            settings, group_id=settings.group_of(name), client_id=f"{settings.client_id}-{name}"
        )
    except KafkaError as exc:
        print(f"railbird run ({name} stage): {unreachable(settings, exc)}", file=sys.stderr)  # noqa: T201
        return 2
    producer = make_producer(settings)
    warm_up(producer, (settings.flags_topic, settings.actions_topic, settings.offences_topic_name))
    metrics = StageMetrics(name)
    if publish is not None:
        publish(metrics)
    code = 0
    close_store: Callable[[], None] = _nothing
    try:
        stage, store, close_store = _stage(options, topology, name, producer)
        runtime = StreamRuntime(
            settings,
            stage,
            consumer,
            producer,
            store,
            metrics,
            deployment(settings, topology),
        )
        if name != "escalation":
            tune_for_streaming()
        log.info(
            "railbird run: %s stage (group %s), %d input partitions, %d keyed",
            name,
            settings.group_of(name),
            topology.inputs,
            topology.keyed,
        )
        runtime.run(stop, exit_when_idle=options.exit_when_idle)
    except Exception:
        log.exception("%s stage failed", name)
        code = 1
        stop.set()
    finally:
        close_store()
        producer.flush()
        producer.close()
        consumer.close(autocommit=False)
    print(f"railbird run ({name} stage): {metrics.summary()}", file=sys.stderr)  # noqa: T201
    return code


def _stage(
    options: RunOptions, topology: Topology, name: str, producer: Producer
) -> tuple[Stage, Durable | None, Callable[[], None]]:
    """The stage, its store writer and how to close it. The table stage writes every event:
    in a child process (`store.writer_process`), off its core; the others write only flags and
    actions, in their own thread."""
    settings, url = options.settings, options.database_url
    if name == "tables":
        process = StoreProcess(url) if url is not None else None
        table = TableStage(settings, topology, producer, process, topology.inputs)
        return table, process, (process.close if process is not None else _nothing)
    engine = make_engine(url) if url is not None else None
    sink = StoreSink(StoreWriter(engine)) if engine is not None else None
    close = engine.dispose if engine is not None else _nothing
    if name == "keyed":
        return KeyedStage(settings, topology, producer, sink, topology.inputs), sink, close
    policy = PolicyWatch(options.policy_path)
    sources = topology.escalation_sources()
    return EscalationStage(settings, sources, producer, sink, policy), sink, close


def _nothing() -> None:
    pass


class _StageThread:
    """A stage on a thread of this process (the escalation stage beside the table stage)."""

    def __init__(
        self, options: RunOptions, topology: Topology, name: str, stop: threading.Event
    ) -> None:
        self.options = options
        self.topology = topology
        self.name = name
        self.stop = stop
        self.metrics = _LateFamilies()
        self.code = 0
        self._thread = threading.Thread(target=self._run, name=f"railbird-{name}", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def join(self) -> None:
        self._thread.join()

    def is_alive(self) -> bool:
        return self._thread.is_alive()

    def _run(self) -> None:
        self.code = run_stage(self.options, self.topology, self.name, self.stop, self.metrics.set)
        if self.code != 0:
            self.stop.set()


class _LateFamilies:
    """A stage's metrics, once its thread has made them."""

    def __init__(self) -> None:
        self._metrics: StageMetrics | None = None

    def set(self, metrics: StageMetrics) -> None:
        self._metrics = metrics

    def families(self) -> list[tuple[str, str, str, list[str], list[tuple[list[str], float]]]]:
        return [] if self._metrics is None else self._metrics.families()


__all__ = ["BrokerUnreachable", "RunOptions", "StartError", "run", "topology_of"]
