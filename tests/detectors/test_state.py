"""Detector state expires in event time and can be dropped per routing key."""

from __future__ import annotations

from datetime import timedelta

from railbird.detectors.state import EventClock, TtlState
from tests.builders import at


def test_entries_expire_in_event_time() -> None:
    state = TtlState()
    state.advance(at(0))
    state.put(("t-1", "x"), 1, timedelta(seconds=10))
    state.advance(at(9))
    assert state.get(("t-1", "x")) == 1
    state.advance(at(10))
    assert state.get(("t-1", "x")) is None
    assert len(state) == 0


def test_put_again_extends_life() -> None:
    state = TtlState()
    state.advance(at(0))
    state.put(("t-1",), "a", timedelta(seconds=10))
    state.advance(at(8))
    state.put(("t-1",), "b", timedelta(seconds=10))
    state.advance(at(12))
    assert state.get(("t-1",)) == "b"
    state.advance(at(18))
    assert state.get(("t-1",)) is None


def test_time_never_goes_back() -> None:
    state = TtlState()
    state.advance(at(100))
    state.advance(at(50))
    assert state.now == at(100)


def test_memory_stays_bounded_on_an_endless_stream() -> None:
    state = TtlState()
    for i in range(20_000):
        state.advance(at(i))
        state.put((f"t-{i}", "x"), i, timedelta(seconds=60))
    assert len(state) <= 61
    assert len(state._heap) <= 4 * 61 + 1024 + 1


def test_drop_routing_keys_forgets_only_those_tables() -> None:
    state = TtlState()
    state.advance(at(0))
    for table in ("t-1", "t-2", "t-3"):
        state.put((table, "hand"), table, timedelta(hours=1))
    assert state.drop_routing_keys({"t-1", "t-3"}) == 2
    assert state.get(("t-2", "hand")) == "t-2"
    assert state.get(("t-1", "hand")) is None


def test_refreshing_a_key_keeps_one_reminder_and_still_expires_exactly() -> None:
    state = TtlState()
    for second in range(1000):  # one key refreshed every second for 1000 s
        state.advance(at(second))
        state.put(("t-1", "flood"), second, timedelta(seconds=30))
    assert len(state._heap) <= 2  # not one item per put
    state.advance(at(999 + 29))
    assert state.get(("t-1", "flood")) == 999
    state.advance(at(999 + 30))
    assert state.get(("t-1", "flood")) is None
    assert len(state) == 0


def test_a_shorter_ttl_on_refresh_expires_at_the_shorter_time() -> None:
    state = TtlState()
    state.advance(at(0))
    state.put(("t-1",), "long", timedelta(seconds=100))
    state.put(("t-1",), "short", timedelta(seconds=5))
    state.advance(at(5))
    assert state.get(("t-1",)) is None
    assert len(state) == 0


def test_pop_never_returns_an_expired_value() -> None:
    clock = EventClock()
    state = TtlState(clock)
    clock.advance(at(0))
    state.put(("t-1",), "x", timedelta(seconds=10))
    clock.advance(at(10))  # the shared clock moved; nothing swept the state yet
    assert state.pop(("t-1",)) is None


def test_states_sharing_a_clock_see_the_same_time() -> None:
    clock = EventClock()
    first, second = TtlState(clock), TtlState(clock)
    first.advance(at(42))
    assert second.now == at(42)
