"""The screen-name directory answers exactly as one state entry per name key did.

`name_directory` stamps a sender per message and finds a key's owner only when asked (the
newest stamp among the senders carrying it), and sweeps dead senders hourly. The reference
below is the former per-key code; random streams with shared name words, equal timestamps,
takeovers and long silences around the ttl must resolve every key the same at every step.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from railbird.detectors.collusion.name_directory import named_player, see_name
from railbird.detectors.collusion.planning_chat import (
    is_bounty_plan,
    is_sitout_plan,
    known_name_keys,
)
from railbird.detectors.state import EventClock, TtlState

TTL = timedelta(hours=12)
REFRESH = timedelta(hours=1)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _reference_see(state: TtlState, screen_name: str | None, player_id: str) -> None:
    now = state.now
    for k in known_name_keys(screen_name, player_id):
        key = ("screen_names", k)
        seen: list[Any] | None = state.get(key)
        if seen is not None and seen[0] == player_id and now - seen[2] < REFRESH:
            seen[1] = now
        else:
            state.put(key, [player_id, now, now], TTL + REFRESH)


def _reference_named(state: TtlState, key: str) -> str | None:
    seen = state.get(("screen_names", key))
    if seen is None or seen[1] + TTL <= state.now:
        return None
    return str(seen[0])


# Shared words ("king", "ace") make several senders carry one key; ids share none.
SCREENS = ["King Ace", "Ace-High", "king_kong", "HAL", "hal 9000", None, "Royal Kicker"]
PLAYERS = ["p-1", "p-2", "p-3", "p-hal", "p-king"]
KEYS = sorted({k for s in SCREENS for p in PLAYERS for k in known_name_keys(s, p)} | {"nobody"})
STEPS = [0.0, 0.0, 1.0, 60.0, 1800.0, 3 * 3600.0, TTL.total_seconds() - 1, TTL.total_seconds()]


@pytest.mark.parametrize("seed", range(12))
def test_the_directory_resolves_every_key_like_the_per_key_entries(seed: int) -> None:
    rng = random.Random(seed)
    clock = EventClock()
    new, old = TtlState(clock), TtlState(clock)
    now = T0
    resolved = 0
    for _ in range(400):
        now += timedelta(seconds=rng.choice(STEPS))
        clock.advance(now)
        screen, player = rng.choice(SCREENS), rng.choice(PLAYERS)
        see_name(new, screen, player, TTL)
        _reference_see(old, screen, player)
        if rng.random() < 0.3:  # a later moment with no message: expiry without a refresh
            clock.advance(now + timedelta(seconds=rng.choice(STEPS)))
        for key in KEYS:
            expected = _reference_named(old, key)
            assert named_player(new, key, TTL) == expected, (key, clock.now)
            resolved += expected is not None
    assert resolved > 1000  # the streams exercised live names, not only expired ones


def test_a_shared_word_names_the_newest_speaker_even_at_the_same_instant() -> None:
    clock = EventClock()
    state = TtlState(clock)
    clock.advance(T0)
    see_name(state, "King Ace", "p-1", TTL)
    see_name(state, "Ace-High", "p-2", TTL)  # same event time, later message
    assert named_player(state, "ace", TTL) == "p-2"
    assert named_player(state, "king", TTL) == "p-1"
    see_name(state, "King Ace", "p-1", TTL)
    assert named_player(state, "ace", TTL) == "p-1"


def test_a_name_expires_at_ttl_and_a_swept_sender_comes_back() -> None:
    clock = EventClock()
    state = TtlState(clock)
    clock.advance(T0)
    see_name(state, "HAL", "p-hal", TTL)
    clock.advance(T0 + TTL - timedelta(microseconds=1))
    assert named_player(state, "hal", TTL) == "p-hal"
    clock.advance(T0 + TTL)
    assert named_player(state, "hal", TTL) is None  # a near miss: exactly ttl later
    clock.advance(T0 + 2 * TTL)
    see_name(state, "Someone", "p-2", TTL)  # the hourly sweep drops p-hal's record
    assert named_player(state, "hal", TTL) is None
    see_name(state, "HAL", "p-hal", TTL)
    assert named_player(state, "hal", TTL) == "p-hal"


def test_the_memoised_plan_verdicts_never_serve_a_near_miss() -> None:
    assert is_sitout_plan("sit out together")
    assert not is_sitout_plan("sit out togethr")
    assert not is_sitout_plan("i sit out, brb")
    assert is_bounty_plan("take out hal together")
    assert not is_bounty_plan("take out hal togethr")
    assert is_sitout_plan("sit out together")  # a second call: the memo answers the same
