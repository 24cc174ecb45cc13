"""Hand context in the chat check, on simulated days (`make bench-check-replay`).

Every chat message of a simulated day goes through the chat check (`api.chat_gate.ChatGate`,
in-process, every registered detector, the shipped policy) with the context a chat server would
send at that moment, derived from the day itself: the hand in play at the sender's table
(between its `hand_start` and `hand_end`), and the sender's part in it at the message's time:
`not_dealt` if `hand_start` did not deal them in, `folded` once their fold action's time has
passed, `all_in` once their all-in has, else `playing`. For a private message the context is the
recipient's hand (the hand the message can sway), with the sender's part in that hand. Fold and
all-in times come from the hand history, which the chat server knows live (it deals the hand).

Measured against the simulator's truth (whose wording is the simulator's, not the check's):
- the share of in-hand influence messages held or blocked before delivery (target >= 0.95);
- the share of the other messages sent during hands that are held (target <= 0.01).
Held-out seeds by default (the in-hand reader was tuned on seeds 1-2).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from bench.machine import describe_machine, write_report
from railbird.api.chat_gate import ChatGate
from railbird.detectors.events import ChatEvent, event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from railbird.store.database import make_engine, migrate

REPO = Path(__file__).resolve().parents[1]
# Chat from another game (Dota 2 match chat, CONDA): talk the simulator never writes, with its
# own counts, times and short commands; rows labelled O (no toxicity).
FOREIGN_CHAT = Path("/work/shared/data/conda_train.csv")
HEADER = (
    "| seed | messages | in-hand truths | held or blocked | share | by kind | other messages "
    "during hands | held | share held | blocked (chat rules) | held with no hand in play |\n"
    "|---|---|---|---|---|---|---|---|---|---|---|"
)
CATEGORY = "in_hand_influence"


@dataclass
class _Hand:
    hand_id: str
    players: frozenset[str]
    folded: dict[str, datetime] = field(default_factory=dict)
    all_in: dict[str, datetime] = field(default_factory=dict)

    def status(self, player: str, at: datetime) -> str:
        if player not in self.players:
            return "not_dealt"
        if (t := self.folded.get(player)) is not None and t <= at:
            return "folded"
        if (t := self.all_in.get(player)) is not None and t <= at:
            return "all_in"
        return "playing"


@dataclass
class DayResult:
    seed: int
    messages: int = 0
    with_context: int = 0
    positives: int = 0
    positives_stopped: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    others_during_hands: int = 0
    others_held: int = 0
    others_blocked: int = 0
    honest_during_hands: int = 0
    honest_held: int = 0
    without_context_held: int = 0
    seconds: float = 0.0
    misses: list[str] = field(default_factory=list)
    false_holds: list[str] = field(default_factory=list)


def _day(
    seed: int, players: int, tournaments: int, hours: float
) -> tuple[list[Any], dict[str, Any]]:
    config = SimConfig(
        seed=seed,
        tournaments=tournaments,
        cash_tables=2,
        hours=hours,
        players_per_tournament=players,
    )
    events: list[Any] = []
    truth: dict[str, Any] = {}
    for kind, record in simulate(config):
        if kind == "truth":
            if record.get("message_id"):
                truth[record["message_id"]] = record
        else:
            events.append(event_from_dict(record))
    return events, truth


def _hands(events: list[Any]) -> dict[str, _Hand]:
    """Every hand's players and each player's fold and all-in times."""
    hands: dict[str, _Hand] = {}
    for event in events:
        if event.type == "table" and event.action == "hand_start" and event.hand_id:
            hands[event.hand_id] = _Hand(event.hand_id, frozenset(event.players or ()))
    for event in events:
        if event.type != "hand" or event.hand_id not in hands:
            continue
        hand = hands[event.hand_id]
        for action in event.actions:
            if action.ts is None:
                continue
            if action.action == "fold":
                hand.folded.setdefault(action.player_id, action.ts)
            elif action.action == "all_in":
                hand.all_in.setdefault(action.player_id, action.ts)
    return hands


def replay(seed: int, players: int, tournaments: int, hours: float, show: int) -> DayResult:
    events, truth = _day(seed, players, tournaments, hours)
    hands = _hands(events)
    result = DayResult(seed)
    with tempfile.TemporaryDirectory(prefix="check-replay-") as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'empty.db'}")
        migrate(engine)
        gate = ChatGate(engine, build_detectors())
        in_play: dict[str, str] = {}  # table -> hand in play
        seat_of: dict[str, str] = {}  # player -> table of the hand they were last dealt
        began = time.perf_counter()
        for event in events:
            if event.type == "table":
                if event.action == "hand_start" and event.hand_id:
                    in_play[event.table_id] = event.hand_id
                    for player in event.players or ():
                        seat_of[player] = event.table_id
                elif event.action == "hand_end":
                    in_play.pop(event.table_id, None)
                continue
            if not isinstance(event, ChatEvent):
                continue
            result.messages += 1
            _one(event, gate, hands, in_play, seat_of, truth, result, show)
        result.seconds = time.perf_counter() - began
        gate.stop()
        engine.dispose()
    return result


def _one(
    message: ChatEvent,
    gate: ChatGate,
    hands: dict[str, _Hand],
    in_play: dict[str, str],
    seat_of: dict[str, str],
    truth: dict[str, Any],
    result: DayResult,
    show: int,
) -> None:
    if message.channel == "private" and message.recipient_id:
        table = seat_of.get(message.recipient_id)
    else:
        table = message.table_id
    hand_id = in_play.get(table) if table else None
    status = hands[hand_id].status(message.player_id, message.ts) if hand_id else None
    verdict = gate.check(message, hand_id, status, now=message.ts)  # type: ignore[arg-type]
    record = truth.get(message.message_id, {})
    positive = record.get("category") == CATEGORY
    said = f"[{message.channel}/{message.kind}/{status}] {message.text!r}"
    if positive:
        result.positives += 1
        stopped = verdict.decision in ("hold", "block")
        result.positives_stopped += stopped
        tally = result.by_kind.setdefault(str(record.get("kind")), [0, 0])
        tally[0] += stopped
        tally[1] += 1
        if not stopped and len(result.misses) < show:
            result.misses.append(f"{message.message_id} {record.get('kind')}: {said}")
        return
    if hand_id is None:
        result.without_context_held += verdict.decision == "hold"
        return
    result.with_context += 1
    result.others_during_hands += 1
    result.others_held += verdict.decision == "hold"
    result.others_blocked += verdict.decision == "block"
    if "category" not in record:  # honest talk (or a deliberate hard negative)
        result.honest_during_hands += 1
        result.honest_held += verdict.decision == "hold"
    if verdict.decision == "hold" and len(result.false_holds) < show:
        why = record.get("category") or record.get("hard_negative") or "honest"
        result.false_holds.append(f"{message.message_id} ({why}): {said}")


def foreign_chat_holds(path: Path, limit: int) -> dict[str, Any]:
    """Another game's non-toxic match chat, each line sent during a hand by a sender of each
    status: the share held (what the simulator's small talk cannot show)."""
    with path.open(encoding="utf-8") as handle:
        lines = [row["text"] for row in csv.DictReader(handle) if row["label"] == "O"]
    lines = list(dict.fromkeys(t for t in lines if t.strip()))[:limit]
    held: dict[str, int] = {}
    examples: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory(prefix="check-replay-") as tmp:
        engine = make_engine(f"sqlite:///{Path(tmp) / 'empty.db'}")
        migrate(engine)
        for status in ("playing", "folded", "all_in", "not_dealt"):
            gate = ChatGate(engine, build_detectors())  # no spam memory across statuses
            count = 0
            for n, text in enumerate(lines):
                message = event_from_dict(
                    {"type": "chat", "message_id": f"c-{n}", "ts": "2026-12-01T20:00:00Z",
                     "player_id": f"p-{n}", "channel": "table", "table_id": f"t-{n}",
                     "kind": "text", "text": text}
                )  # fmt: skip
                assert isinstance(message, ChatEvent)
                if gate.check(message, "h-1", status, now=message.ts).decision == "hold":
                    count += 1
                    examples.setdefault(status, []).append(text)
            held[status] = count
            gate.stop()
        engine.dispose()
    return {"lines": len(lines), "held": held, "examples": {k: v[:8] for k, v in examples.items()}}


def _share(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def summary(r: DayResult) -> dict[str, Any]:
    return {
        "seed": r.seed,
        "messages": r.messages,
        "in_hand_truths": r.positives,
        "held_or_blocked": r.positives_stopped,
        "stopped_share": _share(r.positives_stopped, r.positives),
        "by_kind": {k: f"{v[0]}/{v[1]}" for k, v in sorted(r.by_kind.items())},
        "other_during_hands": r.others_during_hands,
        "other_held": r.others_held,
        "other_held_share": _share(r.others_held, r.others_during_hands),
        "other_blocked": r.others_blocked,
        "honest_during_hands": r.honest_during_hands,
        "honest_held": r.honest_held,
        "held_without_hand_context": r.without_context_held,
        "checks_per_s": round(r.messages / r.seconds) if r.seconds else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13])
    parser.add_argument("--players", type=int, default=500)
    parser.add_argument("--tournaments", type=int, default=2)
    parser.add_argument("--hours", type=float, default=3.0)
    parser.add_argument("--show", type=int, default=0, help="print this many misses and holds")
    parser.add_argument("--foreign", type=int, default=10000, help="CONDA lines (0: none)")
    parser.add_argument("--out", type=Path, default=REPO / "var" / "benchmarks-check-replay.md")
    args = parser.parse_args(argv)
    machine = describe_machine()
    days = []
    for seed in args.seeds:
        day = replay(seed, args.players, args.tournaments, args.hours, args.show)
        for line in day.misses + day.false_holds:
            print(line)
        days.append(summary(day))
        print(json.dumps(days[-1]), flush=True)
    foreign = ""
    if args.foreign and FOREIGN_CHAT.exists():
        found = foreign_chat_holds(FOREIGN_CHAT, args.foreign)
        print(json.dumps(found), flush=True)
        shares = ", ".join(
            f"{status} {n} ({n / found['lines']:.4f})" for status, n in found["held"].items()
        )
        foreign = (
            f"\nAnother game's chat (CONDA, Dota 2 match chat, {found['lines']:,} distinct "
            f"non-toxic lines) sent during a hand, held by sender status: {shares}.\n"
        )
    positives = sum(d["in_hand_truths"] for d in days)
    stopped = sum(d["held_or_blocked"] for d in days)
    others = sum(d["other_during_hands"] for d in days)
    held = sum(d["other_held"] for d in days)
    rows = "\n".join(
        f"| {d['seed']} | {d['messages']:,} | {d['in_hand_truths']} | {d['held_or_blocked']} | "
        f"{d['stopped_share']} | {', '.join(f'{k} {v}' for k, v in d['by_kind'].items())} | "
        f"{d['other_during_hands']:,} | {d['other_held']} | {d['other_held_share']} | "
        f"{d['other_blocked']} | {d['held_without_hand_context']} |"
        for d in days
    )
    command = "python -m bench.check_replay " + " ".join(argv if argv is not None else sys.argv[1:])
    report = f"""# The chat check with hand context, replayed over simulated days

Command: `make bench-check-replay  ({command.strip()})`
Machine: {machine}
Run: {datetime.now().astimezone():%Y-%m-%d %H:%M %Z}. Each day: {args.tournaments} tournaments of
{args.players} players and 2 cash tables, {args.hours:g} simulated hours; every chat message
through `ChatGate.check` (every registered detector, the shipped policy) with the hand context
the day implies (see `bench/check_replay.py`). Targets: in-hand influence held or blocked
>= 0.95; other messages sent during hands held <= 0.01.

{HEADER}
{rows}
| **all** | | {positives} | {stopped} | **{_share(stopped, positives)}** | | {others:,} | {held} | \
**{_share(held, others)}** | | |
{foreign}"""
    write_report(args.out, report)
    print(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
