"""The analysts' console at `/console`: server-rendered pages over the same store, keys and
roles as the API (`install` adds it to an app)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from railbird.api.console import investigation_pages, policy_page, review_pages, signin
from railbird.api.console.templating import HERE, install_error_pages

ROUTERS = (signin.router, review_pages.router, investigation_pages.router, policy_page.router)


def install(app: FastAPI) -> None:
    """Mount the console's pages, its static assets and its error pages on `app`."""
    app.mount("/console/static", StaticFiles(directory=HERE / "static"), name="console-static")
    install_error_pages(app)
    for router in ROUTERS:
        app.include_router(router)
