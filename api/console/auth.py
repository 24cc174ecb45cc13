"""Signing in to the console: the API key entered once, kept in an HTTP-only cookie, and the
same roles as the API on every page.

The cookie holds the key itself (HttpOnly, SameSite=Strict, Secure, path `/console`; browsers
keep a Secure cookie from http://127.0.0.1 and localhost, where the demo serves), so every
server process can check it with the key ring alone: no session table, nothing to share
between workers. Forms carry a CSRF token derived
from the key (HMAC), checked with the request's Origin on every POST; SameSite=Strict already
keeps other sites' requests from carrying the cookie, the token is the second lock.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import HTTPException, Request, status

from railbird.api.auth import KeyRing, Principal, Role

COOKIE = "railbird_console"
MAX_AGE_S = 12 * 3600  # a working day: the analyst signs in again the next morning
_CSRF_LABEL = b"railbird-console-csrf"


@dataclass(frozen=True, slots=True)
class ConsoleUser:
    """A signed-in analyst: the key's principal and the CSRF token its forms carry."""

    principal: Principal
    csrf: str

    @property
    def role(self) -> Role:
        return self.principal.role

    @property
    def actor(self) -> str:
        return f"key:{self.principal.key_id}"

    def may(self, *roles: Role) -> bool:
        """Whether this user's role is one of `roles` (admin may everything), as `require`."""
        return self.principal.role in set(roles) | {Role.ADMIN}


def csrf_token(key: str) -> str:
    return hmac.new(key.encode("utf-8"), _CSRF_LABEL, hashlib.sha256).hexdigest()[:32]


class SignInRequired(Exception):
    """No valid cookie: the page answers with a redirect to the sign-in form."""


class NotAllowed(Exception):
    """Signed in, but the role may not see this page or use this form."""

    def __init__(self, user: ConsoleUser, needs: tuple[Role, ...]) -> None:
        super().__init__(f"role '{user.role}' may not do this (needs one of: {_names(needs)})")
        self.user = user


def _names(roles: tuple[Role, ...]) -> str:
    return ", ".join(sorted({str(r) for r in roles} | {"admin"}))


def current_user(request: Request) -> ConsoleUser | None:
    key = request.cookies.get(COOKIE)
    if not key:
        return None
    keyring: KeyRing = request.app.state.keyring
    principal = keyring.lookup(key)
    return None if principal is None else ConsoleUser(principal, csrf_token(key))


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


def check_form(request: Request, user: ConsoleUser, token: str) -> None:
    """A POST from the console's own pages only: the CSRF token, and the Origin when the
    browser sends one."""
    if not hmac.compare_digest(token, user.csrf):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "the form's CSRF token is not valid")
    origin = request.headers.get("origin")
    if origin and origin != f"{request.url.scheme}://{request.url.netloc}":
        raise HTTPException(status.HTTP_403_FORBIDDEN, f"a form posted from {origin!r}")
