"""Where the Kafka worker and producer connect and how they behave, from `RAILBIRD_KAFKA_*`.

Read only in the commands' `main` (never at import), so tests and the benchmark can point a
subprocess at a fresh broker, topic set or consumer group through its environment alone.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class KafkaSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAILBIRD_KAFKA_", extra="ignore")

    bootstrap_servers: str = "127.0.0.1:9092"
    group_id: str = "railbird"
    client_id: str = "railbird"
    # Which stages this process runs (`kafka.topology`): "tables" (the input topics, keyed by
    # table: partitions shared by the members of `group_id`), "keyed" (the re-keyed internal
    # topic: tournaments, texts, players; group `<group_id>-keyed`), "escalation" (one ladder
    # per player: group `<group_id>-escalation`), or all three.
    stage: Literal["all", "tables", "keyed", "escalation"] = "all"

    chat_topic: str = "chat.messages"
    table_topic: str = "poker.table-events"
    hand_topic: str = "poker.hands"
    flags_topic: str = "moderation.flags"
    actions_topic: str = "moderation.actions"
    dlq_suffix: str = ".dlq"
    # The internal topic the stages send each flag's offences to, keyed by player, for the
    # escalation stage (`rules.escalation`); empty: `<group_id>-offences`. Created by the
    # workers (as many partitions as the inputs) unless it exists.
    offences_topic: str = ""
    offences_retention_ms: int = Field(default=7 * 86400 * 1000, ge=3600 * 1000)
    # Partitions of the re-keyed internal topic `<group_id>-keyed` (0: as many as the inputs):
    # the keyed stage's parallelism (tournaments, bot-wave texts, players). Fixed once created.
    keyed_partitions: int = Field(default=0, ge=0)
    # How long the internal topics keep their records: a restart replays them from the state
    # snapshot its commit names, so this must cover a snapshot interval with a wide margin.
    internal_retention_ms: int = Field(default=86400 * 1000, ge=3600 * 1000)

    # How long a client waits for the first broker to answer before giving up at start.
    bootstrap_timeout_ms: int = Field(default=30000, ge=1)
    # Also the most records one cycle processes before it stores, produces and commits.
    max_poll_records: int = Field(default=1000, ge=1)
    # Store, flush and commit at most this often (and after store_batch_events events).
    commit_interval_ms: int = Field(default=500, ge=0)
    # Events handed to the store in one write, at most: larger transactions cost the store
    # process less CPU a row (`make bench-store`, docs/design-numbers.md); a crash replays at
    # most this many more events (idempotent writes). A busy worker usually reaches
    # commit_interval_ms first.
    store_batch_events: int = Field(default=10000, ge=1)
    poll_timeout_ms: int = Field(default=100, ge=0)
    # Buffered-but-unprocessed records per partition before fetching from it pauses.
    max_buffered_per_partition: int = Field(default=5000, ge=1)
    # How long a record may wait for a lagging input partition to catch up before it is
    # processed anyway (the input topics' event-time merge). Live, caught-up partitions never
    # make anything wait.
    max_merge_wait_ms: int = Field(default=5000, ge=0)
    # The table stage's own merge of a partition's three input topics holds a live record this
    # long while one of them has nothing buffered (off by default, for latency: a table's
    # records share a partition number and arrive together).
    merge_hold_ms: int = Field(default=0, ge=0)
    # What a caught-up input partition promises downstream (`kafka.marks`): nothing more
    # before the event time the worker had reached this long before its last fetch, so records
    # produced just before it on other partitions are on the broker by then. Every re-keyed
    # record (tournaments, texts, private messages' hands) and every action waits this long
    # at least. Two partitions' fetch answers differ by milliseconds; a cluster whose brokers
    # pause (GC) longer than this should raise it; a replay far faster than real time needs
    # a longer one (the tests set one).
    mark_hold_ms: int = Field(default=100, ge=0)
    # How often a stage tells the stages downstream how far it has got (a mark record per
    # downstream partition): the floor of every re-keyed record's latency.
    mark_interval_ms: int = Field(default=20, ge=1)
    # Checkpointed state (`kafka.snapshots`): how often a stage writes each task's state to
    # `<group_id>-<stage>-state`; a restart or takeover restores the newest one its commit
    # names and replays only what came after (a task with none writes one when it starts).
    snapshot_interval_seconds: float = Field(default=300.0, gt=0)
    state_replication: int = Field(default=1, ge=1)  # internal topics' replication factor
    session_timeout_ms: int = Field(default=10000, ge=6000)
    heartbeat_interval_ms: int = Field(default=1000, ge=100)

    # Which registered detectors run: "all", "none" (the worker's own overhead alone, for the
    # benchmark), or a comma-separated list of detector names.
    detectors: str = "all"

    # Prometheus text endpoint (0 = off) and the period of the INFO metrics line.
    metrics_port: int = Field(default=0, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"
    log_interval_seconds: float = Field(default=10.0, gt=0)

    # Producer tuning.
    linger_ms: int = Field(default=5, ge=0)
    batch_bytes: int = Field(default=262144, ge=1024)
    compression: str = "auto"  # auto = lz4 when the lz4 package is installed, else none

    def group_of(self, stage: str) -> str:
        """The consumer group a stage's members share (the table stage's is `group_id`)."""
        return self.group_id if stage == "tables" else f"{self.group_id}-{stage}"

    @property
    def offences_topic_name(self) -> str:
        return self.offences_topic or f"{self.group_id}-offences"

    @property
    def keyed_topic(self) -> str:
        """Records re-keyed by tournament, text or player for the keyed stage."""
        return f"{self.group_id}-keyed"

    @property
    def hands_topic(self) -> str:
        """Private messages re-keyed by the table of the hand they can sway (co-partitioned
        with the inputs, read by the table stage)."""
        return f"{self.group_id}-hands"

    @property
    def input_topics(self) -> tuple[str, str, str]:
        return (self.chat_topic, self.table_topic, self.hand_topic)

    def state_topic(self, stage: str) -> str:
        """Where a stage checkpoints its tasks' state (`kafka.snapshots`)."""
        return f"{self.group_id}-{stage}-state"

    def dlq_topic(self, topic: str) -> str:
        return f"{topic}{self.dlq_suffix}"

    def topic_for_type(self, event_type: object) -> str | None:
        return {
            "chat": self.chat_topic,
            "table": self.table_topic,
            "hand": self.hand_topic,
        }.get(event_type if isinstance(event_type, str) else "")

    def detector_names(self) -> set[str] | None:
        """None = every registered detector."""
        choice = self.detectors.strip()
        if choice == "all":
            return None
        if choice in ("", "none"):
            return set()
        return {name.strip() for name in choice.split(",") if name.strip()}

    def bootstrap_list(self) -> list[str]:
        return [s.strip() for s in self.bootstrap_servers.split(",") if s.strip()]
