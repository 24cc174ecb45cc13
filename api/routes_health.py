"""Liveness and readiness for load balancers; no key needed, nothing sensitive returned."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from fastapi import APIRouter, Request
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError

from railbird.api.models import Health

router = APIRouter(tags=["health"])


def _version() -> str:
    try:
        return version("railbird")
    except PackageNotFoundError:
        return "unknown"


@router.get("/health", response_model=Health)
def health(request: Request) -> Health:
    """Liveness and readiness; no key needed. `degraded`, still a 200, when the database is down."""
    try:
        with request.app.state.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
        database = "ok"
    except SQLAlchemyError:
        database = "unreachable"
    return Health(
        status="ok" if database == "ok" else "degraded",
        database=database,
        version=_version(),
    )
