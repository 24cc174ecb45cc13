"""Sign-in throttling per client and per key, counted in the store so that every server
process sees every attempt (a per-process counter would give N processes N times the
allowance).

Per client: failed sign-ins from one address. Per key: every sign-in naming one key, right or
wrong, so a stolen key cannot mint sessions by the hundred either. Both over a sliding window;
the answer says how long to wait. Addresses and keys are kept as digests only.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta

from sqlalchemy import Engine, func, insert, select

from railbird.api.console.config import ConsoleConfig
from railbird.store import schema

# Attempts older than this are deleted at each new one: longer than any window.
KEEP = timedelta(days=1)


def _digest(label: str, value: str) -> str:
    return hashlib.sha256(f"railbird-sign-in-{label}:{value}".encode()).hexdigest()


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class SignInThrottle:
    def __init__(self, engine: Engine, config: ConsoleConfig) -> None:
        self.engine = engine
        self.config = config

    def wait(self, client: str, key: str, now: datetime) -> timedelta | None:
        """How long `client` must wait before trying `key`; None when it may try now."""
        t = schema.console_sign_ins.c
        since = now - self.config.window
        limits = (
            (
                t.client_hash == _digest("client", client),
                t.ok.is_(False),
                self.config.failures_per_client,
            ),
            (t.key_hash == _digest("key", key), None, self.config.attempts_per_key),
        )
        with self.engine.connect() as conn:
            for who, which, limit in limits:
                query = select(func.count(), func.min(t.ts)).where(who, t.ts > since)
                if which is not None:
                    query = query.where(which)
                count, oldest = conn.execute(query).one()
                if count >= limit and oldest is not None:
                    left = _utc(oldest) + self.config.window - now
                    return max(left, timedelta(seconds=1))
        return None

    def record(self, client: str, key: str, ok: bool, now: datetime) -> None:
        t = schema.console_sign_ins.c
        with self.engine.begin() as conn:
            conn.execute(schema.console_sign_ins.delete().where(t.ts < now - KEEP))
            conn.execute(
                insert(schema.console_sign_ins).values(
                    ts=now,
                    client_hash=_digest("client", client),
                    key_hash=_digest("key", key),
                    ok=ok,
                )
            )
