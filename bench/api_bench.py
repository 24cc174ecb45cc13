"""API benchmark (`make bench-api`): the chat check's latency under open-loop load.

`railbird serve` over an SQLite store holding 0 or 50,000 active restrictions, on this machine,
with the load generator on it too. The generator is open-loop: request i is due at
`start + i / rate` whatever happened before, and its latency is measured from when it was due,
not from when it was sent, so a stall is charged to every request it delayed (coordinated
omission corrected, as wrk2 does). It speaks HTTP/1.1 over `CONNECTIONS` keep-alive connections
with pre-built requests, to cost the server's cores as little as possible. Each (restrictions,
server processes, rate) cell runs `SECONDS` after a warm-up; results go to var/ unless `--out`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bench.machine import describe_machine, write_report
from railbird.store import schema
from railbird.store.database import make_engine, migrate

REPO = Path(__file__).resolve().parents[1]
KEY = "bench-chat-service-key-0123456789"
CONNECTIONS = 64
SECONDS = 10.0
WARMUP_SECONDS = 2.0
TEXTS = (
    "gl all",
    "nice hand sir",
    "why would you call that river",
    "anyone up for a side game later tonight",
    "ty",
    "wp",
    "that was a sick bluff",
    "see you at the final table",
)


@dataclass(frozen=True)
class Result:
    restrictions: int
    workers: int
    rate: float
    sent: int
    errors: int
    p50_ms: float
    p99_ms: float
    p999_ms: float
    max_ms: float
    achieved: float


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fill(url: str, restrictions: int, kind: str = "mute_chat", scope: str | None = None) -> None:
    """`restrictions` active restrictions of `kind`, one per player `p-r<n>`."""
    engine = make_engine(url)
    migrate(engine)
    now = datetime.now(UTC)
    rows = [
        {
            "action_id": f"a-bench-{kind}-{n}",
            "kind": kind,
            "scope": scope,
            "player_id": f"p-r{n}",
            "ts": now,
            "expires_at": now + timedelta(days=1),
            "reason": "bench",
            "flag_ids": [],
            "actor": "bench",
            "changed_at": now,
        }
        for n in range(restrictions)
    ]
    with engine.begin() as conn:
        for start in range(0, len(rows), 5000):
            conn.execute(schema.actions.insert(), rows[start : start + 5000])
    engine.dispose()


def http_post(port: int, path: str, body: dict[str, Any]) -> bytes:
    """One pre-built keep-alive POST with the bench's key."""
    data = json.dumps(body).encode()
    return b"POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % (path.encode(), port) + (
        b"Content-Type: application/json\r\nX-API-Key: %s\r\nContent-Length: %d\r\n\r\n%s"
        % (KEY.encode(), len(data), data)
    )


def _requests(port: int, restrictions: int, count: int = 4096) -> list[bytes]:
    rng = random.Random(1)
    built = []
    for i in range(count):
        muted = restrictions and rng.random() < 0.2
        player = f"p-r{rng.randrange(restrictions)}" if muted else f"p-{rng.randrange(20000)}"
        body = {"player_id": player, "text": rng.choice(TEXTS), "table_id": f"t-{i % 300}"}
        built.append(http_post(port, "/v1/chat/check", body))
    return built


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    if length:
        await reader.readexactly(length)
    return status


async def _load(port: int, requests: list[bytes], rate: float, seconds: float) -> list[float]:
    """Latencies (s) from each request's due time; -1 for an error."""
    total = int(rate * seconds)
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.2
    next_index = 0
    latencies: list[float] = []

    async def connection() -> None:
        nonlocal next_index
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while next_index < total:
                index = next_index
                next_index += 1
                due = start + index / rate
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                writer.write(requests[index % len(requests)])
                try:
                    status = await _read_response(reader)
                except (asyncio.IncompleteReadError, ConnectionError):
                    latencies.append(-1.0)
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                latencies.append(loop.time() - due if status == 200 else -1.0)
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(CONNECTIONS)))
    return latencies


def _run(load: Any) -> list[float]:
    """The load on uvloop when installed (a quarter of asyncio's CPU a request): the generator
    shares the server's cores."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(load)  # type: ignore[no-any-return]
    return uvloop.run(load)  # type: ignore[no-any-return]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextmanager
def serving(url: str, workers: int) -> Iterator[int]:
    """`railbird serve` over `url` with the bench's chat-service key; yields its port."""
    port = _free_port()
    env = {
        **os.environ,
        "RAILBIRD_DATABASE_URL": url,
        "RAILBIRD_API_KEYS": json.dumps({KEY: "chat_service"}),
        "RAILBIRD_PORT": str(port),
    }
    server = subprocess.Popen(
        [str(REPO / ".venv" / "bin" / "railbird"), "serve", "--workers", str(workers)],
        env=env,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the server did not start") from None
                time.sleep(0.2)
        yield port
    finally:
        server.terminate()
        server.wait(30)


def load_once(
    port: int, requests: list[bytes], restrictions: int, workers: int, rate: float, seconds: float
) -> Result:
    """One open-loop run of `requests` at `rate` for `seconds`."""
    started = time.perf_counter()
    cpu = time.process_time()
    latencies = _run(_load(port, requests, rate, seconds))
    wall = time.perf_counter() - started
    generator_cores = (time.process_time() - cpu) / wall
    print(f"load generator used {generator_cores:.2f} cores", flush=True)
    ok = [x for x in latencies if x >= 0]
    result = Result(
        restrictions=restrictions,
        workers=workers,
        rate=rate,
        sent=len(latencies),
        errors=len(latencies) - len(ok),
        p50_ms=_percentile(ok, 0.5) * 1000,
        p99_ms=_percentile(ok, 0.99) * 1000,
        p999_ms=_percentile(ok, 0.999) * 1000,
        max_ms=max(ok) * 1000,
        achieved=len(ok) / wall,
    )
    print(result, flush=True)
    return result


def measure(
    url: str, restrictions: int, workers: int, rates: list[float], seconds: float = SECONDS
) -> list[Result]:
    with serving(url, workers) as port:
        requests = _requests(port, restrictions)
        _run(_load(port, requests, 200.0, WARMUP_SECONDS))  # warm-up: caches, JIT-free
        return [load_once(port, requests, restrictions, workers, r, seconds) for r in rates]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[1000.0, 2000.0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--restrictions", type=int, nargs="+", default=[0, 50000])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="per rate")
    parser.add_argument("--out", type=Path, default=REPO / "var" / "benchmarks-api.md")
    args = parser.parse_args(argv)
    machine = describe_machine()
    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="api-bench-") as tmp:
        for restrictions in args.restrictions:
            url = f"sqlite:///{Path(tmp) / f'r{restrictions}.db'}"
            fill(url, restrictions)
            for workers in args.workers:
                results += measure(url, restrictions, workers, args.rates, args.seconds)
    rows = "\n".join(
        f"| {r.restrictions:,} | {r.workers} | {r.rate:,.0f} | {r.achieved:,.0f} | "
        f"{r.p50_ms:.1f} | {r.p99_ms:.1f} | {r.p999_ms:.1f} | {r.max_ms:.1f} | {r.errors} |"
        for r in results
    )
    command = "make bench-api  (python -m bench.api_bench " + " ".join(argv or sys.argv[1:])
    report = f"""# API benchmark: the chat check under open-loop load

Command: `{command.strip()})`
Machine: {machine}, load average at start {os.getloadavg()[0]:.1f}
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. `railbird serve` over SQLite; the load generator
(`bench/api_bench.py`, {CONNECTIONS} keep-alive connections, asyncio) on the same 2 cores.
Latency is from each request's due time (open loop, coordinated omission corrected),
{args.seconds:.0f} s per row after a {WARMUP_SECONDS:.0f} s warm-up; 20% of checks are for muted
players when there are restrictions. Target: p99 < 10 ms at 1,000 req/s.

| restrictions | processes | offered/s | answered/s | p50 ms | p99 ms | p99.9 ms | max ms | errors |
|---|---|---|---|---|---|---|---|---|
{rows}
"""
    write_report(args.out, report)  # the hand-written reading below the table survives
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
