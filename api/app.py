"""The FastAPI application, assembled from its routers; settings are passed in, not read here."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy import Engine

from api import problems, routes_flags, routes_health
from api.auth import KeyRing


def create_app(engine: Engine, api_keys: dict[str, str]) -> FastAPI:
    app = FastAPI(
        title="railbird",
        summary="Trust-and-safety flags, restrictions and investigations for online poker.",
        version="0.1.0",
    )
    app.state.engine = engine
    app.state.keyring = KeyRing(api_keys)
    problems.install(app)
    app.include_router(routes_health.router)
    app.include_router(routes_flags.router)
    return app
