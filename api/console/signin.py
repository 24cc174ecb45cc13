"""`/console/login` and `/console/logout`: the key typed once and exchanged for a session, and
the page where analysts see and end their sessions (an admin, anyone's).

The key never leaves the sign-in request: the browser keeps only the session id (HttpOnly,
SameSite=Strict, Secure; `__Host-` over HTTPS). The sign-in form is guarded like every other
form: it must come from a configured origin and carry the nonce of the page that showed it
(a cookie of its own, compared with the form's copy), so another site cannot sign an analyst's
browser in as someone else. Attempts are throttled per client and per key.
"""

from __future__ import annotations

import hmac
import secrets
from datetime import UTC, datetime
from typing import Annotated, Literal

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from railbird.api.auth import KeyRing, Role
from railbird.api.console.auth import (
    CONSOLE_ROLES,
    LOGIN_COOKIE,
    SESSION_COOKIE,
    ConsoleUser,
    check_form,
    check_origin,
    console_config,
    current_user,
    page_user,
    session_store,
)
from railbird.api.console.sign_in_throttle import SignInThrottle
from railbird.api.console.templating import SIGN_IN_NOTES, back_to, render, safe_target

router = APIRouter(prefix="/console", include_in_schema=False)
SignedIn = Annotated[ConsoleUser, Depends(page_user())]
LOGIN_NONCE_S = 3600  # the sign-in page's form stays usable for an hour


@router.get("", response_class=RedirectResponse)
def home() -> RedirectResponse:
    return RedirectResponse("/console/queue", status_code=303)


def _login_page(
    request: Request,
    next: str,
    status: int = 200,
    error: str | None = None,
    note: str | None = None,
    headers: dict[str, str] | None = None,
) -> HTMLResponse:
    config = console_config(request)
    name = config.cookie_name(LOGIN_COOKIE)
    nonce = request.cookies.get(name)
    if not nonce or len(nonce) > 64:
        nonce = secrets.token_urlsafe(24)
    response = render(
        request,
        "login.html",
        None,
        status=status,
        headers=headers,
        next=safe_target(next),
        login_csrf=nonce,
        error=error,
        message=note,
        idle_minutes=int(config.idle.total_seconds() // 60),
        lifetime_hours=round(config.lifetime.total_seconds() / 3600, 1),
    )
    response.set_cookie(
        name,
        nonce,
        max_age=LOGIN_NONCE_S,
        path=config.cookie_path,
        secure=config.secure_cookies,
        httponly=True,
        samesite="strict",
    )
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(
    request: Request,
    next: str = "/console/queue",
    ended: Literal["signed-out", "expired"] | None = None,
) -> Response:
    if current_user(request) is not None:
        return RedirectResponse(safe_target(next), status_code=303)
    return _login_page(request, next, note=SIGN_IN_NOTES.get(ended or ""))


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


@router.post("/login")
def login(
    request: Request,
    api_key: Annotated[str, Form(max_length=256)],
    login_csrf: Annotated[str, Form(max_length=64)] = "",
    next: Annotated[str, Form(max_length=2000)] = "/console/queue",
) -> Response:
    """Check the form's origin and nonce, the throttle, then the key; on success start a
    session and keep only its id in the cookie."""
    check_origin(request)
    config = console_config(request)
    nonce = request.cookies.get(config.cookie_name(LOGIN_COOKIE), "")
    if not nonce or not hmac.compare_digest(nonce.encode(), login_csrf.encode()):
        return _login_page(
            request,
            next,
            status=403,
            error="This sign-in form was not shown by this console (or is over an hour old): "
            "try again.",
        )
    key = api_key.strip()
    now = datetime.now(UTC)
    throttle: SignInThrottle = request.app.state.console_throttle
    wait = throttle.wait(_client(request), key, now)
    if wait is not None:
        seconds = int(wait.total_seconds()) + 1
        return _login_page(
            request,
            next,
            status=429,
            error=f"Too many sign-in attempts: try again in {seconds // 60 + 1} minute(s).",
            headers={"Retry-After": str(seconds)},
        )
    keyring: KeyRing = request.app.state.keyring
    principal = keyring.lookup(key)
    if principal is None or principal.role not in CONSOLE_ROLES:
        throttle.record(_client(request), key, False, now)
        error = (
            "That key is not known."
            if principal is None
            else f"A {principal.role} key has no console pages: sign in with an analyst's, "
            "an investigator's or an admin's key."
        )
        return _login_page(request, next, status=401 if principal is None else 403, error=error)
    throttle.record(_client(request), key, True, now)
    store = session_store(request)
    previous = current_user(request)
    if previous is not None:  # a new sign-in in this browser replaces the old session
        store.end(previous.session.ref, "replaced by a new sign-in", now)
    session_id, _session = store.create(
        principal, now, _client(request), request.headers.get("user-agent")
    )
    response = RedirectResponse(safe_target(next), status_code=303)
    response.set_cookie(
        config.cookie_name(SESSION_COOKIE),
        session_id,
        path=config.cookie_path,
        secure=config.secure_cookies,
        httponly=True,
        samesite="strict",
    )
    response.delete_cookie(
        config.cookie_name(LOGIN_COOKIE),
        path=config.cookie_path,
        secure=config.secure_cookies,
        httponly=True,
        samesite="strict",
    )
    return response


def _signed_out(request: Request) -> RedirectResponse:
    config = console_config(request)
    response = RedirectResponse("/console/login?ended=signed-out", status_code=303)
    response.delete_cookie(
        config.cookie_name(SESSION_COOKIE),
        path=config.cookie_path,
        secure=config.secure_cookies,
        httponly=True,
        samesite="strict",
    )
    return response


@router.post("/logout")
def logout(request: Request, user: SignedIn, csrf: Annotated[str, Form(max_length=64)]) -> Response:
    """End the session in the store (on every server process), then forget the cookie."""
    check_form(request, user, csrf)
    session_store(request).end(user.session.ref, "signed out", datetime.now(UTC))
    return _signed_out(request)


@router.get("/account", response_class=HTMLResponse)
def account(request: Request, user: SignedIn) -> HTMLResponse:
    """The sessions of the signed-in key (an admin: everyone's), with a button to end each."""
    now = datetime.now(UTC)
    store = session_store(request)
    everyone = user.may(Role.ADMIN)
    sessions = store.live(now, None if everyone else user.principal.key_id)
    return render(
        request,
        "account.html",
        user,
        sessions=sessions,
        everyone=everyone,
        current_ref=user.session.ref,
        now=now,
    )


@router.post("/account/sessions/{ref}/end")
def end_session(
    request: Request, ref: str, user: SignedIn, csrf: Annotated[str, Form(max_length=64)]
) -> Response:
    """End one session: the analyst's own key's, or (an admin) anyone's."""
    check_form(request, user, csrf)
    owner = None if user.may(Role.ADMIN) else user.principal.key_id
    ended = session_store(request).end(ref[:16], f"ended by {user.actor}", datetime.now(UTC), owner)
    if ended is not None and ended.ref == user.session.ref:
        return _signed_out(request)
    if ended is None:
        return back_to(request, "/console/account")
    return back_to(request, "/console/account", "session_ended", ref=ended.ref)


@router.post("/account/sessions/end-others")
def end_other_sessions(
    request: Request, user: SignedIn, csrf: Annotated[str, Form(max_length=64)]
) -> Response:
    """End every other session of the signed-in key (a lost laptop, a shared screen)."""
    check_form(request, user, csrf)
    store = session_store(request)
    now = datetime.now(UTC)
    count = 0
    for session in store.live(now, user.principal.key_id):
        if session.ref != user.session.ref and store.end(session.ref, "ended by its key", now):
            count += 1
    return back_to(request, "/console/account", "sessions_ended", count=str(count))
