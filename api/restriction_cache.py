"""Every restriction in force, in memory, kept current off the request path.

Why: the chat check answers in milliseconds, so it may not wait on the database. It once
reloaded every active restriction inside a request once a second, under a lock, and with tens
of thousands of active mutes the check's tail grew by two orders of magnitude
(docs/design-numbers.md). Now a background thread reads only the
rows written since its last read began (`actions.changed_at`, set by every writer: the rules'
store writes, an analyst's apply or lift), less an `OVERLAP` so a transaction that committed a
little late, or a writer whose clock is a little behind, is still seen; a full reload every
`full_every` seconds is the safety net.
Readers take one dict lookup; each player's restrictions are a tuple replaced whole, so a
reader never sees one half-updated.

The refresh runs beside the requests in one interpreter, so every millisecond it holds the
interpreter lock is a millisecond a check may wait: after a mass ban each refresh of the
overlap re-read and rebuilt every new restriction, and a full reload held the lock in one go
(docs/design-numbers.md, docs/benchmarks-api.md). So a refresh
reads only ids and change times first and fetches whole rows only for what it has not merged
yet, and every large read is done in pages with a pause between them, in which the requests
run.

Several server processes each keep their own cache, consistent within `refresh` seconds of a
change; a change made through one process is in that process's cache at once (`note`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, String, and_, select, type_coerce

from railbird.api.restriction_store import (
    RESTRICTING,
    Restriction,
    active_clause,
    restriction,
)
from railbird.store import schema

log = logging.getLogger(__name__)

# Rows written this long before the newest one seen are read again, so a transaction that
# committed late, or a writer whose clock runs a little behind, is still seen; the price is
# re-reading them every refresh (60 s made each refresh re-read a whole minute of writes: 50,000
# mutes written at once were re-read every second for a minute, docs/benchmarks-api.md).
OVERLAP = timedelta(seconds=5)
PAGE = 250  # rows read and merged between pauses (a few milliseconds of work)
PAUSE_SECONDS = 0.005  # the pause: the requests waiting meanwhile run


class RestrictionCache:
    def __init__(
        self,
        engine: Engine,
        refresh: float = 1.0,
        full_every: float = 300.0,
        after_full_reload: Callable[[], None] | None = None,
    ) -> None:
        self.engine = engine
        self.refresh = refresh
        self.full_every = full_every
        # Called (on the refresh thread) after each full reload: a server freezes what it
        # just built out of the collector's sight (`api.server_tuning`).
        self.after_full_reload = after_full_reload
        self._by_player: dict[str, tuple[Restriction, ...]] = {}
        # action id -> change time (as the driver gives it) of each row the last read merged,
        # so the rows an overlapping read finds again are skipped before they are fetched.
        self._merged: dict[str, object] = {}
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
        """Every restriction in force, read in pages of `PAGE` by action id with a pause
        between pages, then swapped in whole."""
        started = time.monotonic()
        a = schema.actions.c
        by_player: dict[str, list[Restriction]] = {}
        after = ""
        while True:
            query = (
                select(schema.actions)
                .where(active_clause(now), a.action_id > after)
                .order_by(a.action_id)
                .limit(PAGE)
            )
            with self.engine.connect() as conn:
                page = [restriction(row) for row in conn.execute(query)]
            for r in page:
                by_player.setdefault(r.player_id, []).append(r)
            if len(page) < PAGE:
                break
            after = page[-1].action_id
            time.sleep(PAUSE_SECONDS)
        self._by_player = {player: tuple(rs) for player, rs in by_player.items()}
        self._merged = {}
        self._read_from = now
        self._full_at = time.monotonic()
        log.info(
            "restriction cache: full reload of %d in %.3f s", len(self), time.monotonic() - started
        )
        if self.after_full_reload is not None:
            self.after_full_reload()

    def _incremental(self, now: datetime) -> None:
        """The rows changed since the last read (less `OVERLAP`): their ids and change times
        first, as the driver gives them (no conversion: five seconds of a mass ban are found
        again by every read of the overlap), then, in pages, the whole rows of those not
        merged yet at that change time."""
        since = self._read_from
        assert since is not None
        a = schema.actions.c
        raw_changed_at = type_coerce(a.changed_at, String)
        with self.engine.connect() as conn:
            seen = conn.execute(
                select(a.action_id, raw_changed_at).where(
                    a.kind.in_(RESTRICTING), a.changed_at >= since - OVERLAP
                )
            ).all()
        merged = self._merged
        wanted = [(action_id, stamp) for action_id, stamp in seen if merged.get(action_id) != stamp]
        for start in range(0, len(wanted), PAGE):
            if start:
                time.sleep(PAUSE_SECONDS)
            page = wanted[start : start + PAGE]
            self._fetch_and_merge([action_id for action_id, _ in page], now)
            merged.update(page)
        # Forget what no later read of the overlap can find again: the ids seen this time.
        if len(merged) > len(seen):
            self._merged = {action_id: merged[action_id] for action_id, _ in seen}
        self._read_from = now

    def _fetch_and_merge(self, action_ids: Sequence[str], now: datetime) -> None:
        a = schema.actions.c
        query = select(schema.actions).where(
            and_(a.kind.in_(RESTRICTING), a.action_id.in_(list(action_ids)))
        )
        with self.engine.connect() as conn:
            changed = [restriction(row) for row in conn.execute(query)]
        self._merge(changed, now)

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
