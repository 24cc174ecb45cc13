"""The Alembic migrations build exactly the schema `store/schema.py` declares."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from railbird.store import schema
from railbird.store.database import make_engine, migrate


def test_migrating_a_new_database_gives_the_declared_schema(tmp_path: Path) -> None:
    engine = make_engine(f"sqlite:///{tmp_path / 'm.db'}")
    migrate(engine)
    with engine.connect() as conn:
        differences = compare_metadata(MigrationContext.configure(conn), schema.metadata)
    engine.dispose()
    assert differences == []
