"""Start and stop a real single-node Kafka broker for integration tests.

The broker is configured, formatted and launched by ``scripts/kafka/kafka.sh`` so that tests and
``make kafka-up`` run the very same setup. The script runs in the foreground here (it ``exec``s
the JVM), which keeps the broker a child of the test process: it can be stopped without pid
files, and a crashed broker is noticed at once instead of after a timeout.

Also a small command line (``python -m tests.integration.kafka_broker topics``) that creates the
contract's topics, used by ``kafka.sh topics``.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kafka import KafkaAdminClient
from kafka.errors import TopicAlreadyExistsError

from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.kafka.snapshots import TOPIC_CONFIG as STATE_TOPIC_CONFIG

log = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[2]
KAFKA_SCRIPT = REPO_ROOT / "scripts" / "kafka" / "kafka.sh"
READY_LINE = "Kafka Server started"
# Tests want a broker up fast more than at peak speed: the C1-only JIT starts it sooner
# (docs/design-numbers.md). KAFKA_JVM_OPTS in the environment (even empty) replaces it.
FAST_START_JVM_OPTS = "-XX:TieredStopAtLevel=1"

INPUT_TOPICS = ("chat.messages", "poker.table-events", "poker.hands")
OUTPUT_TOPICS = ("moderation.flags", "moderation.actions")


class BrokerUnavailableError(RuntimeError):
    """The broker could not be started: tools or jars missing, or it failed to come up."""


@dataclass
class Broker:
    """A running broker that this process started; ``stop()`` must be called."""

    bootstrap: str
    port: int
    controller_port: int
    workdir: Path
    process: subprocess.Popen[bytes] = field(repr=False)
    startup_seconds: float

    @property
    def log_path(self) -> Path:
        return self.workdir / "broker.log"

    def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM for a clean shutdown (flushed logs, clean-shutdown marker), SIGKILL after
        ``timeout``. Returns the exit status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                log.warning("broker pid %d ignored SIGTERM for %.0f s", self.process.pid, timeout)
                self.process.kill()
                self.process.wait(10)
        (self.workdir / "broker.pid").unlink(missing_ok=True)
        return self.process.returncode

    def log_tail(self, lines: int = 40) -> str:
        return tail(self.log_path, lines)


def tail(path: Path, lines: int) -> str:
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


def contract_topics(settings: KafkaSettings | None = None) -> list[str]:
    """Every topic in CONTRACT.md: inputs, their dead-letter topics, outputs (named as the
    `RAILBIRD_KAFKA_*_TOPIC` settings name them, when given)."""
    if settings is None:
        return [*INPUT_TOPICS, *(f"{t}.dlq" for t in INPUT_TOPICS), *OUTPUT_TOPICS]
    inputs = settings.input_topics
    outputs = (settings.flags_topic, settings.actions_topic)
    return [*inputs, *(settings.dlq_topic(t) for t in inputs), *outputs]


def internal_topics(settings: KafkaSettings) -> dict[str, tuple[int | None, dict[str, str]]]:
    """The workers' own topics, each with its partition count (None: the inputs') and
    configuration: the offences topic, the re-keyed topics and every stage's compacted state
    topic (the workers create any that are missing themselves)."""
    state = dict(STATE_TOPIC_CONFIG)
    internal = {"retention.ms": str(settings.internal_retention_ms)}
    return {
        settings.offences_topic_name: (
            None,
            {"retention.ms": str(settings.offences_retention_ms)},
        ),
        settings.keyed_topic: (settings.keyed_partitions or None, internal),
        settings.hands_topic: (None, internal),
        **{settings.state_topic(stage): (1, state) for stage in ("tables", "keyed", "escalation")},
    }


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def check_tools() -> None:
    """Fail early with the reason, rather than with a confusing script error."""
    if shutil.which("java") is None:
        raise BrokerUnavailableError("java (17 or newer) is not on PATH")
    if not KAFKA_SCRIPT.is_file():
        raise BrokerUnavailableError(f"{KAFKA_SCRIPT} is missing")


def fetch_jars(timeout: float = 900.0) -> None:
    """Resolve the jars once (a no-op when cached); needs mvn only when they are missing."""
    try:
        result = subprocess.run(
            ["bash", str(KAFKA_SCRIPT), "fetch"],
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        raise BrokerUnavailableError(f"fetching the Kafka jars took over {timeout:.0f} s") from exc
    if result.returncode != 0:
        raise BrokerUnavailableError(f"kafka.sh fetch failed:\n{result.stderr[-3000:]}")


def start_broker(
    workdir: Path,
    port: int | None = None,
    *,
    controller_port: int | None = None,
    timeout: float = 120.0,
    jvm_opts: str | None = None,
) -> Broker:
    """Start a broker in ``workdir`` (free ports unless given) and wait until it serves.

    A port picked free can be taken by someone else before the JVM binds it, so a bind failure
    is retried with new ports when the ports were not given.
    """
    check_tools()
    fetch_jars()
    if jvm_opts is None:
        jvm_opts = os.environ.get("KAFKA_JVM_OPTS", FAST_START_JVM_OPTS)
    attempts = 1 if port is not None else 3
    for attempt in range(1, attempts + 1):
        try:
            return _start_once(
                workdir,
                port if port is not None else free_port(),
                controller_port if controller_port is not None else free_port(),
                timeout,
                jvm_opts,
            )
        except BrokerUnavailableError as exc:
            if attempt == attempts or "Address already in use" not in str(exc):
                raise
            log.warning("port taken while the broker started; retrying with other ports")
    raise AssertionError("unreachable")


def _start_once(
    workdir: Path, port: int, controller_port: int, timeout: float, jvm_opts: str
) -> Broker:
    workdir.mkdir(parents=True, exist_ok=True)
    log_path = workdir / "broker.log"
    started = time.monotonic()
    command = [
        "bash",
        str(KAFKA_SCRIPT),
        "up",
        "--foreground",
        "--fresh",
        "--port",
        str(port),
        "--controller-port",
        str(controller_port),
        "--dir",
        str(workdir),
    ]
    with log_path.open("wb") as log_file:
        process = subprocess.Popen(
            command,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env={**os.environ, "KAFKA_DIR": str(workdir), "KAFKA_JVM_OPTS": jvm_opts},
        )
    broker = Broker(
        bootstrap=f"127.0.0.1:{port}",
        port=port,
        controller_port=controller_port,
        workdir=workdir,
        process=process,
        startup_seconds=0.0,
    )
    deadline = started + timeout
    while True:
        if READY_LINE in log_path.read_text(errors="replace"):
            broker.startup_seconds = time.monotonic() - started
            log.info("Kafka broker ready at %s in %.1f s", broker.bootstrap, broker.startup_seconds)
            return broker
        if process.poll() is not None:
            raise BrokerUnavailableError(
                f"the broker exited with status {process.returncode} before it was ready; "
                f"last lines of {log_path}:\n{broker.log_tail()}"
            )
        if time.monotonic() > deadline:
            broker.stop()
            raise BrokerUnavailableError(
                f"the broker was not ready after {timeout:.0f} s; last lines of {log_path}:\n"
                f"{broker.log_tail()}"
            )
        time.sleep(0.1)


def create_topics(
    bootstrap: str,
    names: Iterable[str],
    *,
    partitions: int = 6,
    replication_factor: int = 1,
    configs: dict[str, str] | None = None,
    timeout: float = 30.0,
) -> list[str]:
    """Create topics that do not exist yet and wait until every partition has a leader.

    Idempotent: a topic that already exists is left as it is (its partition count included).
    Returns the names that were newly created.
    """
    wanted = list(dict.fromkeys(names))
    spec: dict[str, dict[str, Any]] = {
        name: {
            "num_partitions": partitions,
            "replication_factor": replication_factor,
            "configs": dict(configs or {}),
        }
        for name in wanted
    }
    admin = KafkaAdminClient(
        bootstrap_servers=bootstrap,
        client_id="railbird-topics",
        request_timeout_ms=int(timeout * 1000),
    )
    try:
        response = admin.create_topics(spec, timeout_ms=int(timeout * 1000), raise_errors=False)
        created: list[str] = []
        for topic in response["topics"]:
            code = topic["error_code"]
            if code == 0:
                created.append(topic["name"])
            elif code != TopicAlreadyExistsError.errno:
                raise RuntimeError(
                    f"creating topic {topic['name']} failed: error {code} "
                    f"({topic.get('error_message')})"
                )
        admin.wait_for_topics(wanted, timeout_ms=int(timeout * 1000))
        return created
    finally:
        admin.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.integration.kafka_broker")
    sub = parser.add_subparsers(dest="command", required=True)
    topics = sub.add_parser(
        "topics",
        help="create the contract's topics and the workers' internal ones, named by the "
        "RAILBIRD_KAFKA_* settings (idempotent)",
    )
    topics.add_argument("--bootstrap", default="127.0.0.1:9092")
    topics.add_argument("--partitions", type=int, default=6)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(message)s", stream=sys.stderr)
    log.setLevel(logging.INFO)  # kafka-python is chatty at INFO
    settings = KafkaSettings()
    names = contract_topics(settings)
    created = create_topics(args.bootstrap, names, partitions=args.partitions)
    for name, (partitions, configs) in internal_topics(settings).items():
        created += create_topics(
            args.bootstrap,
            [name],
            partitions=partitions or args.partitions,
            configs=configs,
            replication_factor=settings.state_replication,
        )
        names.append(name)
    for name in names:
        log.info("%s %s", "created" if name in created else "exists ", name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
