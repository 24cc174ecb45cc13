"""A stage's task state checkpointed to a compacted topic, so a restart or a takeover resumes
with the state `scan` would have, however long ago it was built.

How (the changelog idea of Kafka Streams and Quix Streams, with snapshots instead of one
record per state change, because detector state is a few large objects, not many small ones):
when a task starts without one, and then every `snapshot_interval_seconds`, the runtime writes
each task's state (its pipelines, lanes and views: `kafka.runtime.Stage.snapshot`) with the
offsets it covers to `<group>-<stage>-state`. The commits after it name it (`kafka.resume`). A
worker that takes a task over (or restarts) loads the snapshot named there, restores it, and
replays only the records between the snapshot and the commit, outputs discarded.

Layout of the topic (one partition, compacted): a snapshot's bytes in chunks of `CHUNK_BYTES`
keyed `<id>#<n>`, then its manifest keyed `<id>` (chunk count and offsets); ids are
`<key>@<random>`, the key naming the task it covers (`tables:3`, `keyed:0`, `escalation:5`).
The manifest is sent after its chunks on the same partition, so a reader that sees it sees them.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import orjson
from kafka import KafkaConsumer
from kafka import TopicPartition as KafkaTopicPartition
from kafka.errors import KafkaError

from railbird.ingest.kafka.client_types import Producer, SendResult, TopicPartition
from railbird.ingest.kafka.clients import ensure_topic
from railbird.ingest.kafka.settings import KafkaSettings

log = logging.getLogger(__name__)

SAVE_TIMEOUT_SECONDS = 60.0
READ_TIMEOUT_SECONDS = 120.0
CHUNK_BYTES = 512 * 1024  # under every client's and broker's default 1 MB record limit
# Compacted, with segments rolled often enough that superseded snapshots go within minutes.
TOPIC_CONFIG = {
    "cleanup.policy": "compact",
    "segment.ms": "600000",
    "min.cleanable.dirty.ratio": "0.1",
    "delete.retention.ms": "60000",
}


@dataclass(frozen=True, slots=True)
class Snapshot:
    snapshot_id: str
    offsets: dict[TopicPartition, int]  # the next offset of each input partition it covers
    state: bytes


class SnapshotStore:
    """Writes a stage's snapshots and reads them back, on `settings.state_topic(stage)`.

    A snapshot is tombstoned (and compaction then drops it) only once a commit naming a newer
    one of the same key has succeeded: whatever the last successful commit names is there,
    whether later snapshots were written or a crash came between a snapshot and its commit."""

    def __init__(self, settings: KafkaSettings, producer: Producer, stage: str) -> None:
        self.settings = settings
        self.producer = producer
        self.topic = settings.state_topic(stage)
        self._generations: dict[str, list[tuple[str, int]]] = {}  # key -> [(id, chunks)]

    def ensure_topic(self) -> None:
        """Create the state topic if it is missing (one partition, compacted)."""
        ensure_topic(self.settings, self.topic, 1, TOPIC_CONFIG)

    def save(self, key: str, offsets: dict[TopicPartition, int], state: bytes) -> str:
        """Send one snapshot and wait until the broker has all of it (a commit must never name
        a snapshot that did not arrive); raises `KafkaError` if it did not."""
        snapshot_id = f"{key}@{uuid.uuid4().hex[:16]}"
        chunks = [state[i : i + CHUNK_BYTES] for i in range(0, len(state), CHUNK_BYTES)] or [b""]
        sent = [self._send(f"{snapshot_id}#{n}", chunk) for n, chunk in enumerate(chunks)]
        manifest = {
            "chunks": len(chunks),
            "offsets": [[tp.topic, tp.partition, offset] for tp, offset in offsets.items()],
        }
        sent.append(self._send(snapshot_id, orjson.dumps(manifest)))
        self.producer.flush(timeout=SAVE_TIMEOUT_SECONDS)
        for result in sent:
            result.get(timeout=SAVE_TIMEOUT_SECONDS)
        self._generations.setdefault(key, []).append((snapshot_id, len(chunks)))
        return snapshot_id

    def committed(self, snapshot_id: str) -> None:
        """A commit naming `snapshot_id` succeeded: the key's older snapshots can go (never
        before, so the snapshot the last commit names is always there)."""
        key = snapshot_id.partition("@")[0]
        kept = self._generations.get(key, [])
        ids = [sid for sid, _ in kept]
        if snapshot_id not in ids:
            return
        index = ids.index(snapshot_id)
        for old, count in kept[:index]:
            for n in range(count):
                self._send(f"{old}#{n}", None)
            self._send(old, None)
        del kept[:index]

    def load(self, ids: Iterable[str]) -> dict[str, Snapshot]:
        """The snapshots named `ids` that are complete on the topic (a broken one is left out,
        with a warning). Every snapshot found is remembered, oldest first, for `committed`."""
        wanted = set(ids)
        manifests: dict[str, dict[str, Any]] = {}
        chunks: dict[str, bytes] = {}
        for name, value in self._read_all():
            if "#" in name:
                if value is None:
                    chunks.pop(name, None)
                elif name.partition("#")[0] in wanted:
                    chunks[name] = value
            elif value is None:
                manifests.pop(name, None)
            else:
                try:
                    manifest = orjson.loads(value)
                    manifests[name] = {"chunks": int(manifest["chunks"]), **manifest}
                except (orjson.JSONDecodeError, KeyError, TypeError, ValueError):
                    log.warning("unreadable snapshot manifest %s on %s", name, self.topic)
        found: dict[str, Snapshot] = {}
        for sid in sorted(wanted & set(manifests)):
            manifest = manifests[sid]
            parts = [chunks.get(f"{sid}#{n}") for n in range(manifest["chunks"])]
            try:
                offsets = {
                    TopicPartition(str(t), int(p)): int(o) for t, p, o in manifest["offsets"]
                }
            except (KeyError, TypeError, ValueError):
                offsets = {}
            if any(part is None for part in parts) or not offsets:
                log.warning("snapshot %s is incomplete on %s: not used", sid, self.topic)
                continue
            found[sid] = Snapshot(sid, offsets, b"".join(p for p in parts if p is not None))
        for sid, manifest in manifests.items():  # topic order: oldest first
            generations = self._generations.setdefault(sid.partition("@")[0], [])
            if all(sid != known for known, _ in generations):
                generations.append((sid, manifest["chunks"]))
        return found

    def _send(self, name: str, value: bytes | None) -> SendResult:
        return self.producer.send(self.topic, key=name.encode(), value=value, partition=0)

    def _read_all(self) -> list[tuple[str, bytes | None]]:
        consumer = KafkaConsumer(
            bootstrap_servers=self.settings.bootstrap_list(),
            client_id=f"{self.settings.client_id}-state",
            enable_auto_commit=False,
            group_id=None,
            max_partition_fetch_bytes=4 * CHUNK_BYTES,
        )
        try:
            tp = KafkaTopicPartition(self.topic, 0)
            consumer.assign([tp])
            consumer.seek_to_beginning(tp)
            end = consumer.end_offsets([tp])[tp]
            records: list[tuple[str, bytes | None]] = []
            deadline = time.monotonic() + READ_TIMEOUT_SECONDS
            while consumer.position(tp) < end:
                if time.monotonic() > deadline:
                    log.warning("%s not read to its end in time: no snapshot used", self.topic)
                    return []
                for batch in consumer.poll(timeout_ms=500).values():
                    records.extend((r.key.decode(), r.value) for r in batch if r.key)
            return records
        except KafkaError as exc:
            log.warning("could not read %s (%s): no snapshot used", self.topic, exc)
            return []
        finally:
            consumer.close()
