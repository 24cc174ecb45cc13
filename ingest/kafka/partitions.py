"""The partition a keyed flag or action goes to, chosen here, once per key, instead of per send.

kafka-python's `DefaultPartitioner` runs a pure-Python murmur2 over the key on every send (plus
a sort of the partition ids and a list of the available ones), a real share of producing one
(`docs/design-numbers.md`). The outputs' keys are player ids that recur (a player's flags and
actions), so the answer is computed with the same arithmetic once per (key, partition layout)
and kept in a bounded table; the producer gets it as an explicit `partition=`. Records land
exactly where the producer's own partitioner would put them
(tests/ingest/test_output_partitions.py checks that against `DefaultPartitioner`). Only public
kafka-python names are used: the producer's `partitions_for` and `config`, and
`kafka.partitioner.murmur2`. Where the choice cannot be promised (a partitioner other than
kafka-python's keyed-hash ones, or a topic the producer knows no partitions of), it stays the
producer's.
"""

from __future__ import annotations

from collections.abc import Callable

from kafka.partitioner import DefaultPartitioner, StickyPartitioner, murmur2

from railbird.ingest.kafka.client_types import Producer

# Partitioners whose keyed records go to murmur2(key) over the sorted partition ids.
_KEY_HASHING = (DefaultPartitioner, StickyPartitioner)
MAX_KEYS = 1 << 16

Choose = Callable[[bytes | None], int | None]


def _producer_choice(key: bytes | None) -> int | None:
    return None


class KeyPartitions:
    """Per producer: the partition of each key on each output topic, as its partitioner picks."""

    def __init__(self, producer: Producer, max_keys: int = MAX_KEYS) -> None:
        partitioner = getattr(producer, "config", {}).get("partitioner")
        self._partitions_for = getattr(producer, "partitions_for", None)
        self._hashes = type(partitioner) in _KEY_HASHING and self._partitions_for is not None
        self._max_keys = max_keys
        # Keyed by the sorted partition ids: a topic that grows gets a fresh table.
        self._tables: dict[tuple[int, ...], dict[bytes, int]] = {}

    def chooser(self, topic: str) -> Choose:
        """Key -> partition for `topic` under its current metadata (None: let the producer pick).

        Read once per batch of outputs, like the partitioner's own metadata read per record: a
        partition-count change lands from the next batch on. The arithmetic is
        `DefaultPartitioner.partition`'s for a key, with kafka-python's own `murmur2`.
        """
        if not self._hashes:
            return _producer_choice
        assert self._partitions_for is not None
        known = self._partitions_for(topic)  # what `send` waits for too, if not known yet
        if not known:
            return _producer_choice
        layout = tuple(sorted(known))
        table = self._tables.get(layout)
        if table is None:
            table = self._tables[layout] = {}
        count = len(layout)
        max_keys = self._max_keys

        def choose(key: bytes | None) -> int | None:
            if key is None:
                return None  # random/sticky: the producer's business
            partition = table.get(key)
            if partition is None:
                partition = layout[(murmur2(key) & 0x7FFFFFFF) % count]
                if len(table) >= max_keys:
                    table.clear()
                table[key] = partition
            return partition

        return choose
