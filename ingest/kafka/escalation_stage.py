"""The escalation stage: one ladder per player for the whole deployment, whoever raised the flags.

It reads the offences topic (each flag's offences keyed by player, and every source's marks:
`kafka.marks`) in consumer group `<group>-escalation`, its partitions shared by the members;
each task is one partition and one `rules.escalation.Escalation`, whose actions go to
`moderation.actions` and the store. Everything a ladder does is a function of its partition's
records in offset order, so a restored snapshot plus the records after it, replayed with their
actions discarded up to the commit, resume it exactly.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Collection, Mapping, Sequence

from railbird.detectors.events import AnyEvent
from railbird.ingest.kafka.client_types import ConsumedRecord, Producer, TopicPartition
from railbird.ingest.kafka.codec import OffenceRecordError, SortKey, read_offence_record
from railbird.ingest.kafka.outputs import send_outputs
from railbird.ingest.kafka.runtime import Batch, Feed, Resume
from railbird.ingest.kafka.settings import KafkaSettings
from railbird.ingest.sink import Sink
from railbird.rules.actions import Action
from railbird.rules.escalation import Escalation, Raised
from railbird.rules.policy import RuleBook
from railbird.rules.policy_watch import PolicyWatch

log = logging.getLogger(__name__)


class _Task:
    def __init__(self, tp: TopicPartition, ladder: Escalation, resume: Resume) -> None:
        self.tp = tp
        self.ladder = ladder
        self.processed = resume.start[tp]
        self.live_from = resume.live_from[tp]
        if resume.state is not None:
            ladder.restore(resume.state)


class EscalationStage:
    name = "escalation"

    def __init__(
        self,
        settings: KafkaSettings,
        sources: Sequence[str],
        producer: Producer,
        store: Sink[AnyEvent] | None,
        policy: PolicyWatch,
    ) -> None:
        self.settings = settings
        self.sources = list(sources)
        self.producer = producer
        self.store = store
        self.policy = policy
        self.tasks: dict[int, _Task] = {}
        self._unreadable = 0

    def topics(self) -> list[str]:
        return [self.settings.offences_topic_name]

    def attach(self, feed: Feed) -> None:
        pass  # a ladder orders by marks, not by what is caught up

    def open(self, task: int, tps: list[TopicPartition], resume: Resume) -> None:
        (tp,) = tps
        ladder = Escalation(self.sources, RuleBook(self.policy.current()))
        self.tasks[task] = _Task(tp, ladder, resume)

    def drop(self, tasks: Collection[int]) -> None:
        for number in tasks:
            self.tasks.pop(number, None)

    def snapshot(self, task: int) -> tuple[bytes, dict[TopicPartition, int]] | None:
        found = self.tasks.get(task)
        if found is None or found.processed < found.live_from:
            return None
        return found.ladder.snapshot(), {found.tp: found.processed}

    def commit_note(self, task: int) -> tuple[dict[TopicPartition, int], dict[str, SortKey], bool]:
        found = self.tasks[task]
        done = found.ladder.complete and found.processed >= found.live_from
        return {found.tp: max(found.processed, found.live_from)}, {}, done

    def buffered(self, tp: TopicPartition) -> int:
        return 0  # a ladder must hear every record to see its marks: never paused

    def position(self, tp: TopicPartition) -> int | None:
        task = self.tasks.get(tp.partition)
        return None if task is None else task.processed

    def busy(self) -> bool:
        return False

    def end_input(self) -> None:
        pass  # its sources say when they end

    def finished(self) -> bool:
        return all(t.ladder.complete for t in self.tasks.values())

    def counters(self) -> tuple[Counter[str], int, int]:
        late = sum(t.ladder.late for t in self.tasks.values())
        return Counter(), late, sum(t.ladder.waiting for t in self.tasks.values())

    def process(self, polled: Mapping[TopicPartition, Sequence[ConsumedRecord]]) -> Batch:
        if self.policy.changed():  # a changed file applies from the next decision on
            for owned in self.tasks.values():
                owned.ladder.rulebook.policy = self.policy.current()
        batch = Batch()
        actions: list[Action] = []
        for tp, records in polled.items():
            task = self.tasks.get(tp.partition)
            if task is not None and tp == task.tp:
                self._feed(task, records, actions, batch)
        if actions:
            send_outputs(self.settings, self.producer, (), actions)
            if self.store is not None:
                self.store.add([], [], actions)
        batch.actions += len(actions)
        return batch

    def _feed(
        self, task: _Task, records: Sequence[ConsumedRecord], actions: list[Action], batch: Batch
    ) -> None:
        ladder, topic = task.ladder, task.tp.topic
        for record in records:
            if record.offset < task.processed:
                continue
            warm = record.offset < task.live_from
            try:
                item = read_offence_record(record.value)
            except OffenceRecordError as exc:
                log.warning("offences %s offset %d skipped: %s", task.tp, record.offset, exc)
                batch.dead_letters[topic] += 1
                item = None
            decided: list[Action] = []
            try:
                if isinstance(item, Raised):
                    decided = ladder.offer(item)
                elif item is not None:
                    for source, until in item.items():
                        decided.extend(ladder.mark(source, until))
            except Exception:  # one record must not stop the ladders (nor crash-loop them)
                log.exception("offences %s offset %d could not be decided", task.tp, record.offset)
                batch.dead_letters[topic] += 1
            if warm:
                batch.replayed[topic] += 1
            else:
                batch.records[topic] += 1
                actions.extend(decided)
            task.processed = record.offset + 1
