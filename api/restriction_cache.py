"""Every restriction in force, in memory, kept current off the request path.

Why: the chat check answers in milliseconds, so it may not wait on the database. It once
reloaded every active restriction inside a request once a second, under a lock: 373 ms with
50,000 active mutes, and p99 went from 5.6 to 847 ms. Now a background thread reads only the
rows written since its last read began (`actions.changed_at`, set by every writer: the rules'
store writes, an analyst's apply or lift), less an `OVERLAP` so a transaction that committed a
little late, or a writer whose clock is a little behind, is still seen; a full reload every
`full_every` seconds is the safety net.
Readers take one dict lookup; each player's restrictions are a tuple replaced whole, so a
reader never sees one half-updated.

Several server processes each keep their own cache, consistent within `refresh` seconds of a
change; a change made through one process is in that process's cache at once (`note`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, select

from railbird.api.restriction_store import (
    RESTRICTING,
    Restriction,
    active_restrictions,
    restriction,
)
from railbird.store import schema

log = logging.getLogger(__name__)

# Rows written this long before the newest one seen are read again, so a transaction that
# committed late, or a writer whose clock runs a little behind, is still seen; the price is
# re-reading them every refresh (60 s made each refresh re-read a whole minute of writes: 50,000
# mutes written at once were re-read every second for a minute, docs/benchmarks-api.md).
OVERLAP = timedelta(seconds=5)


class RestrictionCache:
    def __init__(self, engine: Engine, refresh: float = 1.0, full_every: float = 300.0) -> None:
        self.engine = engine
        self.refresh = refresh
        self.full_every = full_every
        self._by_player: dict[str, tuple[Restriction, ...]] = {}
        # When the last successful read began (this process's clock): the next one reads the
        # rows written since, less `OVERLAP`.
        self._read_from: datetime | None = None
        self._loaded_at = float("-inf")  # monotonic time of the last successful read
        self._full_at = float("-inf")
        self._lock = threading.Lock()  # one refresh at a time (thread or `refresh_now`)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.refresh_errors = 0

    # ---- readers --------------------------------------------------------------------------

    def for_player(self, player_id: str, now: datetime) -> list[Restriction]:
        """The player's restrictions in force at `now` (no database access)."""
        if self._thread is None and self.age_seconds > self.refresh:
            # No background thread (an app used without its startup, as in-process tests use
            # it, or the first check before it ran): read here.
            self.refresh_now()
        return [r for r in self._by_player.get(player_id, ()) if r.active_at(now)]

    @property
    def age_seconds(self) -> float:
        """Seconds since the cache last read the store successfully (inf: never)."""
        return time.monotonic() - self._loaded_at

    def __len__(self) -> int:
        return sum(len(rs) for rs in list(self._by_player.values()))  # a copy: never mid-change

    # ---- writers ----------------------------------------------------------------------------

    def note(self, changed: Restriction) -> None:
        """A restriction this process just applied or lifted: in force (or gone) at once."""
        with self._lock:
            self._merge([changed], datetime.now(UTC))

    def start(self) -> None:
        """Load once now, then refresh in the background every `refresh` seconds until `stop`.

        Why load first: the thread's first refresh comes `refresh` seconds after start, and a
        server answering in between would let every restricted player through (a restart
        un-muted everyone for a second)."""
        if self._thread is not None:
            return
        self.refresh_now()
        self._thread = threading.Thread(target=self._run, name="restriction-cache", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def refresh_now(self) -> None:
        """One refresh: everything changed since the last one (or all, when a full reload is
        due); a failure is logged and counted, and the cache keeps what it had."""
        with self._lock:
            now = datetime.now(UTC)
            try:
                if time.monotonic() - self._full_at >= self.full_every or self._read_from is None:
                    self._full_reload(now)
                else:
                    self._incremental(now)
            except Exception:
                self.refresh_errors += 1
                log.exception("restriction cache refresh failed; serving what it had")
                return
            self._loaded_at = time.monotonic()

    def _run(self) -> None:
        while not self._stop.wait(self.refresh):
            self.refresh_now()

    def _full_reload(self, now: datetime) -> None:
        started = time.monotonic()
        by_player: dict[str, list[Restriction]] = {}
        for r in active_restrictions(self.engine, now):
            by_player.setdefault(r.player_id, []).append(r)
        self._by_player = {player: tuple(rs) for player, rs in by_player.items()}
        self._read_from = now
        self._full_at = time.monotonic()
        log.info(
            "restriction cache: full reload of %d in %.3f s", len(self), time.monotonic() - started
        )

    def _incremental(self, now: datetime) -> None:
        since = self._read_from
        assert since is not None
        a = schema.actions.c
        query = select(schema.actions).where(
            a.kind.in_(RESTRICTING), a.changed_at >= since - OVERLAP
        )
        with self.engine.connect() as conn:
            changed = [restriction(row) for row in conn.execute(query)]
        if changed:
            self._merge(changed, now)
        self._read_from = now

    def _merge(self, changed: Iterable[Restriction], now: datetime) -> None:
        by_player = self._by_player
        for r in changed:
            kept = [old for old in by_player.get(r.player_id, ()) if old.action_id != r.action_id]
            if r.active_at(now):
                kept.append(r)
            kept = [k for k in kept if k.active_at(now)]
            if kept:
                by_player[r.player_id] = tuple(kept)
            else:
                by_player.pop(r.player_id, None)
