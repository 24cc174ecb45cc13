"""What the simulator's traffic asks of each keying (`docs/capacity.md` plans from it): events a
second per active table (mean and busiest minute), the share of events each stage reads, and
the busiest tournament's rate, the largest single key of the keyed stage.

A table is active in a minute when any of its events falls in that minute; a tournament's rate
counts every event naming it (what its keyed partition reads). Usage:
`python -m bench.kafka_traffic_profile EVENTS.jsonl` (e.g. the fault harness's day, kept with
`--keep`), or with no file the Kafka benchmark's traffic (`bench.kafka_runs.TRAFFIC`).
"""

from __future__ import annotations

import argparse
import tempfile
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

import orjson

from bench.kafka_runs import TRAFFIC, mixed_traffic


def _minute(event: dict[str, object]) -> int:
    stamp = event.get("ts") or event.get("ended_at")
    assert isinstance(stamp, str)
    return int(datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() // 60)


def profile(events: list[dict[str, object]]) -> str:
    tables_by_minute: dict[int, set[str]] = defaultdict(set)
    per_table_minute: Counter[tuple[str, int]] = Counter()
    chat_per_table_minute: Counter[tuple[str, int]] = Counter()
    tournament_minute: Counter[tuple[str, int]] = Counter()
    kinds: Counter[str] = Counter()
    off_table_chat = 0
    for event in events:
        minute = _minute(event)
        kind = str(event["type"])
        kinds[kind] += 1
        table = event.get("table_id")
        if isinstance(table, str):
            tables_by_minute[minute].add(table)
            per_table_minute[table, minute] += 1
            if kind == "chat":
                chat_per_table_minute[table, minute] += 1
        elif kind == "chat":
            off_table_chat += 1
        tournament = event.get("tournament_id")
        if isinstance(tournament, str):
            tournament_minute[tournament, minute] += 1
    minutes = max(tables_by_minute) - min(tables_by_minute) + 1
    table_minutes = sum(len(t) for t in tables_by_minute.values())
    mean_tables = table_minutes / minutes
    on_tables = sum(per_table_minute.values())
    per_table = on_tables / table_minutes / 60
    busiest = max(per_table_minute.values()) / 60
    busiest_chat = max(chat_per_table_minute.values(), default=0) / 60
    chat_p99 = sorted(chat_per_table_minute.values())[int(0.99 * len(chat_per_table_minute))] / 60
    in_tournaments = sum(tournament_minute.values())
    by_tournament: Counter[str] = Counter()
    tables_of: dict[str, set[str]] = defaultdict(set)
    for event in events:
        tournament, table = event.get("tournament_id"), event.get("table_id")
        if isinstance(tournament, str):
            by_tournament[tournament] += 1
            if isinstance(table, str):
                tables_of[tournament].add(table)
    peak_tournament = max(tournament_minute.values()) / 60
    biggest = max(by_tournament, key=lambda t: by_tournament[t])
    total = len(events)
    return "\n".join(
        [
            f"events: {total:,} over {minutes} minutes ({total / minutes / 60:,.1f}/s); "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(kinds.items())),
            f"active tables a minute: mean {mean_tables:,.1f}",
            f"events a second per active table: mean {per_table:.3f}, busiest table-minute "
            f"{busiest:.2f}",
            f"chat a second per active table: busiest table-minute {busiest_chat:.2f}, 99th "
            f"percentile table-minute {chat_p99:.3f}",
            f"chat away from the tables: {off_table_chat:,} ({off_table_chat / total:.1%})",
            f"events naming a tournament (read again by the keyed stage): {in_tournaments:,} "
            f"({in_tournaments / total:.1%})",
            f"busiest tournament-minute: {peak_tournament:.1f} events/s; biggest tournament "
            f"{biggest}: {by_tournament[biggest]:,} events over {len(tables_of[biggest])} tables",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("events", type=Path, nargs="?", help="a JSON Lines file of events")
    args = parser.parse_args(argv)
    if args.events is not None:
        lines = args.events.read_bytes().splitlines()
        events = [orjson.loads(line) for line in lines if line.strip()]
    else:
        with tempfile.TemporaryDirectory() as tmp:
            events = mixed_traffic(Path(tmp), TRAFFIC).events
    print(profile(events))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
