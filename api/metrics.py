"""`GET /metrics` on the API (Prometheus text): requests and their latency per route, the chat
check's decisions, and how fresh its restriction cache is.

One registry per app, so several apps in one process (the tests') never collide. Under
`railbird serve --workers N` each server process has its own counters and a scrape reaches
one of them: scrape each process, or run one worker per port behind the balancer.

Scraping needs a key whose role is `metrics` (it may read this and nothing else) or `admin`,
as `X-API-Key` or as `Authorization: Bearer <key>` (what Prometheus's `authorization` scrape
setting sends): route names, request rates and the chat check's decisions are not for
anyone who can reach the port.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response, status
from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from railbird.api.auth import KeyRing, Role
from railbird.api.chat_gate import ChatGate

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
App = Callable[
    [Scope, Callable[[], Awaitable[Message]], Callable[[Message], Awaitable[None]]], Awaitable[None]
]
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
# Seconds: the chat check lives in the first buckets, a page of flags in the middle ones.
BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class _GateCollector(Collector):
    def __init__(self, gate: ChatGate) -> None:
        self.gate = gate

    def collect(self) -> Iterable[GaugeMetricFamily]:
        cache = self.gate.restrictions
        age = cache.age_seconds
        yield GaugeMetricFamily(
            "railbird_api_restriction_cache_age_seconds",
            "Seconds since the chat check's restriction cache last read the store.",
            value=age if age != float("inf") else -1.0,
        )
        yield GaugeMetricFamily(
            "railbird_api_restriction_cache_entries",
            "Restrictions in force held by the chat check's cache.",
            value=len(cache),
        )
        decisions = GaugeMetricFamily(
            "railbird_api_chat_check_decisions",
            "Chat check decisions since start, by decision.",
            labels=["decision"],
        )
        for decision in ("allow", "hold", "block"):
            decisions.add_metric([decision], self.gate.decisions[decision])
        yield decisions


class ApiMetrics:
    def __init__(self, gate: ChatGate) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "railbird_api_requests_total",
            "Requests answered, by route template, method and status.",
            ["route", "method", "status"],
            registry=self.registry,
        )
        self.latency = Histogram(
            "railbird_api_request_seconds",
            "Time to answer, by route template.",
            ["route"],
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.registry.register(_GateCollector(gate))

    def middleware(self, app: App) -> App:
        async def measured(scope: Scope, receive: Any, send: Any) -> None:
            if scope["type"] != "http":
                await app(scope, receive, send)
                return
            started = time.perf_counter()
            status = 500

            async def send_status(message: Message) -> None:
                nonlocal status
                if message["type"] == "http.response.start":
                    status = int(message["status"])
                await send(message)

            try:
                await app(scope, receive, send_status)
            finally:
                route = scope.get("route")
                template = getattr(route, "path", None) or "unmatched"
                self.requests.labels(template, scope.get("method", ""), str(status)).inc()
                self.latency.labels(template).observe(time.perf_counter() - started)

        return measured


def install(app: FastAPI, gate: ChatGate) -> None:
    """`/metrics`, and every request counted and timed."""
    metrics = ApiMetrics(gate)
    app.state.metrics = metrics
    app.add_middleware(_Measure, metrics=metrics)

    @app.get("/metrics", include_in_schema=False)
    def scrape(request: Request) -> Response:
        _check_scraper(request)
        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE)


def _check_scraper(request: Request) -> None:
    """401 without a known key (X-API-Key, or a bearer token), 403 for a role other than
    `metrics` or `admin`."""
    key = request.headers.get("x-api-key", "")
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if not key and scheme.lower() == "bearer":
        key = token.strip()
    if not key:
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED,
            "missing key: send a metrics key as X-API-Key or Authorization: Bearer",
        )
    keyring: KeyRing = request.app.state.keyring
    principal = keyring.lookup(key)
    if principal is None:
        raise HTTPException(status.HTTP_401_UNAUTHORIZED, "unknown API key")
    if principal.role not in (Role.METRICS, Role.ADMIN):
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            f"role '{principal.role}' may not read metrics (needs one of: admin, metrics)",
        )


class _Measure:
    """`ApiMetrics.middleware` as a class Starlette's `add_middleware` can build."""

    def __init__(self, app: App, metrics: ApiMetrics) -> None:
        self._app = metrics.middleware(app)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        await self._app(scope, receive, send)
