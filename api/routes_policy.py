"""The moderation policy: `GET /v1/policy` (the file and what it says), `POST /v1/policy/reload`."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from pydantic import BaseModel

from railbird.api.auth import Principal, Role, require
from railbird.rules.policy_file import PolicyError
from railbird.rules.policy_watch import PolicyWatch

router = APIRouter(prefix="/v1/policy", tags=["policy"])
Reader = Annotated[Principal, Depends(require(Role.ANALYST, Role.INVESTIGATOR))]
Admin = Annotated[Principal, Depends(require())]


class PolicyOut(BaseModel):
    """The policy in force: its version, where it was read from, the file, and its meaning."""

    version: str
    source: str
    text: str
    policy: dict[str, Any]


def _out(watch: PolicyWatch) -> PolicyOut:
    policy = watch.current()
    return PolicyOut(
        version=policy.version, source=policy.source, text=policy.text, policy=policy.describe()
    )


@router.get("", response_model=PolicyOut)
def show(request: Request, _: Reader) -> PolicyOut:
    """The policy file in force (re-read first if it changed). Role: `analyst` or
    `investigator` (or `admin`)."""
    watch: PolicyWatch = request.app.state.policy
    watch.changed()
    return _out(watch)


@router.post("/reload", response_model=PolicyOut)
def reload(request: Request, _: Admin) -> PolicyOut:
    """Re-read the policy file now. A file that fails its check is a 422 naming the line, and
    the policy in force stays. Role: `admin`. (Workers re-read a changed file on their own.)"""
    watch: PolicyWatch = request.app.state.policy
    try:
        watch.reload()
    except PolicyError as exc:
        raise HTTPException(422, str(exc)) from exc
    return _out(watch)
