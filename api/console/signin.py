"""`/console/login` and `/console/logout`: the key typed once, then kept in the cookie."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from railbird.api.console.auth import (
    COOKIE,
    MAX_AGE_S,
    ConsoleUser,
    check_form,
    current_user,
    page_user,
)
from railbird.api.console.templating import back_to, render

router = APIRouter(prefix="/console", include_in_schema=False)
SignedIn = Annotated[ConsoleUser, Depends(page_user())]


@router.get("", response_class=RedirectResponse)
def home() -> RedirectResponse:
    return RedirectResponse("/console/queue", status_code=303)


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "/console/queue") -> HTMLResponse:
    return render(request, "login.html", current_user(request), next=next)


@router.post("/login")
def login(
    request: Request,
    api_key: Annotated[str, Form(max_length=256)],
    next: Annotated[str, Form(max_length=2000)] = "/console/queue",
) -> Response:
    """Check the key against the key ring; on success keep it in the cookie (HTTP-only,
    SameSite=Strict, path /console) and go where the analyst was headed."""
    principal = request.app.state.keyring.lookup(api_key.strip())
    if principal is None:
        return render(
            request, "login.html", None, status=401, next=next, error="That key is not known."
        )
    response = back_to(request, next if next.startswith("/console/") else "/console/queue")
    response.set_cookie(
        COOKIE,
        api_key.strip(),
        max_age=MAX_AGE_S,
        path="/console",
        secure=True,
        httponly=True,
        samesite="strict",
    )
    return response


@router.post("/logout")
def logout(request: Request, user: SignedIn, csrf: Annotated[str, Form()]) -> Response:
    check_form(request, user, csrf)
    response = RedirectResponse("/console/login", status_code=303)
    response.delete_cookie(COOKIE, path="/console", secure=True, httponly=True, samesite="strict")
    return response
