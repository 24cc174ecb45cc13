"""The site stage's assignor: one member gets every partition, the same one on every leader."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from kafka import TopicPartition
from kafka.protocol.consumer.metadata import ConsumerProtocolSubscription

from railbird.ingest.kafka.assignor import SingleOwnerAssignor

TOPICS = ("chat", "table", "hand")


class _Cluster:
    def __init__(self, partitions: dict[str, int]) -> None:
        self.partitions = partitions

    def partitions_for_topic(self, topic: str) -> set[int] | None:
        count = self.partitions.get(topic)
        return None if count is None else set(range(count))


@dataclass
class _Member:
    member_id: str
    metadata: Any
    group_instance_id: str | None = None


def _member(member_id: str, assignor: SingleOwnerAssignor, topics: tuple[str, ...] = TOPICS) -> Any:
    # Through the wire format, as the group leader receives it.
    encoded = assignor.metadata(set(topics)).encode()
    return _Member(member_id, ConsumerProtocolSubscription.decode(encoded))


def _owned(result: dict[str, Any]) -> dict[str, set[TopicPartition]]:
    return {member: set(a.partitions()) for member, a in result.items()}


CLUSTER = _Cluster(dict.fromkeys(TOPICS, 6))
EVERYTHING = {TopicPartition(t, p) for t in TOPICS for p in range(6)}


def test_the_lowest_member_gets_every_partition_the_others_nothing() -> None:
    assignor = SingleOwnerAssignor()
    members = [_member(m, SingleOwnerAssignor()) for m in ("rb-c", "rb-a", "rb-b")]
    owned = _owned(assignor.assign(CLUSTER, members))
    assert owned == {"rb-a": EVERYTHING, "rb-b": set(), "rb-c": set()}


def test_every_leader_computes_the_same_assignment_whatever_the_member_order() -> None:
    names = ("rb-2", "rb-10", "rb-1", "rb-3")
    results = [
        _owned(
            SingleOwnerAssignor().assign(CLUSTER, [_member(m, SingleOwnerAssignor()) for m in p])
        )
        for p in itertools.permutations(names)
    ]
    assert all(r == results[0] for r in results)
    assert results[0]["rb-1"] == EVERYTHING  # string order: "rb-1" < "rb-10" < "rb-2"


def test_a_standby_gets_nothing_and_becomes_owner_when_the_owner_is_gone() -> None:
    owner, standby = SingleOwnerAssignor(), SingleOwnerAssignor()
    result = SingleOwnerAssignor().assign(
        CLUSTER, [_member("rb-a", owner), _member("rb-b", standby)]
    )
    owner.on_assignment(result["rb-a"], 1)
    standby.on_assignment(result["rb-b"], 1)
    assert (owner.owner, standby.owner) == (True, False)
    assert result["rb-b"].partitions() == []
    # rb-a dies: the group rebalances with the standby alone.
    result = SingleOwnerAssignor().assign(CLUSTER, [_member("rb-b", standby)])
    standby.on_assignment(result["rb-b"], 2)
    assert set(result["rb-b"].partitions()) == EVERYTHING and standby.owner


def test_the_owner_keeps_everything_when_a_lower_member_id_joins() -> None:
    owner = SingleOwnerAssignor()
    owner.on_assignment(SingleOwnerAssignor().assign(CLUSTER, [_member("rb-m", owner)])["rb-m"], 1)
    newcomer = SingleOwnerAssignor()
    owned = _owned(
        SingleOwnerAssignor().assign(CLUSTER, [_member("rb-a", newcomer), _member("rb-m", owner)])
    )
    assert owned == {"rb-m": EVERYTHING, "rb-a": set()}


def test_two_claimed_owners_fall_back_to_the_lowest_id() -> None:
    claims = [SingleOwnerAssignor(), SingleOwnerAssignor()]
    for claim in claims:
        claim.owner = True
    owned = _owned(
        SingleOwnerAssignor().assign(
            CLUSTER, [_member("rb-z", claims[0]), _member("rb-y", claims[1])]
        )
    )
    assert owned == {"rb-y": EVERYTHING, "rb-z": set()}


def test_a_topic_only_some_members_read_goes_to_the_best_of_those() -> None:
    owned = _owned(
        SingleOwnerAssignor().assign(
            _Cluster({"chat": 2, "table": 3}),
            [
                _member("rb-a", SingleOwnerAssignor(), ("chat",)),
                _member("rb-b", SingleOwnerAssignor(), ("chat", "table")),
            ],
        )
    )
    assert owned == {
        "rb-a": {TopicPartition("chat", 0), TopicPartition("chat", 1)},
        "rb-b": {TopicPartition("table", p) for p in range(3)},
    }


def test_a_topic_without_metadata_is_skipped() -> None:
    owned = _owned(
        SingleOwnerAssignor().assign(
            _Cluster({"chat": 2}), [_member("rb-a", SingleOwnerAssignor(), ("chat", "gone"))]
        )
    )
    assert owned == {"rb-a": {TopicPartition("chat", 0), TopicPartition("chat", 1)}}


def test_losing_every_partition_drops_the_owner_claim() -> None:
    assignor = SingleOwnerAssignor()
    assignor.owner = True
    result = SingleOwnerAssignor().assign(
        CLUSTER, [_member("rb-a", SingleOwnerAssignor()), _member("rb-b", SingleOwnerAssignor())]
    )
    assignor.on_assignment(result["rb-b"], 3)
    assert not assignor.owner
    assert assignor.metadata({"chat"}).user_data in (b"", None)
