"""`make bench-console`: the console's queue page with 100,000 flags in the store.

Target (issue 20): a queue page under 100 ms of server time with 100,000 flags. Measured
in-process (the ASGI app called through Starlette's test client, so no network and no browser:
what is timed is the server's routing, queries and template), paired with the baseline in the
same run: `GET /v1/queue` (the same query, answered as JSON), alternated request by request.
Rows: the first page, a filtered page (one category), a page further down (its cursor), and a
flag's page (which reads the player's restrictions and reviews).
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient

from bench.machine import describe_machine, write_report
from railbird.api.app import create_app
from railbird.api.console.config import ConsoleConfig
from railbird.detectors.findings import Evidence, Finding
from railbird.detectors.severity import SEVERITIES
from railbird.rules.flags import Flag
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreWriter

KEY = "bench-console-key-0123456789"
CATEGORIES = ("profanity", "harassment", "spam", "advertising", "in_hand_influence", "hate")


def fill(engine_url: str, flags: int, seed: int = 5) -> None:
    engine = make_engine(engine_url)
    migrate(engine)
    rng = random.Random(seed)
    start = datetime(2026, 11, 1, tzinfo=UTC)
    writer = StoreWriter(engine)
    batch: list[Flag] = []
    for n in range(flags):
        player = f"p-{rng.randrange(20_000)}"
        finding = Finding(
            detector=rng.choice(("profanity", "harassment", "chat_flood", "advertising")),
            category=rng.choice(CATEGORIES),
            severity=rng.choice(SEVERITIES),
            score=round(rng.random(), 2),
            ts=start + timedelta(seconds=n * 13),
            player_ids=(player,),
            table_id=f"t-{rng.randrange(400)}",
            evidence=Evidence(
                kind="bench",
                summary=f"synthetic flag {n}",
                measures={"terms": ["word"], "count": 1},
            ),
            message_ids=(f"m-{n}",),
        )
        batch.append(Flag.from_finding(finding))
        if len(batch) == 5000:
            writer.write(flags=batch)
            batch = []
    if batch:
        writer.write(flags=batch)
    engine.dispose()


def _ms(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    return statistics.median(ordered), ordered[int(len(ordered) * 0.95) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--flags", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=40)
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks-console.md"))
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="railbird-bench-console-"))
    url = f"sqlite:///{workdir / 'console.db'}"
    began = time.perf_counter()
    fill(url, args.flags)
    filled_s = time.perf_counter() - began
    engine = make_engine(url)
    origin = "https://testserver"
    app = create_app(engine, {KEY: "admin"}, console_config=ConsoleConfig(origins=(origin,)))
    client = TestClient(app, base_url=origin)
    nonce = re.search(r'name="login_csrf" value="([^"]+)"', client.get("/console/login").text)
    assert nonce, "the sign-in page should carry its nonce"
    signed_in = client.post(
        "/console/login",
        data={"api_key": KEY, "login_csrf": nonce.group(1)},
        headers={"Origin": origin},
        follow_redirects=False,
    )
    assert signed_in.status_code == 303, signed_in.text[:300]
    first = client.get("/console/queue").text
    cursor = re.search(r'href="/console/queue\?cursor=([^"&]+)', first)
    assert cursor, "the first page should link to the next"
    flag_id = re.search(r'data-flag-id="([^"]+)"', first)
    assert flag_id
    api = {"X-API-Key": KEY}
    rows = [
        ("first page", "/console/queue", "/v1/queue?limit=50"),
        ("one category", "/console/queue?category=spam", "/v1/queue?limit=50&category=spam"),
        (
            "a later page (cursor)",
            f"/console/queue?cursor={cursor.group(1)}",
            f"/v1/queue?limit=50&cursor={cursor.group(1)}",
        ),
        ("a flag's page", f"/console/flags/{flag_id.group(1)}", f"/v1/flags/{flag_id.group(1)}"),
    ]
    lines = []
    for name, page, baseline in rows:
        page_ms: list[float] = []
        base_ms: list[float] = []
        for _ in range(3):  # warm-up
            client.get(page)
            client.get(baseline, headers=api)
        for _ in range(args.repeats):
            t = time.perf_counter()
            answer = client.get(page)
            page_ms.append((time.perf_counter() - t) * 1000)
            assert answer.status_code == 200, answer.text[:300]
            t = time.perf_counter()
            answer = client.get(baseline, headers=api)
            base_ms.append((time.perf_counter() - t) * 1000)
            assert answer.status_code == 200, answer.text[:300]
        (p50, p95), (b50, b95) = _ms(page_ms), _ms(base_ms)
        verdict = "met" if p95 < 100 else "**not met**"
        lines.append(
            f"| {name} | {p50:.1f} | {p95:.1f} | {b50:.1f} | {b95:.1f} | {p50 / b50:.2f}x | "
            f"{verdict} |"
        )
    engine.dispose()
    report = "\n".join(
        [
            "# Console benchmark: the queue page with 100,000 flags",
            "",
            f"Command: `make bench-console` (python -m bench.console_bench --flags {args.flags}"
            f" --repeats {args.repeats})",
            f"Machine: {describe_machine()}",
            f"Run: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC. SQLite, {args.flags:,} open flags "
            f"(filled in {filled_s:.0f} s); each row {args.repeats} requests of the page, "
            "alternated with the same number of its API baseline, in-process (no network).",
            "Target: a queue page under 100 ms of server time (p95 here).",
            "",
            "| page | p50 ms | p95 ms | API p50 ms | API p95 ms | page / API (p50) | target |",
            "|---|---|---|---|---|---|---|",
            *lines,
            "",
        ]
    )
    write_report(args.out, report)
    print(report)


if __name__ == "__main__":
    main()
