"""What is keyed how (`ingest.kafka.topology`): each detector in the lane its state needs, every
event sent where its keys' detectors read it, keys landing where kafka-python's producer puts
them; and the metrics every stage serves (prometheus-client, labels escaped)."""

from __future__ import annotations

import multiprocessing
from collections import Counter
from typing import ClassVar

import orjson
import pytest
from kafka.partitioner import DefaultPartitioner
from prometheus_client import CollectorRegistry, generate_latest

from railbird.detectors.detector import keying
from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.registry import DETECTOR_TYPES, build_detectors
from railbird.detectors.state import State, TtlState
from railbird.ingest.kafka.metrics import RemoteFamilies, StageMetrics, _StagesCollector
from railbird.ingest.kafka.topology import (
    DEALT,
    JOINED,
    PLAYERS,
    RECIPIENT,
    SENDER,
    TEXT,
    TOURNAMENT,
    Topology,
    partition_for,
    text_key,
)
from tests.builders import chat, hand, table


def _topology() -> Topology:
    return Topology.of(build_detectors(), inputs=6, keyed=4)


def test_every_detector_runs_in_exactly_one_lane_chosen_by_what_its_state_is_about() -> None:
    topology = _topology()
    lanes = {
        "table": {d.name for d in topology.table},
        "hand": {d.name for d in topology.hand},
        "tournament": {d.name for d in topology.tournament},
        "text": {d.name for d in topology.text},
        "player": {d.name for d in topology.player},
    }
    assert lanes["tournament"] >= {"coordinated_sit_out", "bounty_collusion"}
    assert lanes["text"] == {"lobby_waves"}
    assert lanes["player"] == {"impersonation"}  # one flag per player and name, every table
    assert "profanity" in lanes["table"] and "leave_refusal" in lanes["table"]
    assert lanes["hand"] == {"in_hand_influence"}
    every = [name for names in lanes.values() for name in names]
    assert sorted(every) == sorted(t.name for t in DETECTOR_TYPES)  # once each
    assert topology.keyed_lanes == ((TOURNAMENT, TEXT, PLAYERS))
    # Each ladder waits for every input partition and every keyed partition.
    assert topology.escalation_sources() == [
        *(f"tables:{p}" for p in range(6)),
        *(f"keyed:{k}" for k in range(4)),
    ]


class _Odd:
    name: ClassVar[str] = "odd"
    keyed_by: ClassVar[str] = "galaxy"

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        return []


def test_an_unknown_keying_is_refused() -> None:
    with pytest.raises(ValueError, match="galaxy"):
        keying(_Odd())


def _lanes(events: list[AnyEvent], topology: Topology) -> list[tuple[str, bytes, str]]:
    return [(r.lane, r.key, r.role) for e in events for r in topology.routes(e)]


def test_tournament_events_go_to_their_tournament_and_cash_tables_to_none() -> None:
    topology = _topology()
    sit_out = table("sit_out", t=1, player="p-1", tournament="trn-1")
    cash = table("sit_out", t=1, player="p-1", tournament=None)
    assert _lanes([sit_out], topology) == [(TOURNAMENT, b"trn-1", "")]
    assert _lanes([cash], topology) == []
    history = hand("h-1", start=1, end=5, seats=[], tournament="trn-2")
    assert _lanes([history], topology) == [(TOURNAMENT, b"trn-2", "")]


def test_chat_naming_no_tournament_goes_to_its_senders_player_task_private_to_both() -> None:
    topology = _topology()
    lobby = chat(
        "hello all of you in the lobby",
        t=1,
        player="p-1",
        table=None,
        tournament=None,
        channel="lobby",
    )
    private = chat(
        "psst", t=2, player="p-1", table=None, tournament=None, channel="private", recipient="p-2"
    )
    assert _lanes([lobby], topology) == [
        (TEXT, text_key(lobby.text).encode(), ""),
        (PLAYERS, b"p-1", SENDER),
    ]
    assert _lanes([private], topology) == [
        (TEXT, b"psst", ""),
        (PLAYERS, b"p-1", SENDER),
        (PLAYERS, b"p-2", RECIPIENT),
    ]


def test_a_hand_start_tells_each_dealt_players_task_where_they_play() -> None:
    topology = _topology()
    start = table(
        "hand_start", t=1, player=None, tournament="trn-1", hand_id="h-1", players=["p-1", "p-2"]
    )
    routed = topology.routes(start)
    dealt = [r for r in routed if r.role == DEALT]
    assert [r.key for r in dealt] == [b"p-1", b"p-2"]
    assert len({r.copy for r in dealt}) == 2  # two copies of one event: told apart
    # The player is each record's key; the seat is the same for all.
    assert orjson.loads(dealt[0].value or b"") == {
        "table": "t-1",
        "hand": "h-1",
        "tournament": "trn-1",
    }
    join = table("join", t=1, player="p-3", tournament="trn-1")
    assert [(r.lane, r.key, r.role) for r in topology.routes(join) if r.lane == PLAYERS] == [
        (PLAYERS, b"p-3", JOINED)
    ]


def test_table_chat_reaches_the_hand_lane_from_the_table_stage_private_chat_only_joined() -> None:
    topology = _topology()
    assert topology.reaches_hand(chat("nh", t=1))
    assert not topology.reaches_hand(
        chat("psst", t=1, table=None, channel="private", recipient="p-2")
    )


def test_the_text_lane_keys_numbered_copies_of_one_line_alike() -> None:
    assert text_key("FREE chips at bonus-site 123!") == text_key("free chips at bonus site 456")


@pytest.mark.parametrize("key", [b"t-1", b"trn-7", b"p-42", "joueur-é".encode()])
def test_a_re_keyed_table_lands_where_the_inputs_producer_put_it(key: bytes) -> None:
    class Cluster:  # what kafka-python's partitioner reads of the metadata
        def topics(self) -> set[str]:
            return {"t"}

        def partitions_for_topic(self, topic: str) -> set[int]:
            return set(range(6))

        def available_partitions_for_topic(self, topic: str) -> set[int]:
            return set(range(6))

    expected = DefaultPartitioner().partition("t", key, key, b"v", b"v", Cluster())
    assert partition_for(key, 6) == expected


def test_a_lobby_waves_state_key_is_the_text_lanes_key() -> None:
    """The lane's key and the detector's state key agree, so the copies of one wave meet."""
    (waves,) = [d for d in build_detectors() if d.name == "lobby_waves"]
    event = chat(
        "free chips every day at the best new poker bonus site 7",
        t=1,
        table=None,
        tournament=None,
        channel="lobby",
    )
    state = TtlState()
    state.advance(event.time)
    waves.detect(event, state)
    [(key, _, _)] = state.live_entries()
    assert key[0] == text_key(event.text)


# ---- metrics -----------------------------------------------------------------------------------


def _after_one_batch(stage: str, topic: str, records: int, flags: int) -> StageMetrics:
    metrics = StageMetrics(stage)
    metrics.batch_done(
        records=Counter({topic: records}),
        replayed=Counter(),
        dead_letters=Counter(),
        flags=flags,
        actions=1,
        late=3,
        seconds=0.01,
        lag={(topic, 0): 3, (topic, 1): None},
        buffered=0,
        detector_errors=Counter({'we"ird\\name': 2}),
        store_set_aside=2,
    )
    return metrics


def _render(stages: list[tuple[str, object]]) -> list[str]:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(_StagesCollector(stages))  # type: ignore[arg-type]
    return generate_latest(registry).decode().splitlines()


def test_metrics_keep_their_names_carry_the_stage_and_escape_label_values() -> None:
    lines = _render(
        [("tables", _after_one_batch("tables", "chat", 7, 2)), ("keyed", StageMetrics("keyed"))]
    )
    assert 'railbird_kafka_records_total{stage="tables",topic="chat"} 7.0' in lines
    assert 'railbird_kafka_consumer_lag{partition="0",stage="tables",topic="chat"} 3.0' in lines
    assert not any(
        line.startswith("railbird_kafka_consumer_lag") and 'partition="1"' in line for line in lines
    )  # unknown lag: no sample
    assert (
        'railbird_kafka_assigned_partition{partition="1",stage="tables",topic="chat"} 1.0' in lines
    )
    assert 'railbird_kafka_flags_total{stage="keyed"} 0.0' in lines
    assert 'railbird_kafka_late_records_total{stage="tables"} 3.0' in lines
    # A label value with a quote and a backslash is escaped, not a broken exposition.
    assert (
        'railbird_kafka_detector_errors_total{detector="we\\"ird\\\\name",stage="tables"} 2.0'
        in lines
    )
    assert lines.count("# TYPE railbird_kafka_flags_total counter") == 1


def test_a_child_stages_families_cross_a_pipe_as_json_and_render_alike() -> None:
    keyed = _after_one_batch("keyed", "k", 4, 1)
    remote = RemoteFamilies()
    assert [line for line in _render([("keyed", remote)]) if not line.startswith("#")] == []
    parent_end, child_end = multiprocessing.Pipe()
    child_end.send_bytes(orjson.dumps(keyed.families()))
    remote.update(orjson.loads(parent_end.recv_bytes()))

    def steady(lines: list[str]) -> list[str]:  # uptime moves between two renderings
        return [line for line in lines if "uptime_seconds{" not in line]

    assert steady(_render([("keyed", remote)])) == steady(_render([("keyed", keyed)]))


@pytest.mark.parametrize(
    ("attempts", "says"),
    [
        ((2, 0, True), "2 commits"),
        ((2, 2, True), "2 commits (2 failed attempts, each retried; the last"),
        ((1, 1, False), "1 commits (1 failed attempts; the last one failed too"),
    ],
)
def test_the_summary_says_whether_failed_commits_were_made_good(
    attempts: tuple[int, int, bool], says: str
) -> None:
    metrics = StageMetrics("tables")
    metrics.commits_seen(*attempts)
    summary = metrics.summary()
    assert says in summary, summary
    assert ("failed" in summary) == bool(attempts[1])
