"""The flag and action records sent to Kafka: byte for byte what they were with `strftime`.

`rules.flags.format_ts` writes times with `%` instead of `strftime`; the oracle is the same
records serialised with the old `strftime` formatter, on everything the pipeline flags in the
bench stream and in a simulated day, and on random flags and actions built to hit the edges
(timestamps, durations, evidence details that shadow the standard evidence keys).
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest

from bench.kafka_runs import chat_messages
from railbird.detectors.events import event_from_dict
from railbird.detectors.findings import CATEGORIES, Evidence, Finding, MeasureValue
from railbird.detectors.registry import build_detectors
from railbird.ingest.kafka.codec import action_record, flag_record
from railbird.rules import actions as actions_module
from railbird.rules import flags as flags_module
from railbird.rules.actions import Action, action_id_for
from railbird.rules.flags import Flag, format_ts
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate


def old_format_ts(ts: datetime) -> str:
    """`format_ts` before it stopped calling strftime (verbatim): the oracle."""
    return ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}Z"


@pytest.fixture
def old_formatter(monkeypatch: pytest.MonkeyPatch) -> Any:
    """Serialise with the oracle formatter inside `with old_formatter():` blocks."""
    from contextlib import contextmanager

    @contextmanager
    def use() -> Any:
        with monkeypatch.context() as m:
            m.setattr(flags_module, "format_ts", old_format_ts)
            m.setattr(actions_module, "format_ts", old_format_ts)
            yield

    return use


def outputs(events: list[dict[str, Any]]) -> tuple[list[Flag], list[Action]]:
    pipeline = Pipeline(build_detectors())
    flags: list[Flag] = []
    actions: list[Action] = []
    for data in events:
        outcome = pipeline.process(event_from_dict(data))
        flags.extend(outcome.flags)
        actions.extend(outcome.actions)
    return flags, actions


def assert_same_records(flags: list[Flag], actions: list[Action], old_formatter: Any) -> None:
    new = [flag_record(f) for f in flags], [action_record(a) for a in actions]
    with old_formatter():
        old = [flag_record(f) for f in flags], [action_record(a) for a in actions]
    assert new[0] == old[0]
    assert new[1] == old[1]


def test_bench_stream_records_are_unchanged(old_formatter: Any) -> None:
    flags, actions = outputs(chat_messages(60000, seed=5))
    assert len(flags) > 2000 and len(actions) > 2000  # the stream's outputs, not a few
    assert {a.duration is None for a in actions} == {True, False}
    assert_same_records(flags, actions, old_formatter)


def test_simulated_day_records_are_unchanged(old_formatter: Any) -> None:
    events = [e for kind, e in simulate(SimConfig(seed=1)) if kind == "event"]
    flags, actions = outputs(events)
    assert len({f.category for f in flags}) >= 8  # chat and collusion detectors alike
    assert any(f.finding.evidence.details for f in flags)
    assert_same_records(flags, actions, old_formatter)


_ZONES = (UTC, None, timezone(timedelta(hours=5, minutes=30)), timezone(timedelta(hours=-8)))


def random_ts(rng: random.Random) -> datetime:
    year = rng.choice((1, 9, 99, 999, 1000, 1970, 2026, 9999, rng.randrange(1, 10000)))
    micro = rng.choice((0, 999, 1000, 999_999, 500_500, rng.randrange(1_000_000)))
    return datetime(
        year,
        rng.randrange(1, 13),
        rng.randrange(1, 29),
        rng.randrange(24),
        rng.randrange(60),
        rng.randrange(60),
        micro,
        tzinfo=rng.choice(_ZONES),
    )


def random_text(rng: random.Random) -> str:
    return "".join(rng.choice('ab "\\\n\té€😀\u2028/<>') for _ in range(rng.randrange(12)))


def random_flag(rng: random.Random) -> Flag:
    measures: dict[str, Any] = {
        "count": rng.randrange(100),
        "ratio": rng.random(),
        "words": [random_text(rng) for _ in range(rng.randrange(3))],
        "none": None,
        "flag": rng.random() < 0.5,
    }
    shadowing = ("kind", "summary", "event_ids", "measures", "target", "extra")
    details: dict[str, MeasureValue] = {
        k: random_text(rng) for k in rng.sample(shadowing, rng.randrange(4))
    }
    evidence = Evidence(
        kind=random_text(rng),
        summary=random_text(rng),
        event_ids=tuple(f"e-{i}" for i in range(rng.randrange(4))),
        measures=measures,
        details=details,
    )
    category: Any = rng.choice(CATEGORIES)
    finding = Finding(
        detector=random_text(rng),
        category=category,
        severity=rng.choice(("low", "medium", "high", "critical")),
        score=rng.choice((0.0, 1.0, 0.12345, 0.99995, 1 / 3, rng.random())),
        ts=random_ts(rng),
        player_ids=tuple(f"p-{random_text(rng)}" for _ in range(rng.randrange(1, 4))),
        evidence=evidence,
        table_id=rng.choice((None, "t-1")),
        tournament_id=rng.choice((None, "trn-1")),
        hand_id=rng.choice((None, "h-1")),
        message_ids=tuple(f"m-{i}" for i in range(rng.randrange(3))),
    )
    return Flag.from_finding(finding)


def random_action(rng: random.Random) -> Action:
    ts = random_ts(rng)
    durations = (None, timedelta(0), timedelta(minutes=10), timedelta(seconds=-1.5))
    duration = rng.choice((*durations, timedelta(seconds=rng.uniform(0, 1e6))))
    if duration is not None and ts.year >= 9999:
        duration = -abs(duration)  # the expiry must still be a datetime
    player = f"p-{random_text(rng)}"
    flag_ids = tuple(f"f-{i}" for i in range(rng.randrange(3)))
    return Action(
        action_id=action_id_for("mute_chat", player, flag_ids),
        kind=rng.choice(("warn", "mute_chat", "suspend_communication", "lift")),
        player_id=player,
        ts=ts,
        reason=random_text(rng),
        flag_ids=flag_ids,
        duration=duration,
        actor=rng.choice(("railbird-rules", "analyst-7")),
    )


def test_random_flags_and_actions_are_unchanged(old_formatter: Any) -> None:
    rng = random.Random(7)
    flags = [random_flag(rng) for _ in range(3000)]
    actions = [random_action(rng) for _ in range(3000)]
    assert any(f.finding.ts.year < 1000 for f in flags)  # strftime's unpadded years
    assert_same_records(flags, actions, old_formatter)


@pytest.mark.parametrize(
    ("ts", "text"),
    [
        (datetime(2026, 11, 29, 20, 0, 0, 999_999, tzinfo=UTC), "2026-11-29T20:00:00.999Z"),
        (datetime(2026, 1, 2, 3, 4, 5, 999, tzinfo=UTC), "2026-01-02T03:04:05.000Z"),  # truncated
        (datetime(999, 1, 2, tzinfo=UTC), "999-01-02T00:00:00.000Z"),  # as strftime writes it
        (
            datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC).replace(tzinfo=None),
            "2026-01-02T03:04:05.000Z",
        ),
    ],
)
def test_format_ts_matches_strftime(ts: datetime, text: str) -> None:
    assert format_ts(ts) == old_format_ts(ts) == text


def test_format_ts_matches_strftime_on_random_times_and_subclasses() -> None:
    class Stamp(datetime):
        def strftime(self, fmt: str) -> str:
            return "own:" + super().strftime(fmt)

    rng = random.Random(11)
    for _ in range(5000):
        ts = random_ts(rng)
        assert format_ts(ts) == old_format_ts(ts), ts
    stamp = Stamp(2026, 1, 2, tzinfo=UTC)
    assert format_ts(stamp) == old_format_ts(stamp) == "own:2026-01-02T00:00:00.000Z"
