"""Server CPU of one chat check, in-process: the direct path against the framework's route.

Usage: .venv/bin/python -m bench.chat_check_cpu [--requests 5000] [--restrictions 50000]

The app is called as an ASGI application, without a network or a server, so what is timed is
the app's own work per request on the calling thread (the cache's refresh thread is not
counted): the middlewares, then either `api.chat_check_direct` or
FastAPI's routing, dependencies and validation, and the check. The two paths alternate in
rounds over the same requests (each app keeps its own detector state); the median of the rounds
is reported. Why: the load test (`bench.api_bench`) measures what a chat server sees, on a
machine whose other work shows in every number; this isolates the part the code decides.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from bench.api_bench import KEY, TEXTS, fill
from railbird.api.app import create_app
from railbird.api.chat_check_direct import ChatCheckDirect
from railbird.store.database import make_engine


def _app(url: str, direct: bool) -> FastAPI:
    app = create_app(make_engine(url), {KEY: "chat_service"})
    if not direct:
        app.user_middleware = [
            m for m in app.user_middleware if getattr(m, "cls", None) is not ChatCheckDirect
        ]
    app.state.chat_gate.start()
    return app


async def _call(app: Any, body: bytes) -> None:
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
        "scheme": "http", "path": "/v1/chat/check", "raw_path": b"/v1/chat/check",
        "query_string": b"", "root_path": "", "client": ("127.0.0.1", 1), "app": app,
        "server": ("127.0.0.1", 8000),
        "headers": [(b"host", b"127.0.0.1"), (b"content-type", b"application/json"),
                    (b"x-api-key", KEY.encode()), (b"content-length", str(len(body)).encode())],
    }  # fmt: skip
    delivered = False

    async def receive() -> dict[str, Any]:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    status: list[int] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.start":
            status.append(message["status"])

    await app(scope, receive, send)
    if status != [200]:
        raise RuntimeError(f"the check answered {status}")


async def _round(app: FastAPI, bodies: list[bytes]) -> tuple[float, float]:
    """Microseconds of this thread's CPU, and of wall time, per request over `bodies`."""
    cpu, wall = time.thread_time(), time.perf_counter()
    for body in bodies:
        await _call(app, body)
    count = len(bodies)
    return (time.thread_time() - cpu) / count * 1e6, (time.perf_counter() - wall) / count * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=5000, help="per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--restrictions", type=int, default=50000)
    args = parser.parse_args(argv)
    bodies = [
        json.dumps(
            {
                "player_id": f"p-{n % 20000}",
                "text": TEXTS[n % len(TEXTS)],
                "table_id": f"t-{n % 300}",
            }
        ).encode()
        for n in range(args.requests)
    ]
    with tempfile.TemporaryDirectory(prefix="check-cpu-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'cpu.db'}"
        fill(url, args.restrictions)
        apps = {"direct path": _app(url, True), "framework route": _app(url, False)}

        async def measure() -> dict[str, list[tuple[float, float]]]:
            for app in apps.values():  # warm-up: caches, first-call costs
                await _round(app, bodies[:500])
            found: dict[str, list[tuple[float, float]]] = {name: [] for name in apps}
            for _ in range(args.rounds):
                for name, app in apps.items():
                    found[name].append(await _round(app, bodies))
            return found

        found = asyncio.run(measure())
        for app in apps.values():
            app.state.chat_gate.stop()
    for name, rounds in found.items():
        cpu = statistics.median(c for c, _ in rounds)
        wall = statistics.median(w for _, w in rounds)
        print(
            f"{name}: {cpu:.0f} us of CPU, {wall:.0f} us of wall time a check "
            f"(median of {len(rounds)} rounds of {args.requests})"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
