"""Console sessions kept in the store: sign-in exchanges the API key for a random session id,
and every server process checks, extends and ends sessions through the same table.

Why in the store and not in a signed cookie: logging out, an admin ending a session, a key
taken out of the ring and the idle timeout must end a session on every process at once, and
a cookie the server signed stays valid wherever it is replayed until it expires. The table
holds only the SHA-256 of each session id, so reading it signs nobody in.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine, insert, select, update

from railbird.api.auth import Principal, Role
from railbird.api.console.config import ConsoleConfig
from railbird.store import schema

# Last-seen is written at most this often per session: a page view is a read, not a write.
TOUCH_EVERY = timedelta(seconds=60)
# Ended and expired sessions are kept this long for the audit trail, then pruned at sign-in.
KEEP_ENDED = timedelta(days=30)


def new_session_id() -> str:
    """256 random bits, URL-safe: what the cookie holds."""
    return secrets.token_urlsafe(32)


def id_hash(session_id: str) -> str:
    return hashlib.sha256(b"railbird-console-session:" + session_id.encode("utf-8")).hexdigest()


def _utc(value: datetime) -> datetime:
    """SQLite gives times back without their zone; every time railbird writes is UTC."""
    return value if value.tzinfo else value.replace(tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class Session:
    """One sign-in: whose key, which role, when it ends, and the banner waiting for it."""

    id_hash: str
    ref: str
    key_id: str
    role: Role
    created_at: datetime
    last_seen_at: datetime
    idle_timeout: timedelta
    expires_at: datetime
    revoked_at: datetime | None = None
    revoked_by: str | None = None
    client_addr: str | None = None
    user_agent: str | None = None
    flash: Mapping[str, Any] | None = None

    @property
    def ends_at(self) -> datetime:
        """The earlier of the idle timeout (from the last request) and the absolute expiry."""
        return min(self.expires_at, self.last_seen_at + self.idle_timeout)

    def live_at(self, now: datetime) -> bool:
        return self.revoked_at is None and now < self.ends_at


def _session(row: Any) -> Session:
    return Session(
        id_hash=row.id_hash,
        ref=row.ref,
        key_id=row.key_id,
        role=Role(row.role),
        created_at=_utc(row.created_at),
        last_seen_at=_utc(row.last_seen_at),
        idle_timeout=timedelta(seconds=row.idle_timeout_s),
        expires_at=_utc(row.expires_at),
        revoked_at=None if row.revoked_at is None else _utc(row.revoked_at),
        revoked_by=row.revoked_by,
        client_addr=row.client_addr,
        user_agent=row.user_agent,
        flash=row.flash,
    )


class SessionStore:
    """The console's sessions over `engine`, with the lifetimes of `config`."""

    def __init__(self, engine: Engine, config: ConsoleConfig) -> None:
        self.engine = engine
        self.config = config

    def create(
        self,
        principal: Principal,
        now: datetime,
        client_addr: str | None = None,
        user_agent: str | None = None,
    ) -> tuple[str, Session]:
        """A new session for `principal` from `now`: its id (for the cookie only) and row."""
        session_id = new_session_id()
        session = Session(
            id_hash=id_hash(session_id),
            ref=secrets.token_hex(8),
            key_id=principal.key_id,
            role=principal.role,
            created_at=now,
            last_seen_at=now,
            idle_timeout=self.config.idle,
            expires_at=now + self.config.lifetime,
            client_addr=(client_addr or "")[:64] or None,
            user_agent=(user_agent or "")[:256] or None,
        )
        with self.engine.begin() as conn:
            conn.execute(
                schema.console_sessions.delete().where(
                    schema.console_sessions.c.expires_at < now - KEEP_ENDED
                )
            )
            conn.execute(
                insert(schema.console_sessions).values(
                    id_hash=session.id_hash,
                    ref=session.ref,
                    key_id=session.key_id,
                    role=str(session.role),
                    created_at=now,
                    last_seen_at=now,
                    idle_timeout_s=int(self.config.idle.total_seconds()),
                    expires_at=session.expires_at,
                    client_addr=session.client_addr,
                    user_agent=session.user_agent,
                )
            )
            _audit(conn, now, session, "console_sign_in", {"role": str(session.role)})
        return session_id, session

    def find(self, session_id: str, now: datetime) -> Session | None:
        """The live session with this id; None for an unknown, ended or expired one."""
        return self.find_by_hash(id_hash(session_id), now)

    def find_by_hash(self, hashed: str, now: datetime) -> Session | None:
        c = schema.console_sessions.c
        with self.engine.connect() as conn:
            row = conn.execute(select(schema.console_sessions).where(c.id_hash == hashed)).first()
        if row is None:
            return None
        session = _session(row)
        return session if session.live_at(now) else None

    def touch(self, session: Session, now: datetime) -> None:
        """Move the idle timeout on (written at most once a minute)."""
        if now - session.last_seen_at < TOUCH_EVERY:
            return
        c = schema.console_sessions.c
        with self.engine.begin() as conn:
            conn.execute(
                update(schema.console_sessions)
                .where(c.id_hash == session.id_hash, c.revoked_at.is_(None))
                .values(last_seen_at=now)
            )

    def end(self, ref: str, by: str, now: datetime, key_id: str | None = None) -> Session | None:
        """End the live session `ref` (only if it is `key_id`'s, when given); the session
        ended, or None if there was no such live session."""
        c = schema.console_sessions.c
        with self.engine.begin() as conn:
            row = conn.execute(
                select(schema.console_sessions).where(c.ref == ref, c.revoked_at.is_(None))
            ).first()
            if row is None or (key_id is not None and row.key_id != key_id):
                return None
            conn.execute(
                update(schema.console_sessions)
                .where(c.ref == ref, c.revoked_at.is_(None))
                .values(revoked_at=now, revoked_by=by[:64])
            )
            ended = _session(row)
            _audit(conn, now, ended, "console_session_ended", {"by": by[:64]})
        return ended

    def live(self, now: datetime, key_id: str | None = None) -> list[Session]:
        """Sessions in force, newest first: one key's, or everyone's."""
        c = schema.console_sessions.c
        query = select(schema.console_sessions).where(c.revoked_at.is_(None), c.expires_at > now)
        if key_id is not None:
            query = query.where(c.key_id == key_id)
        with self.engine.connect() as conn:
            rows = conn.execute(query.order_by(c.created_at.desc()).limit(500)).all()
        return [s for s in map(_session, rows) if s.live_at(now)]

    def set_flash(self, session: Session, code: str, values: Mapping[str, str]) -> None:
        """The banner the session's next page shows."""
        c = schema.console_sessions.c
        with self.engine.begin() as conn:
            conn.execute(
                update(schema.console_sessions)
                .where(c.id_hash == session.id_hash)
                .values(flash={"code": code, "values": dict(values)})
            )

    def clear_flash(self, session: Session) -> None:
        c = schema.console_sessions.c
        with self.engine.begin() as conn:
            conn.execute(
                update(schema.console_sessions)
                .where(c.id_hash == session.id_hash)
                .values(flash=None)
            )


def _audit(conn: Any, now: datetime, session: Session, action: str, detail: dict[str, str]) -> None:
    conn.execute(
        insert(schema.audit_log).values(
            ts=now,
            actor=f"key:{session.key_id}",
            action=action,
            target=f"console-session:{session.ref}",
            detail=detail,
        )
    )
