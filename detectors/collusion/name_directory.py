"""Who answers to a screen name right now: the directory `BountyCollusion` resolves plans with.

Every chat message refreshes its sender's name keys, so this is on the site stage's per-message
path; a plan that needs a name resolved is rare. It used to be one state entry per name key,
read (and often re-put) for each key of each message. Now one state entry holds the directory,
a message only stamps its sender (one record per screen name and player id), and the work of
finding who answers to a key is done when a plan asks: the newest stamp among the senders
carrying that key. The meaning is unchanged: a key names the player who last sent a message
under it, for `ttl` after that message.

A directory is kept per `scope` (the tournament the message belongs to): a plan in one
tournament names someone who plays there, and the detector's state stays keyed by tournament,
so a stream split by tournament (`keyed_by = "tournament"`) resolves a name exactly as one
pass over the whole site does.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from railbird.detectors.collusion.planning_chat import known_name_keys
from railbird.detectors.state import State

_KEY = ("screen_names", "directory")
# The directory is re-put at most this often, with this much extra life, so it outlives every
# name in it; dead senders are swept out at the same time.
_REFRESH = timedelta(hours=1)


@dataclass(slots=True, eq=False)
class _Sender:
    """One (screen name, player id): its name keys and its last message (time, arrival)."""

    player_id: str
    keys: tuple[str, ...]
    last_seen: datetime
    order: int  # arrival order of the last message: breaks ties between equal event times


@dataclass(slots=True, eq=False)
class _Directory:
    refresh_at: datetime
    senders: dict[tuple[str | None, str], _Sender] = field(default_factory=dict)
    # name key -> the senders carrying it (a dict as an ordered set)
    by_key: dict[str, dict[_Sender, None]] = field(default_factory=dict)
    arrivals: itertools.count[int] = field(default_factory=itertools.count)

    def add(self, ident: tuple[str | None, str], sender: _Sender) -> None:
        self.senders[ident] = sender
        for key in sender.keys:
            self.by_key.setdefault(key, {})[sender] = None

    def sweep(self, now: datetime, ttl: timedelta) -> None:
        """Forget senders whose names have expired (they can no longer resolve anyway)."""
        cutoff = now - ttl  # last_seen <= cutoff  <=>  last_seen + ttl <= now
        dead = [i for i, s in self.senders.items() if s.last_seen <= cutoff]
        by_key = self.by_key
        for ident in dead:
            sender = self.senders.pop(ident)
            for key in sender.keys:
                carriers = by_key[key]
                del carriers[sender]
                if not carriers:
                    del by_key[key]


def _key(scope: str | None) -> tuple[str, ...]:
    return _KEY if scope is None else (scope, *_KEY)


def see_name(
    state: State,
    screen_name: str | None,
    player_id: str,
    ttl: timedelta,
    scope: str | None = None,
) -> None:
    """Record that `player_id` just spoke under `screen_name` (every form of both), in the
    directory of `scope`."""
    now = state.now
    key = _key(scope)
    directory: _Directory | None = state.get(key)
    if directory is None:
        directory = _Directory(now + _REFRESH)
        state.put(key, directory, ttl + _REFRESH)
    elif now >= directory.refresh_at:
        directory.sweep(now, ttl)
        directory.refresh_at = now + _REFRESH
        state.put(key, directory, ttl + _REFRESH)
    ident = (screen_name, player_id)
    sender = directory.senders.get(ident)
    if sender is None:
        keys = known_name_keys(screen_name, player_id)
        directory.add(ident, _Sender(player_id, keys, now, next(directory.arrivals)))
    else:
        sender.last_seen = now
        sender.order = next(directory.arrivals)


def named_player(state: State, key: str, ttl: timedelta, scope: str | None = None) -> str | None:
    """The player who last spoke under name key `key` less than `ttl` ago in `scope`, if any."""
    directory: _Directory | None = state.get(_key(scope))
    if directory is None:
        return None
    carriers = directory.by_key.get(key)
    if not carriers:
        return None
    newest = max(carriers, key=lambda s: s.order)
    if newest.last_seen + ttl <= state.now:
        return None
    return newest.player_id
