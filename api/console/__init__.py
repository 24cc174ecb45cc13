"""The analysts' console at `/console`: server-rendered pages over the same store, keys and
roles as the API (`install` adds it to an app)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from railbird.api.console import (
    investigation_pages,
    policy_page,
    reports_page,
    review_pages,
    signin,
)
from railbird.api.console.config import ConsoleConfig
from railbird.api.console.sessions import SessionStore
from railbird.api.console.sign_in_throttle import SignInThrottle
from railbird.api.console.templating import HERE, install_error_pages

ROUTERS = (
    signin.router,
    review_pages.router,
    investigation_pages.router,
    reports_page.router,
    policy_page.router,
)


def install(app: FastAPI, config: ConsoleConfig) -> None:
    """Mount the console's pages, its static assets and its error pages on `app`, with its
    sessions and sign-in throttle over the app's store (`app.state.engine`)."""
    app.state.console_config = config
    app.state.console_sessions = SessionStore(app.state.engine, config)
    app.state.console_throttle = SignInThrottle(app.state.engine, config)
    app.mount("/console/static", StaticFiles(directory=HERE / "static"), name="console-static")
    install_error_pages(app)
    for router in ROUTERS:
        app.include_router(router)
