"""API keys with roles, checked as a FastAPI dependency: least privilege per route.

Roles: `analyst` (flags, restrictions), `investigator` (flags, sessions with full context, chat
log), `chat_service` (the millisecond "may this player say this?" check, and the join check),
`lobby_service` (the "may this player join this table?" check only), `metrics` (a Prometheus
scraper: `GET /metrics` only), `reports` (players' reports: `POST /v1/reports` only; the chat
service may file them too), `admin` (all).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated

from fastapi import Depends, HTTPException, Request, status
from fastapi.security import APIKeyHeader


class Role(StrEnum):
    """What a key may do; `admin` passes every role check."""

    ANALYST = "analyst"
    INVESTIGATOR = "investigator"
    CHAT_SERVICE = "chat_service"
    LOBBY_SERVICE = "lobby_service"  # the lobby asks whether a player may join a table
    METRICS = "metrics"  # a scraper reads /metrics and nothing else
    REPORTS = "reports"  # a service that forwards players' reports, and nothing else
    ADMIN = "admin"


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the key's role, and a fingerprint to log instead of the key."""

    key_id: str  # a short, non-secret fingerprint of the key, for the audit log
    role: Role


class KeyRing:
    """Holds key digests, never the keys; compares in constant time."""

    def __init__(self, keys: Mapping[str, str]) -> None:
        self._by_digest: dict[bytes, Role] = {}
        for key, role in keys.items():
            if len(key) < 16:
                raise ValueError("API keys must be at least 16 characters")
            self._by_digest[self._digest(key)] = Role(role)
        # A console session names its key by fingerprint: it must still be in the ring, with
        # the same role, for the session to count (a key taken out ends its sessions).
        self._by_key_id = {d.hex()[:12]: r for d, r in self._by_digest.items()}

    @staticmethod
    def _digest(key: str) -> bytes:
        return hashlib.sha256(key.encode("utf-8")).digest()

    def lookup(self, key: str) -> Principal | None:
        """The principal for `key`; None when it is not a known key."""
        digest = self._digest(key)
        for known, role in self._by_digest.items():
            if hmac.compare_digest(known, digest):
                return Principal(key_id=digest.hex()[:12], role=role)
        return None

    def by_key_id(self, key_id: str) -> Principal | None:
        """The principal of the key with this fingerprint, if the ring still holds it."""
        role = self._by_key_id.get(key_id)
        return None if role is None else Principal(key_id=key_id, role=role)


api_key_header = APIKeyHeader(name="X-API-Key", auto_error=False)


def require(*roles: Role) -> Callable[..., Awaitable[Principal]]:
    """A dependency that admits keys with one of `roles`, or `admin`; `require()` admits admin only.

    401 when the X-API-Key header is missing or the key unknown, 403 when its role is not admitted.
    """
    allowed = set(roles) | {Role.ADMIN}

    # Async: a plain `def` dependency runs on the thread pool, a thread hop on every request.
    async def dependency(
        request: Request, key: Annotated[str | None, Depends(api_key_header)]
    ) -> Principal:
        if not key:
            raise HTTPException(status.HTTP_401_UNAUTHORIZED, "missing X-API-Key header")
        keyring: KeyRing = request.app.state.keyring
        principal = keyring.lookup(key)
        if principal is None:
            raise HTTPException(status.HTTP_401_UNAUTHORIZED, "unknown API key")
        if principal.role not in allowed:
            raise HTTPException(
                status.HTTP_403_FORBIDDEN,
                f"role '{principal.role}' may not use this endpoint "
                f"(needs one of: {', '.join(sorted(allowed))})",
            )
        return principal

    return dependency
