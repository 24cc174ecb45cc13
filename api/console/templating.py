"""Rendering the console's pages: one Jinja2 environment, the security headers every page
carries, and errors shown as pages rather than JSON."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates

from railbird.api.auth import Role
from railbird.api.console.auth import ConsoleUser, NotAllowed, SignInRequired, current_user
from railbird.api.console.views import highlight
from railbird.rules.flags import format_ts

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))
templates.env.filters["ts"] = lambda t: (
    "" if t is None else format_ts(t) if not isinstance(t, str) else t
)
templates.env.filters["highlight"] = highlight
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


class ConsoleError(Exception):
    """A page-level refusal (not found, conflict, bad input) shown as an error page."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def render(
    request: Request, name: str, user: ConsoleUser | None, status: int = 200, **context: Any
) -> HTMLResponse:
    response = templates.TemplateResponse(
        request,
        name,
        {"user": user, "message": request.query_params.get("msg"), **context},
        status_code=status,
    )
    response.headers.update(SECURITY_HEADERS)
    return response


def back_to(request: Request, target: str, message: str = "") -> RedirectResponse:
    """A 303 to a console page (never elsewhere: `target` must start with /console/)."""
    if not target.startswith("/console/") or target.startswith("//"):
        target = "/console/queue"
    if message:
        target += ("&" if "?" in target else "?") + "msg=" + quote(message)
    return RedirectResponse(target, status_code=303)


async def _sign_in_required(request: Request, exc: Exception) -> Response:
    target = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/console/login?next={quote(target)}", status_code=303)


async def _not_allowed(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, NotAllowed)
    return render(request, "error.html", exc.user, status=403, title="Not allowed", detail=str(exc))


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
    app.add_exception_handler(ConsoleError, _console_error)
