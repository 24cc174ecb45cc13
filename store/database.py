"""Engine creation and schema migration, used by both edges at start-up."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text

MIGRATIONS = Path(__file__).parent / "migrations"
DEFAULT_URL = "sqlite:///railbird.db"


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    # WAL lets the API read while the pipeline writes; NORMAL sync is safe with WAL.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    # 64 MiB of page cache instead of SQLite's 2 MiB (an upper bound, filled only as pages are
    # read): chat inserts land all over three indexes, and with the default cache most of them
    # re-read their pages from the file (docs/design-numbers.md); durability is untouched (WAL
    # and NORMAL sync as before).
    cursor.execute("PRAGMA cache_size=-65536")
    cursor.close()


def make_engine(url: str = DEFAULT_URL) -> Engine:
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    engine = create_engine(url, future=True, pool_pre_ping=True)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


# Any constant shared by every railbird process: the key of PostgreSQL's advisory lock.
_MIGRATION_LOCK_KEY = 0x7261696C62697264  # "railbird"


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest revision (idempotent), one process at a time.

    Workers started together on a new database would otherwise all find no schema and all
    create it ("table actions already exists"). PostgreSQL: a transaction-scoped advisory lock
    (DDL is transactional there, so the second process then finds the schema at head). SQLite:
    an exclusive `flock` on a lock file beside the database for the whole upgrade."""
    config = alembic_config()
    with _file_lock(engine), engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(
                text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK_KEY}
            )
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


@contextmanager
def _file_lock(engine: Engine) -> Iterator[None]:
    """An exclusive `flock` on `<database>.migrate-lock`, beside the database: never on the
    database file itself, because closing any descriptor of that file would release the POSIX
    locks SQLite holds on it in this process (SQLite's documented way to corrupt a database)."""
    path = engine.url.database if engine.dialect.name == "sqlite" else None
    if not path or path == ":memory:" or path.startswith("file:"):
        yield
        return
    try:
        handle = open(f"{path}.migrate-lock", "ab")  # noqa: SIM115 - held for the whole upgrade
    except OSError:  # no such directory, no permission: SQLite's own error says it better
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
