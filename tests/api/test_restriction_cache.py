"""The restriction cache after a mass ban: every new restriction is in force at the next
refresh, the rows an overlapping read finds again are not fetched again, a lift inside the
overlap is still seen, and a full reload reads in pages."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from railbird.api import restriction_cache
from railbird.api.restriction_cache import PAGE, RestrictionCache
from railbird.api.restriction_store import lift_restriction
from railbird.store import schema
from railbird.store.database import make_engine, migrate

BAN = PAGE * 2 + 37  # more than a page, and not a whole number of pages


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    made = make_engine(f"sqlite:///{tmp_path / 'cache.db'}")
    migrate(made)
    return made


def _mass_ban(engine: Engine, count: int, first: int = 0) -> None:
    now = datetime.now(UTC)
    rows = [
        {"action_id": f"a-ban-{n}", "kind": "chat_ban", "scope": None, "player_id": f"p-b{n}",
         "ts": now, "expires_at": now + timedelta(days=1), "reason": "bot", "flag_ids": [],
         "actor": "railbird-rules", "changed_at": now}
        for n in range(first, first + count)
    ]  # fmt: skip
    with engine.begin() as conn:
        conn.execute(schema.actions.insert(), rows)


def test_a_mass_ban_is_in_force_at_the_next_refresh_and_is_not_fetched_again(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = RestrictionCache(engine, refresh=60, full_every=3600)
    cache.refresh_now()  # the first read is a full one: nothing yet
    fetched: list[int] = []
    fetch = RestrictionCache._fetch_and_merge

    def counting(self: RestrictionCache, ids: list[str], now: datetime) -> None:
        fetched.append(len(ids))
        fetch(self, ids, now)

    monkeypatch.setattr(RestrictionCache, "_fetch_and_merge", counting)
    _mass_ban(engine, BAN)
    cache.refresh_now()
    now = datetime.now(UTC)
    assert all(cache.for_player(f"p-b{n}", now) for n in (0, PAGE, BAN - 1))
    assert len(cache) == BAN
    assert fetched == [PAGE, PAGE, 37]  # in pages
    fetched.clear()
    cache.refresh_now()  # within the overlap: found again, not fetched again
    assert fetched == [] and len(cache) == BAN
    lift_restriction(engine, "a-ban-5", "key:test", "not a bot", datetime.now(UTC))
    cache.refresh_now()  # a changed row inside the overlap is fetched
    assert fetched == [1]
    assert cache.for_player("p-b5", datetime.now(UTC)) == []
    assert len(cache) == BAN - 1


def test_a_full_reload_reads_in_pages_and_tells_who_asked(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    _mass_ban(engine, BAN)
    pauses: list[float] = []
    monkeypatch.setattr(restriction_cache.time, "sleep", pauses.append)
    reloads: list[int] = []
    cache = RestrictionCache(engine, refresh=60, full_every=0)
    cache.after_full_reload = lambda: reloads.append(len(cache))
    cache.refresh_now()
    assert len(cache) == BAN and reloads == [BAN]
    assert len(pauses) == BAN // PAGE  # a pause between pages
    lift_restriction(engine, "a-ban-0", "key:test", "not a bot", datetime.now(UTC))
    cache.refresh_now()  # full_every=0: another full reload
    assert len(cache) == BAN - 1 and reloads == [BAN, BAN - 1]
