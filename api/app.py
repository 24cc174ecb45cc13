"""The FastAPI application, assembled from its routers; settings are passed in, not read here."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from fastapi import Depends, FastAPI
from sqlalchemy import Engine

from railbird.api import (
    api_docs,
    console,
    problems,
    routes_chat,
    routes_dead_letters,
    routes_flags,
    routes_health,
    routes_investigations,
    routes_policy,
    routes_reports,
    routes_restrictions,
    routes_review,
    routes_sessions,
    routes_tables,
)
from railbird.api import metrics as api_metrics
from railbird.api.auth import KeyRing
from railbird.api.chat_check_direct import ChatCheckDirect
from railbird.api.chat_gate import ChatGate
from railbird.api.console.config import ConsoleConfig
from railbird.api.guards import RequestGuard
from railbird.api.query_params import strict_query
from railbird.api.response_headers import ResponseHeaders
from railbird.detectors.detector import Detector
from railbird.rules.detector_settings import detectors_for
from railbird.rules.policy_watch import PolicyWatch


def create_app(
    engine: Engine,
    api_keys: dict[str, str],
    detectors: Sequence[Detector] | None = None,
    policy_path: Path | None = None,
    console_config: ConsoleConfig | None = None,
    docs: bool = False,
) -> FastAPI:
    """The API over `engine`, for `api_keys` (key -> role name), settings passed in by the caller.

    `detectors` are the chat check's, the registry's by default, built with the policy's
    `[site]` and `[detectors.*]` and rebuilt when a reload changes them; `policy_path` the
    policy file `GET /v1/policy` shows and `POST /v1/policy/reload` re-reads (None: the
    shipped one; a bad file is a `PolicyError`);
    `console_config` where the console is served and how long its sessions last (the loopback
    origins of port 8000 by default); `docs` publishes Swagger UI at /docs and the schema
    without a key. A key shorter than 16 characters or an unknown role is a `ValueError`.
    """
    app = FastAPI(
        title="railbird",
        summary="Trust-and-safety flags, restrictions and investigations for online poker.",
        version="0.1.0",
        responses=problems.ERRORS,
        dependencies=[Depends(strict_query)],
        # Served by `api_docs` (a key, or turned on), never from a CDN; no ReDoc.
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        # A slash too many is a 404, not a redirect: Starlette builds that redirect's Location
        # from the request's Host header, which a client chooses.
        redirect_slashes=False,
    )
    app.state.engine = engine
    app.state.keyring = KeyRing(api_keys)
    app.state.policy = PolicyWatch(policy_path, every=0.0)
    # Innermost: a well-formed chat check is answered without routing (`chat_check_direct`).
    app.add_middleware(ChatCheckDirect, keyring=app.state.keyring)
    # Size and key checked before any body is read (`api.guards`).
    app.add_middleware(RequestGuard, keyring=app.state.keyring)
    if detectors is None:
        gate = ChatGate(
            engine,
            detectors_for(app.state.policy.current().detectors),
            policy=app.state.policy,
            rebuild=detectors_for,
        )
    else:
        gate = ChatGate(engine, detectors, policy=app.state.policy)
    app.state.chat_gate = gate
    # The restriction cache refreshes on its own thread while the server runs.
    app.router.add_event_handler("startup", gate.start)
    app.router.add_event_handler("shutdown", gate.stop)
    problems.install(app)
    api_metrics.install(app, gate)
    modules = (
        routes_health,
        routes_flags,
        routes_restrictions,
        routes_review,
        routes_policy,
        routes_sessions,
        routes_chat,
        routes_reports,
        routes_tables,
        routes_investigations,
        routes_dead_letters,
    )
    problems.document_routes(app, [r for m in modules for r in m.router.routes] + app.routes)
    for module in modules:
        app.include_router(module.router)
    api_docs.install(app, public=docs)
    console.install(app, console_config or ConsoleConfig())
    # Outermost: every answer, the guard's refusals included, gets the same headers.
    app.add_middleware(ResponseHeaders)
    return app
