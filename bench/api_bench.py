"""API benchmark (`make bench-api`): the chat check's latency under open-loop load.

`railbird serve` over an SQLite store holding active restrictions, on this machine, with the
load generator on it too. The generator is open-loop: request i is due at `start + i / rate`
whatever happened before, and its latency is counted from when it was due, not from when it was
sent, so a stall is charged to every request it delayed (coordinated omission corrected, as
wrk2 does); a request the generator's sleep sent a little early is counted from when it was
sent, so no latency is ever below send-to-answer. Times are `time.perf_counter()` (the event
loop's clock is uvloop's millisecond tick). An error is a real one: an answer that is not a
200, or a connection that failed; nothing else is dropped. It speaks HTTP/1.1 over
`CONNECTIONS` keep-alive connections with pre-built requests, to cost the server's cores as
little as possible.

Each cell (restrictions, server processes, rate) runs `--rounds` rounds of `--seconds` after a
warm-up, and reports the median over rounds of each percentile. With `--burst N`, the cell is
measured again in the minute after N new restrictions are written at once (a mass ban of bots),
`--burst-rounds` times. Results go to var/ unless `--out`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
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
ROUNDS = 5
BURST_SECONDS = 60.0
HEADER = (
    "| server | restrictions | processes | offered/s | phase | rounds | answered/s | p50 ms "
    "| p99 ms | p99.9 ms | max ms | errors | CPU waited |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
)  # "the minute after" a burst of new restrictions
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
    """One round: latencies in ms (median over rounds when `rounds` > 1)."""

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
    phase: str = "steady"  # steady | after burst
    rounds: int = 1
    server: str = "this checkout"
    # Share of the round's wall time in which some runnable task on the machine waited for a
    # CPU (Linux PSI, /proc/pressure/cpu): the noise the other work put on the cores.
    cpu_waited: float | None = None


def median_of(rounds: list[Result]) -> Result:
    """The cell's result: each percentile's median over its rounds, errors summed."""
    first = rounds[0]
    return Result(
        restrictions=first.restrictions,
        workers=first.workers,
        rate=first.rate,
        sent=sum(r.sent for r in rounds),
        errors=sum(r.errors for r in rounds),
        p50_ms=statistics.median(r.p50_ms for r in rounds),
        p99_ms=statistics.median(r.p99_ms for r in rounds),
        p999_ms=statistics.median(r.p999_ms for r in rounds),
        max_ms=max(r.max_ms for r in rounds),
        achieved=statistics.median(r.achieved for r in rounds),
        phase=first.phase,
        rounds=len(rounds),
        server=first.server,
        cpu_waited=_median_or_none([r.cpu_waited for r in rounds]),
    )


def _median_or_none(values: list[float | None]) -> float | None:
    known = [v for v in values if v is not None]
    return statistics.median(known) if known else None


def _cpu_stall_us() -> int | None:
    """Microseconds some task has waited for a CPU since boot (PSI), or None without PSI."""
    try:
        with open("/proc/pressure/cpu", encoding="ascii") as psi:
            some = psi.readline()
    except OSError:
        return None
    return int(some.rsplit("total=", 1)[1])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def fill(
    url: str,
    restrictions: int,
    kind: str = "mute_chat",
    scope: str | None = None,
    first: int = 0,
    chunk: int = 5000,
) -> None:
    """`restrictions` active restrictions of `kind`, one per player `p-r<n>` from `first`,
    written `chunk` rows a transaction (all in one for a mass ban)."""
    engine = make_engine(url)
    migrate(engine)
    _insert(engine, _rows(restrictions, kind, scope, first), chunk)
    engine.dispose()


def _rows(count: int, kind: str, scope: str | None, first: int) -> list[dict[str, Any]]:
    now = datetime.now(UTC)
    return [
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
        for n in range(first, first + count)
    ]


def _insert(engine: Any, rows: list[dict[str, Any]], chunk: int) -> None:
    with engine.begin() as conn:
        for start in range(0, len(rows), chunk):
            conn.execute(schema.actions.insert(), rows[start : start + chunk])


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


async def _load(
    port: int, requests: list[bytes], rate: float, seconds: float
) -> list[tuple[float, bool]]:
    """Each request's (latency in s, answered with a 200), in the order sent. Latency is from
    the request's due time, or from its sending when the sleep woke early (never less than
    send-to-answer); a connection that fails is (its time so far, False) and is reopened."""
    total = int(rate * seconds)
    clock = time.perf_counter
    start = clock() + 0.2
    next_index = 0
    samples: list[tuple[float, bool]] = []

    async def connection() -> None:
        nonlocal next_index
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while next_index < total:
                index = next_index
                next_index += 1
                due = start + index / rate
                wait = due - clock()
                if wait > 0:
                    await asyncio.sleep(wait)
                sent = clock()
                since = min(due, sent)
                writer.write(requests[index % len(requests)])
                try:
                    status = await _read_response(reader)
                except (asyncio.IncompleteReadError, ConnectionError, ValueError, IndexError):
                    samples.append((clock() - since, False))
                    writer.close()
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                    continue
                samples.append((clock() - since, status == 200))
        finally:
            writer.close()

    await asyncio.gather(*(connection() for _ in range(CONNECTIONS)))
    return samples


def _run(load: Any) -> list[tuple[float, bool]]:
    """The load on uvloop when installed (a quarter of asyncio's CPU a request): the generator
    shares the server's cores."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(load)  # type: ignore[no-any-return, unused-ignore]
    return uvloop.run(load)  # type: ignore[no-any-return, unused-ignore]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextmanager
def serving(url: str, workers: int, code: Path | None = None) -> Iterator[int]:
    """`railbird serve` over `url` with the bench's chat-service key; yields its port. `code`:
    another checkout whose railbird the server runs (a baseline), else this one."""
    port = _free_port()
    env = {
        **os.environ,
        "RAILBIRD_DATABASE_URL": url,
        "RAILBIRD_API_KEYS": json.dumps({KEY: "chat_service"}),
        "RAILBIRD_PORT": str(port),
    }
    if code is not None:
        env["PYTHONPATH"] = str(code)
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
    port: int,
    requests: list[bytes],
    restrictions: int,
    workers: int,
    rate: float,
    seconds: float,
    phase: str = "steady",
) -> Result:
    """One open-loop round of `requests` at `rate` for `seconds`."""
    started = time.perf_counter()
    cpu = time.process_time()
    stalled = _cpu_stall_us()
    samples = _run(_load(port, requests, rate, seconds))
    wall = time.perf_counter() - started
    stalled_after = _cpu_stall_us()
    waited = None
    if stalled is not None and stalled_after is not None:
        waited = (stalled_after - stalled) / 1e6 / wall
    generator_cores = (time.process_time() - cpu) / wall
    print(f"load generator used {generator_cores:.2f} cores", flush=True)
    latencies = [latency for latency, _ in samples]
    result = Result(
        restrictions=restrictions,
        workers=workers,
        rate=rate,
        sent=len(samples),
        errors=sum(1 for _, ok in samples if not ok),
        p50_ms=_percentile(latencies, 0.5) * 1000,
        p99_ms=_percentile(latencies, 0.99) * 1000,
        p999_ms=_percentile(latencies, 0.999) * 1000,
        max_ms=max(latencies) * 1000,
        achieved=sum(1 for _, ok in samples if ok) / wall,
        phase=phase,
        cpu_waited=waited,
    )
    print(result, flush=True)
    return result


def measure(
    url: str,
    restrictions: int,
    workers: int,
    rates: list[float],
    seconds: float = SECONDS,
    rounds: int = ROUNDS,
    burst: int = 0,
    burst_rounds: int = 0,
    servers: dict[str, Path | None] | None = None,
) -> list[Result]:
    """Per rate and server: the median of `rounds` steady rounds; then, if `burst`, the median
    of `burst_rounds` rounds of `BURST_SECONDS`, each starting as `burst` new restrictions are
    written in one transaction by another process (every burst names new players, so the
    store grows). Each round starts its own server after a warm-up; with several `servers`
    (label -> checkout, None: this one) their rounds alternate, so both see the same noise."""
    servers = servers or {"this checkout": None}
    results: list[Result] = []
    bursts = 0
    for rate in rates:
        steady: dict[str, list[Result]] = {label: [] for label in servers}
        after: dict[str, list[Result]] = {label: [] for label in servers}
        for _ in range(rounds):
            for label, code in servers.items():
                steady[label].append(
                    _round(url, restrictions, workers, rate, seconds, code, label, "steady")
                )
        for _ in range(burst_rounds if burst else 0):
            for label, code in servers.items():
                first = restrictions + bursts * burst
                bursts += 1
                after[label].append(
                    _round(url, restrictions, workers, rate, BURST_SECONDS, code, label,
                           f"after {burst:,} added", (burst, first))
                )  # fmt: skip
        for label in servers:
            results.append(median_of(steady[label]))
            if after[label]:
                results.append(median_of(after[label]))
    return results


def _round(
    url: str,
    restrictions: int,
    workers: int,
    rate: float,
    seconds: float,
    code: Path | None,
    label: str,
    phase: str,
    burst: tuple[int, int] | None = None,
) -> Result:
    """One round on a fresh server; with `burst` (count, first player number), the mass ban
    is written by another process as the load starts (a writer thread here would take the
    generator's interpreter lock and charge its own stall to the server)."""
    context = multiprocessing.get_context("spawn")
    go = context.Event()
    writer = None
    if burst is not None:
        # Started (and its imports done) before the round; it writes when told to, so the
        # round is charged the write, not a Python start-up.
        count, first = burst
        writer = context.Process(target=_write_when, args=(go, url, count, first))
        writer.start()
    with serving(url, workers, code) as port:
        requests = _requests(port, restrictions)
        _run(_load(port, requests, 200.0, WARMUP_SECONDS))  # warm-up: caches, connections
        go.set()
        result = load_once(port, requests, restrictions, workers, rate, seconds, phase=phase)
        if writer is not None:
            writer.join()
    return replace(result, server=label)


def _write_when(go: Any, url: str, count: int, first: int) -> None:
    """A mass ban from another process: `count` restrictions in one transaction, once `go`
    (the engine and the rows are made before, the change times when written)."""
    engine = make_engine(url)
    go.wait()
    _insert(engine, _rows(count, "mute_chat", None, first), count)
    engine.dispose()


def _commit(checkout: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or str(checkout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rates", type=float, nargs="+", default=[1000.0])
    parser.add_argument("--workers", type=int, nargs="+", default=[2])
    parser.add_argument("--restrictions", type=int, nargs="+", default=[50000])
    parser.add_argument("--seconds", type=float, default=SECONDS, help="per steady round")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="steady rounds per cell")
    parser.add_argument("--burst", type=int, default=5000, help="0: no burst rounds")
    parser.add_argument("--burst-rounds", type=int, default=3)
    parser.add_argument(
        "--baseline",
        type=Path,
        help="another checkout (e.g. a git worktree of an earlier commit) whose server is "
        "measured in alternating rounds beside this one's",
    )
    parser.add_argument("--out", type=Path, default=REPO / "var" / "benchmarks-api.md")
    args = parser.parse_args(argv)
    machine = describe_machine()
    load_average = os.getloadavg()[0]
    results: list[Result] = []
    servers: dict[str, Path | None] = {"this checkout": None}
    if args.baseline is not None:
        servers = {f"baseline ({_commit(args.baseline)})": args.baseline, **servers}
    with tempfile.TemporaryDirectory(prefix="api-bench-") as tmp:
        for restrictions in args.restrictions:
            url = f"sqlite:///{Path(tmp) / f'r{restrictions}.db'}"
            fill(url, restrictions)
            for workers in args.workers:
                results += measure(
                    url, restrictions, workers, args.rates, args.seconds, args.rounds,
                    args.burst, args.burst_rounds, servers,
                )  # fmt: skip
    rows = "\n".join(
        f"| {r.server} | {r.restrictions:,} | {r.workers} | {r.rate:,.0f} | {r.phase} | "
        f"{r.rounds} | {r.achieved:,.0f} | {r.p50_ms:.2f} | {r.p99_ms:.2f} | {r.p999_ms:.2f} | "
        f"{r.max_ms:.1f} | {r.errors} of {r.sent:,} | "
        f"{'' if r.cpu_waited is None else f'{r.cpu_waited:.0%}'} |"
        for r in results
    )
    command = "make bench-api  (python -m bench.api_bench " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    report = f"""# API benchmark: the chat check under open-loop load

Command: `{command.strip()})`
Machine: {machine}, load average at start {load_average:.1f}
Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. `railbird serve` over SQLite; the load generator
(`bench/api_bench.py`, {CONNECTIONS} keep-alive connections, uvloop) on the same 2 cores.
Latency is from each request's due time (open loop, coordinated omission corrected), or from
its sending when the generator's sleep woke early, on `time.perf_counter()`; steady rounds of
{args.seconds:g} s after a {WARMUP_SECONDS:g} s warm-up, burst rounds of {BURST_SECONDS:g} s
starting as {args.burst:,} new restrictions are written in one transaction. Each row is the
median over its rounds of each percentile (max: the worst round). Errors: answers that were
not a 200, and connections that failed; nothing else. 20% of checks are for restricted
players. CPU waited: the share of the round in which some runnable task on the machine waited
for a core (Linux PSI), the load other work put on it. Target: p99 < 10 ms and p99.9 < 25 ms
at 1,000 checks/s with 50,000 restrictions on 2 processes, also in the minute after 5,000 are
added at once.

{HEADER}
{rows}
"""
    write_report(args.out, report)  # the hand-written reading below the table survives
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
