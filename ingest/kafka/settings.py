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
    # Which stages this process runs (see `kafka.stages`): "tables" (the table-scoped detectors,
    # partitions shared by every worker of `group_id`), "site" (the site-scoped ones, every
    # partition with one member of `<group_id>-site`, the others on standby), "escalation"
    # (one ladder per player: the offences topic's partitions shared by `<group_id>-escalation`)
    # or all three.
    stage: Literal["all", "tables", "site", "escalation"] = "all"

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
    # How long a record may wait for a lagging partition to catch up before it is processed
    # anyway (the event-time merge). Live, caught-up partitions never make anything wait.
    max_merge_wait_ms: int = Field(default=5000, ge=0)
    # The site stage's merge holds a live record this long while some partition is quiet, so
    # records produced just before it on other partitions arrive first (see kafka.merge); the
    # table stage's does not by default (latency: a table's records share a partition number).
    # Two partitions' fetch answers differ by milliseconds (one request per broker, answered
    # as soon as data is there; partitions of one broker come in the same answer), so 100 ms
    # leaves a wide margin at real-time rates and keeps site flags within the latency target
    # chat flags have; a replay far faster than real time needs a longer hold (the tests set
    # one). A cluster whose brokers pause (GC) for longer than the hold should raise it.
    site_merge_hold_ms: int = Field(default=100, ge=0)
    merge_hold_ms: int = Field(default=0, ge=0)
    # Event time replayed (outputs discarded) to rebuild detector state for a newly assigned
    # partition. Should cover the longest detector memory that matters: minutes for the table
    # stage's chat windows and hands; for the site stage, a tournament's sit-out and bounty
    # history (their detectors keep a tournament 6-8 h after its last event), so a deploy that
    # moves the site stage does not blind it for the rest of the day. The price: a site-stage
    # takeover re-reads that much of the whole stream before its flags are live again (the
    # table stage's are not delayed). The fallback: a partition with a state snapshot
    # (`snapshot_interval_seconds`) replays only from the snapshot.
    replay_window_seconds: float = Field(default=1800.0, ge=0)
    site_replay_window_seconds: float = Field(default=8 * 3600.0, ge=0)
    # Checkpointed detector state (`kafka.snapshots`): how often a stage writes its state to
    # `<group_id>-<stage>-state`, so a restart or takeover restores it and replays only what
    # came after (0: never; the replay windows above are then the only way back). A site-stage
    # snapshot of a busy evening is ~2 MB and ~5 s of one core (docs/design-numbers.md).
    snapshot_interval_seconds: float = Field(default=300.0, ge=0)
    state_replication: int = Field(default=1, ge=1)  # the state topic's replication factor
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

    @property
    def site_group_id(self) -> str:
        return f"{self.group_id}-site"

    @property
    def escalation_group_id(self) -> str:
        return f"{self.group_id}-escalation"

    @property
    def offences_topic_name(self) -> str:
        return self.offences_topic or f"{self.group_id}-offences"

    @property
    def input_topics(self) -> tuple[str, str, str]:
        return (self.chat_topic, self.table_topic, self.hand_topic)

    def state_topic(self, stage: str) -> str:
        """Where a stage checkpoints its detector state (`kafka.snapshots`)."""
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
