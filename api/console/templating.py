"""Rendering the console's pages: one Jinja2 environment, the security headers every page
carries, the banners, and errors shown as pages rather than JSON.

Banners come from a fixed set of sentences (`MESSAGES`) kept with the session in the store
(`flash`) and filled with values the server produced: no text in a URL ever reaches a page's
chrome, so a link cannot make the console say what its sender wants.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from railbird.api.auth import Role
from railbird.api.console.auth import (
    ConsoleUser,
    FormRefused,
    NotAllowed,
    SignInRequired,
    current_user,
    session_store,
)
from railbird.api.console.views import highlight
from railbird.detectors.text.bidi import BIDI_CONTROLS, MARK_CLOSE, MARK_OPEN, visible_controls
from railbird.rules.flags import format_ts

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.filters["ts"] = lambda t: (
    "" if t is None else format_ts(t) if not isinstance(t, str) else t
)


def _shown(value: Any) -> Any:
    """Every value a template prints, with bidi controls shown as marks (plain text, safe in
    an attribute as in an element): player-chosen text cannot reorder the page around it."""
    if isinstance(value, Markup):
        return Markup(visible_controls(str(value)))
    if isinstance(value, str):
        return visible_controls(value)
    return value


_MARK = re.compile(
    re.escape(MARK_OPEN) + "(" + "|".join(BIDI_CONTROLS.values()) + ")" + re.escape(MARK_CLOSE)
)
_CONTROL_NAMES = {
    "LRE": "left-to-right embedding",
    "RLE": "right-to-left embedding",
    "PDF": "end of an embedding or override",
    "LRO": "left-to-right override",
    "RLO": "right-to-left override: what follows displayed reversed",
    "LRI": "left-to-right isolate",
    "RLI": "right-to-left isolate",
    "FSI": "first-strong isolate",
    "PDI": "end of an isolate",
    "LRM": "left-to-right mark",
    "RLM": "right-to-left mark",
    "ALM": "Arabic letter mark",
}


def chat_text(text: str, terms: Sequence[str] = ()) -> Markup:
    """Chat as the console shows it: escaped, offending words marked, and each bidi control a
    visible, labelled mark (in element content only, where markup is allowed)."""
    marked = str(highlight(visible_controls(text), [visible_controls(t) for t in terms]))
    return Markup(
        _MARK.sub(
            lambda m: (
                f'<span class="bidi" title="{_CONTROL_NAMES[m.group(1)]}">{m.group(0)}</span>'
            ),
            marked,
        )
    )


templates.env.filters["highlight"] = chat_text
templates.env.finalize = _shown
templates.env.globals["Role"] = Role

# No script, style or image from any other host, and no inline script: the console's own
# assets only (`/console/static`), and never inside another site's frame.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; connect-src 'self'; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
}

# Every banner the console can show. Values are filled in by the server from what it did.
MESSAGES = {
    "reviewed": "Flag {flag_id} {decision}.",
    "reviewed_lifted": "Flag {flag_id} {decision}; lifted {lifted} restriction(s).",
    "dismissal_needs_note": "A dismissal needs a note (why it is not a violation).",
    "review_conflict": "Not saved: {reason}.",
    "bad_duration": "Duration: whole minutes from 1 to 525600, or empty.",
    "join_block_needs_level": "A join block needs its blind level, e.g. 50/100 (a big blind of "
    "at least 1, and a small blind no bigger).",
    "restriction_applied": "{kind}{at} applied to {player_id} ({action_id}).",
    "restriction_not_in_force": "{action_id} is not in force (lifted or expired).",
    "restriction_lifted": "{action_id} lifted.",
    "policy_reloaded": "Reloaded: version {version}.",
    "policy_not_reloaded": "Not reloaded: {error}",
    "session_ended": "Session {ref} ended.",
    "sessions_ended": "Ended {count} other session(s) of your key.",
}
# The sign-in page's only banners, chosen by a code (`?ended=`), never by text.
SIGN_IN_NOTES = {
    "signed-out": "You are signed out.",
    "expired": "Your session ended (signed out elsewhere, timed out, or its key was "
    "withdrawn). Sign in again.",
}


class ConsoleError(Exception):
    """A page-level refusal (not found, conflict, bad input) shown as an error page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def _banner(request: Request, user: ConsoleUser | None) -> str | None:
    """The session's waiting banner, taken (shown once)."""
    if user is None or not user.session.flash:
        return None
    flash = dict(user.session.flash)
    session_store(request).clear_flash(user.session)
    template = MESSAGES.get(str(flash.get("code")))
    values = flash.get("values") or {}
    if template is None or not isinstance(values, dict):
        return None
    try:
        return template.format(**{k: str(v) for k, v in values.items()})
    except (KeyError, IndexError):
        return None


def render(
    request: Request,
    name: str,
    user: ConsoleUser | None,
    status: int = 200,
    headers: dict[str, str] | None = None,
    **context: Any,
) -> HTMLResponse:
    message = context.pop("message", None) or _banner(request, user)
    response = templates.TemplateResponse(
        request, name, {"user": user, "message": message, **context}, status_code=status
    )
    response.headers.update(SECURITY_HEADERS)
    response.headers.update(headers or {})
    return response


def safe_target(target: str) -> str:
    """A console page to go to: `target` if it is one (a path under /console/), else the
    queue."""
    if not target.startswith("/console/") or target.startswith("//") or "\\" in target:
        return "/console/queue"
    return target


def back_to(request: Request, target: str, code: str = "", **values: str) -> RedirectResponse:
    """A 303 to a console page (never elsewhere), with the banner `code` waiting for it."""
    if code:
        assert code in MESSAGES, code
        user = current_user(request)
        if user is not None:
            session_store(request).set_flash(user.session, code, values)
    return RedirectResponse(safe_target(target), status_code=303)


async def _sign_in_required(request: Request, exc: Exception) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    ended = "&ended=expired" if getattr(request.state, "console_session_ended", False) else ""
    return RedirectResponse(f"/console/login?next={quote(target)}{ended}", status_code=303)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, NotAllowed)
    return render(request, "error.html", exc.user, status=403, title="Not allowed", detail=str(exc))


async def _form_refused(request: Request, exc: Exception) -> Response:
    return render(
        request,
        "error.html",
        current_user(request),
        status=403,
        title="Form refused",
        detail=str(exc),
    )


async def _console_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ConsoleError)
    title = {404: "Not found", 409: "Conflict", 400: "Bad request"}.get(exc.status, "Error")
    return render(
        request,
        "error.html",
        current_user(request),
        status=exc.status,
        title=title,
        detail=str(exc),
    )


def install_error_pages(app: FastAPI) -> None:
    app.add_exception_handler(SignInRequired, _sign_in_required)
    app.add_exception_handler(NotAllowed, _not_allowed)
    app.add_exception_handler(FormRefused, _form_refused)
    app.add_exception_handler(ConsoleError, _console_error)
