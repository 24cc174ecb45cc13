"""The upstream half of the escalation stage: the offences topic and each stage's marks.

The table and site stages decide no actions themselves (two ladders for one player would
disagree with `scan`): they send each flag's offences to `offences_topic_name`, keyed by player,
and tell every partition of it, per input source they own, how far they have got
(`rules.escalation` says what a mark promises). A mark is sent only after the producer is
flushed, so every offence it covers is on the broker before it.

A source's mark is the oldest of its partitions' bounds, where a partition's bound is:
- the event time of its next buffered record, if any (what follows it is no older);
- if it is caught up and has nothing buffered: the worker's clock as it was `hold` seconds
  ago (what was produced before that has arrived by now, as the site stage's merge assumes);
- else (still fetching) the last event time processed from it.
A partition being replayed after a takeover sends nothing (its previous owner's marks stand);
one newly assigned first sends `HOLD`, so a restart after the stream had ended holds the
ladders again; one whose stream ended (`--exit-when-idle`) sends `END`.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from datetime import datetime

from kafka import KafkaAdminClient
from kafka.admin import NewTopic
from kafka.errors import KafkaError, TopicAlreadyExistsError

from railbird.ingest.kafka.client_types import Producer, TopicPartition
from railbird.ingest.kafka.outputs import send_marks
from railbird.ingest.kafka.progress import PartitionProgress
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.rules.escalation import END, HOLD

log = logging.getLogger(__name__)


def ensure_offences_topic(settings: KafkaSettings, partitions: int) -> None:
    """Create the offences topic if it is missing: as many partitions as the inputs (one
    ladder's players per partition), kept `offences_retention_ms` (a restart with no state
    snapshot rebuilds the ladders from what is kept: it must cover the strike window)."""
    admin = KafkaAdminClient(
        bootstrap_servers=settings.bootstrap_list(), client_id=settings.client_id
    )
    try:
        admin.create_topics(
            [
                NewTopic(
                    settings.offences_topic_name,
                    num_partitions=partitions,
                    replication_factor=settings.state_replication,
                    topic_configs={"retention.ms": str(settings.offences_retention_ms)},
                )
            ]
        )
        log.info("created offences topic %s", settings.offences_topic_name)
    except TopicAlreadyExistsError:
        pass
    finally:
        admin.close()


def source_of(stage: str, tp: TopicPartition) -> str:
    """The mark source an input partition belongs to in `stage`."""
    return "site" if stage == "site" else f"tables:{tp.partition}"


class Marks:
    """What one stage has told the escalation stage, and what it should tell it now."""

    def __init__(
        self,
        settings: KafkaSettings,
        producer: Producer,
        stage: str,
        hold_seconds: float,
        clock: Callable[[], float],
    ) -> None:
        self.settings = settings
        self.producer = producer
        self.stage = stage
        self.hold = hold_seconds
        self._now = clock
        self.partitions = 0  # of the offences topic; 0 until `ensure_offences_topic` ran
        self.unflushed = False  # offences sent since the last flush
        self._sent: dict[str, datetime] = {}
        self._clock_samples: deque[tuple[float, datetime]] = deque()
        self._next = 0.0

    def processed(self, clock: datetime | None) -> None:
        """The worker's clock after a batch (remembered to know it `hold` seconds later)."""
        if clock is None:
            return
        samples = self._clock_samples
        now = self._now()
        if not samples or samples[-1][1] != clock:
            samples.append((now, clock))
        while len(samples) > 1 and samples[1][0] <= now - self.hold:
            samples.popleft()

    def hold_sources(self, tps: Iterable[TopicPartition]) -> None:
        """Newly assigned partitions: their sources hold the ladders until they say more."""
        sources = {source_of(self.stage, tp) for tp in tps}
        self._send(dict.fromkeys(sorted(sources), HOLD), flush_after=True)

    def forget(self, tps: Iterable[TopicPartition]) -> None:
        """Partitions given up: their new owner speaks for them now."""
        for tp in tps:
            self._sent.pop(source_of(self.stage, tp), None)

    def end(self, tps: Iterable[TopicPartition]) -> None:
        """The stream of these partitions has ended (exit when idle)."""
        sources = {source_of(self.stage, tp) for tp in tps}
        self._send(dict.fromkeys(sorted(sources), END), flush_after=True)

    def maybe_send(
        self,
        progress: dict[TopicPartition, PartitionProgress],
        head_time: Callable[[TopicPartition], datetime | None],
        caught_up: Callable[[TopicPartition], bool],
        force: bool = False,
    ) -> None:
        """Send the sources' marks that moved, at most every `commit_interval_ms`."""
        now = self._now()
        if not force and now < self._next:
            return
        self._next = now + self.settings.commit_interval_ms / 1000
        by_source: dict[str, list[TopicPartition]] = {}
        for tp in progress:
            by_source.setdefault(source_of(self.stage, tp), []).append(tp)
        moved: dict[str, datetime] = {}
        for source, tps in by_source.items():
            bounds = [self._bound(tp, progress[tp], head_time, caught_up) for tp in tps]
            if any(b is None for b in bounds):
                continue
            until = min(b for b in bounds if b is not None)
            if self._sent.get(source) != until:
                moved[source] = until
        if moved:
            self._send(moved, flush_after=False)

    def _bound(
        self,
        tp: TopicPartition,
        progress: PartitionProgress,
        head_time: Callable[[TopicPartition], datetime | None],
        caught_up: Callable[[TopicPartition], bool],
    ) -> datetime | None:
        if progress.processed is None or progress.processed < progress.replay_until:
            return None  # not started, or replaying: the previous owner's marks stand
        head = head_time(tp)
        if head is not None:
            return head
        if caught_up(tp):
            return self._clock_ago()
        return progress.last_time

    def _clock_ago(self) -> datetime | None:
        cutoff = self._now() - self.hold
        found = None
        for when, clock in self._clock_samples:
            if when > cutoff:
                break
            found = clock
        return found

    def _send(self, marks: dict[str, datetime], *, flush_after: bool) -> None:
        if not marks or self.partitions <= 0:
            return
        try:
            if self.unflushed:
                self.producer.flush()  # every offence a mark covers is on the broker first
                self.unflushed = False
            send_marks(self.settings, self.producer, marks, self.partitions)
            if flush_after:
                self.producer.flush()
        except KafkaError as exc:  # the broker away: said again at the next interval
            log.warning("marks not sent (%s): the escalation stage waits", exc)
            return
        self._sent.update(marks)
