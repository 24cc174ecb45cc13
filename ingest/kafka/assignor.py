"""The site stage's partition assignor: every partition to one member, the others on standby.

The site-scoped detectors (tournament-wide sit-outs and bounty hunts, private messages read
against the recipient's hand) keep state that spans tables, so they must see the whole stream,
in one process. Running them in a consumer group of their own with this assignor gives that one
member every partition of every subscribed topic; the other `railbird run` processes join the
same group and get nothing. When the owner dies (or leaves), the group rebalances and the next
member takes every partition over, rebuilding state by the replay window like any takeover.

Which member: the one that owned the partitions before, if it is still there (it says so in
its subscription's user data), else the lowest member id. Sticky on purpose: a member joining
with a lower id must not move the whole site stage, since a takeover replays the replay window
of the whole stream. Two members both claiming ownership (a zombie) fall back to the lowest id.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from kafka.coordinator.assignors.abstract import AbstractPartitionAssignor
from kafka.protocol.consumer.metadata import (
    ConsumerProtocolAssignment,
    ConsumerProtocolSubscription,
)

OWNER_MARK = b"railbird-site-owner"


class _Cluster(Protocol):
    def partitions_for_topic(self, topic: str) -> set[int] | None: ...


class _Subscription(Protocol):
    @property
    def topics(self) -> Sequence[str]: ...
    @property
    def user_data(self) -> bytes | None: ...


class _Member(Protocol):
    @property
    def member_id(self) -> str: ...
    @property
    def metadata(self) -> _Subscription: ...


class _Assignment(Protocol):
    @property
    def assigned_partitions(self) -> Sequence[tuple[str, Sequence[int]]]: ...


class SingleOwnerAssignor(AbstractPartitionAssignor):  # type: ignore[misc]
    """Pass an *instance* to the consumer: it remembers whether this member owns the stream."""

    name = "railbird-single-owner"
    version = 0

    def __init__(self) -> None:
        self.owner = False

    def assign(self, cluster: _Cluster, members: Sequence[_Member]) -> dict[str, object]:
        ranked = sorted(members, key=_rank)
        assignment: dict[str, list[tuple[str, list[int]]]] = {m.member_id: [] for m in members}
        topics = sorted({topic for m in members for topic in m.metadata.topics})
        for topic in topics:
            partitions = cluster.partitions_for_topic(topic)
            if not partitions:
                continue
            owner = next(m for m in ranked if topic in m.metadata.topics)
            assignment[owner.member_id].append((topic, sorted(partitions)))
        return {
            member_id: ConsumerProtocolAssignment(self.version, owned, b"")
            for member_id, owned in assignment.items()
        }

    def metadata(self, topics: Iterable[str]) -> object:
        return ConsumerProtocolSubscription(
            self.version, sorted(topics), OWNER_MARK if self.owner else b""
        )

    def on_assignment(self, assignment: _Assignment, generation: int) -> None:
        self.owner = any(partitions for _topic, partitions in assignment.assigned_partitions)


def _rank(member: _Member) -> tuple[bool, str]:
    """Previous owner first, then by member id (the order every leader computes alike)."""
    return (member.metadata.user_data != OWNER_MARK, str(member.member_id))
