"""Who is signed in to the console, and the checks every page and form makes.

The cookie holds a random session id, never the API key: sign-in exchanges the key for a
session kept in the store (`sessions`), so logging out, an admin ending it, the idle timeout,
the absolute expiry and a key taken out of the ring end it on every server process. Each form
carries a CSRF token derived from the session id (HMAC), so it changes with every sign-in, and
every state-changing request must carry an `Origin` that is one of the configured public
origins (`config`): never compared with the request's own `Host`. SameSite=Strict keeps other
sites' requests from carrying the cookie at all; the token and the Origin are the second and
third locks.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime

from fastapi import Request

from railbird.api.auth import KeyRing, Principal, Role
from railbird.api.console.config import ConsoleConfig
from railbird.api.console.sessions import Session, SessionStore

SESSION_COOKIE = "railbird_console"
LOGIN_COOKIE = "railbird_login"  # the sign-in form's own CSRF nonce, before any session
_CSRF_LABEL = b"railbird-console-csrf"
# Roles with console pages; a service's key (chat, lobby, metrics) cannot open a session.
CONSOLE_ROLES = frozenset({Role.ANALYST, Role.INVESTIGATOR, Role.ADMIN})
_MAX_COOKIE = 128


@dataclass(frozen=True, slots=True)
class ConsoleUser:
    """A signed-in analyst: the key's principal, the session and its forms' CSRF token."""

    principal: Principal
    csrf: str
    session: Session

    @property
    def role(self) -> Role:
        return self.principal.role

    @property
    def actor(self) -> str:
        return f"key:{self.principal.key_id}"

    def may(self, *roles: Role) -> bool:
        """Whether this user's role is one of `roles` (admin may everything), as `require`."""
        return self.principal.role in set(roles) | {Role.ADMIN}


def csrf_token(session_id: str) -> str:
    """The forms' token for one session: unguessable without the session id, new with each."""
    return hmac.new(session_id.encode("utf-8"), _CSRF_LABEL, hashlib.sha256).hexdigest()[:32]


class SignInRequired(Exception):
    """No live session: the page answers with a redirect to the sign-in form."""


class NotAllowed(Exception):
    """Signed in, but the role may not see this page or use this form."""

    def __init__(self, user: ConsoleUser, needs: tuple[Role, ...]) -> None:
        super().__init__(f"role '{user.role}' may not do this (needs one of: {_names(needs)})")
        self.user = user


class FormRefused(Exception):
    """A state-changing request that did not come from the console's own pages."""


def _names(roles: tuple[Role, ...]) -> str:
    return ", ".join(sorted({str(r) for r in roles} | {"admin"}))


def console_config(request: Request) -> ConsoleConfig:
    config: ConsoleConfig = request.app.state.console_config
    return config


def session_store(request: Request) -> SessionStore:
    store: SessionStore = request.app.state.console_sessions
    return store


def session_cookie(request: Request) -> str | None:
    value = request.cookies.get(console_config(request).cookie_name(SESSION_COOKIE))
    return value if value and len(value) <= _MAX_COOKIE else None


_UNSET = object()


def current_user(request: Request) -> ConsoleUser | None:
    """The signed-in user of this request (looked up once per request), or None."""
    known = getattr(request.state, "console_user", _UNSET)
    if known is not _UNSET:
        return known  # type: ignore[return-value]
    user = _load_user(request)
    request.state.console_user = user
    return user


def _load_user(request: Request) -> ConsoleUser | None:
    session_id = session_cookie(request)
    if session_id is None:
        return None
    store = session_store(request)
    now = datetime.now(UTC)
    session = store.find(session_id, now)
    if session is None:
        request.state.console_session_ended = True
        return None
    keyring: KeyRing = request.app.state.keyring
    principal = keyring.by_key_id(session.key_id)
    if principal is None or principal.role != session.role or principal.role not in CONSOLE_ROLES:
        store.end(session.ref, "its key left the key ring or changed role", now)
        request.state.console_session_ended = True
        return None
    store.touch(session, now)
    return ConsoleUser(principal, csrf_token(session_id), session)


def still_signed_in(request: Request, user: ConsoleUser) -> bool:
    """Whether `user`'s session is still live (a long stream re-asks; it does not extend it)."""
    found = session_store(request).find_by_hash(user.session.id_hash, datetime.now(UTC))
    return found is not None


def page_user(*roles: Role) -> Callable[[Request], ConsoleUser]:
    """A dependency for a page or form that `roles` (or admin) may use: the same sets as the
    API route it mirrors."""

    def dependency(request: Request) -> ConsoleUser:
        user = current_user(request)
        if user is None:
            raise SignInRequired
        if roles and not user.may(*roles):
            raise NotAllowed(user, roles)
        return user

    return dependency


def check_origin(request: Request) -> None:
    """A state-changing request must say where it comes from, and that must be the console:
    every browser sends `Origin` with a form POST, so a request without one is not a form of
    ours."""
    origin = request.headers.get("origin")
    config = console_config(request)
    if not origin:
        raise FormRefused(
            "the request has no Origin header: forms are accepted from the console only"
        )
    if origin not in config.origins:
        raise FormRefused(
            f"a form posted from {origin[:100]!r}: this console is served at {config.origins[0]}"
        )


def check_form(request: Request, user: ConsoleUser, token: str) -> None:
    """A POST from the console's own pages only: the Origin, then the session's CSRF token."""
    check_origin(request)
    if not hmac.compare_digest(token.encode("utf-8"), user.csrf.encode("utf-8")):
        raise FormRefused("the form's CSRF token is not this session's: reload the page")
