"""The SQLite store keeps its durability settings and gets the larger page cache."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import text

from railbird.store.database import make_engine


def test_wal_normal_sync_and_a_64_mib_page_cache(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    with engine.connect() as conn:
        settings = [
            conn.execute(text(f"PRAGMA {name}")).scalar()
            for name in ("journal_mode", "synchronous", "foreign_keys", "cache_size")
        ]
    engine.dispose()
    assert settings == ["wal", 1, 1, -65536]  # synchronous 1 = NORMAL
