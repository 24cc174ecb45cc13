"""The policy page: the file in force and its version (analyst, investigator), and the reload
button (admin), as `GET /v1/policy` and `POST /v1/policy/reload`."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import HTMLResponse, Response

from railbird.api.auth import Role
from railbird.api.console.auth import ConsoleUser, check_form, page_user
from railbird.api.console.templating import back_to, render
from railbird.rules.policy_file import PolicyError
from railbird.rules.policy_watch import PolicyWatch

router = APIRouter(prefix="/console", include_in_schema=False)
Reader = Annotated[ConsoleUser, Depends(page_user(Role.ANALYST, Role.INVESTIGATOR))]
Admin = Annotated[ConsoleUser, Depends(page_user(Role.ADMIN))]


@router.get("/policy", response_class=HTMLResponse)
def policy_page(request: Request, user: Reader) -> HTMLResponse:
    watch: PolicyWatch = request.app.state.policy
    watch.changed()
    return render(request, "policy.html", user, policy=watch.current())


@router.post("/policy/reload")
def policy_reload(
    request: Request, user: Admin, csrf: Annotated[str, Form(max_length=64)]
) -> Response:
    check_form(request, user, csrf)
    watch: PolicyWatch = request.app.state.policy
    try:
        policy = watch.reload()
    except PolicyError as exc:
        return back_to(request, "/console/policy", "policy_not_reloaded", error=str(exc))
    return back_to(request, "/console/policy", "policy_reloaded", version=policy.version)
