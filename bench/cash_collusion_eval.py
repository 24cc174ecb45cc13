"""Quality of the cash-table collusion detectors (chip_dumping, soft_play) on simulated days.

Usage:
    .venv/bin/python -m bench.cash_collusion_eval --seeds 11 12 13 14 --intensities 0.5 0.3
    .venv/bin/python -m bench.cash_collusion_eval --varied --seeds 21 22 23 24 --cache var/cash
    .venv/bin/python -m bench.cash_collusion_eval --dump-modes showdown bluff \\
        --soft-modes multiway --intensity-range 0.03 0.9 --hard-negatives --positional-share 0.3
    .venv/bin/python -m bench.cash_collusion_eval --phh /tmp/phh.jsonl   # real hands, no truth

Each seed gives one simulated cash day per intensity (`--tables` tables, `--hours` long, with
`--pairs` chip-dumping and as many soft-play pairs spread over the tables), or one day whose
pairs draw their own intensities (`--intensity-range`). Pairs play the modes of
`--dump-modes` / `--soft-modes` in turn (`sim.cash_pairs`); `--hard-negatives` seats honest
look-alikes at every table (`sim.cash_negatives`); `--positional-share` gives that share of
players the second honest family. `--varied` is all of it at once.

Every event of a day (chat, table, hand) goes through the real pipeline with the registered
detectors that read hands (or `--detectors`), so whatever chip_dumping and soft_play are built
on at the moment is what is measured; only flags of those two categories are scored. Reported:
precision (flags naming a true pair of their category), recall over non-optional pairs, soft
play's recall over pairs that met heads-up on >= `--min-flops` flops, recall per mode and per
intensity bucket, recall as a surface over the pair's deviating moves x the hands it had
shared when first flagged, alerts per 1,000 honest players, flags on each hard-negative kind,
and detection delay.
`--cache DIR` keeps each simulated day as JSON Lines (named by seed and a digest of its whole
`SimConfig`) and re-reads it next time: empty it after changing the simulator. Tune on seeds
1-3; report held-out seeds only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from railbird.detectors.detector import EVENT_TYPES
from railbird.detectors.events import HandEvent, event_from_dict
from railbird.detectors.registry import DETECTOR_TYPES, build_detectors
from railbird.rules.pipeline import Pipeline
from railbird.sim.cash_negatives import KINDS
from railbird.sim.cash_pairs import DUMP_MODES, SOFT_MODES
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate, write_simulation

CATEGORIES = ("chip_dumping", "soft_play")
DRAWN = "drawn"  # the intensity key of days whose pairs drew their own
# Intensity buckets (lower bounds) and the surface's buckets (lower bounds).
INTENSITY_BUCKETS: tuple[tuple[float, str], ...] = (
    (0.0, "quiet <0.2"),
    (0.2, "low 0.2-0.4"),
    (0.4, "medium 0.4-0.7"),
    (0.7, "blatant >=0.7"),
)
MOVE_BUCKETS = (0, 5, 15, 30, 60)
WITHIN = (50, 100, 200, 400)  # the surface's columns: found within this many shared hands
# `--varied`: every mode, intensities from a handful of acts to blatant, the hard negatives and
# a third of the players of the second honest family.
VARIED: dict[str, Any] = {
    "dump_modes": list(DUMP_MODES),
    "soft_modes": list(SOFT_MODES),
    "intensity_range": [0.03, 0.9],
    "hard_negatives": True,
    "positional_share": 0.3,
}


@dataclass(slots=True)
class DayResult:
    seed: int
    intensity: float | str
    hands: int = 0
    players: int = 0
    honest_players: int = 0
    seconds: float = 0.0  # in the detectors
    sim_seconds: float = 0.0  # simulating (or re-reading) and decoding the day
    truth: list[dict[str, Any]] = field(default_factory=list)  # true pairs
    negatives: list[dict[str, Any]] = field(default_factory=list)  # cash hard negatives
    flags: list[dict[str, Any]] = field(default_factory=list)


def detector_names(chosen: list[str] | None) -> set[str]:
    """The detectors to run: `chosen`, else every registered one that reads hands (the cash
    collusion detectors are among them whatever they are called today)."""
    known = {t.name for t in DETECTOR_TYPES}
    if chosen:
        unknown = set(chosen) - known
        if unknown:
            raise SystemExit(f"--detectors: unknown {sorted(unknown)}; known: {sorted(known)}")
        return set(chosen)
    return {t.name for t in DETECTOR_TYPES if "hand" in getattr(t, "consumes", EVENT_TYPES)}


def day_config(seed: int, intensity: float | None, args: argparse.Namespace) -> SimConfig:
    drawn = tuple(args.intensity_range) if args.intensity_range else None
    return SimConfig(
        seed=seed,
        tournaments=0,
        cash_tables=args.tables,
        hours=args.hours,
        chip_dump_pairs=args.pairs,
        soft_play_pairs=args.pairs,
        team_intensity=intensity if intensity is not None else 0.5,
        cash_dump_modes=tuple(args.dump_modes),
        cash_soft_modes=tuple(args.soft_modes),
        cash_intensity_range=drawn,
        cash_hard_negatives=args.hard_negatives,
        positional_share=args.positional_share,
    )


def _records(cfg: SimConfig, cache: Path | None) -> Iterator[tuple[str, dict[str, Any]]]:
    """The day's records, simulated now or re-read from `cache` (truth first, then events)."""
    if cache is None:
        yield from simulate(cfg)
        return
    tag = hashlib.sha256(repr(cfg).encode()).hexdigest()[:12]
    stem = f"cash_s{cfg.seed}_{cfg.cash_tables}x{cfg.hours:g}h_{tag}"
    events, truth = cache / f"{stem}.events.jsonl", cache / f"{stem}.truth.jsonl"
    if not (events.exists() and truth.exists()):  # written aside, then renamed: never half a day
        cache.mkdir(parents=True, exist_ok=True)
        partial = (events.with_name(events.name + ".part"), truth.with_name(truth.name + ".part"))
        write_simulation(cfg, *partial)
        partial[0].replace(events)
        partial[1].replace(truth)
    with truth.open("rb") as fh:
        for line in fh:
            yield "truth", orjson.loads(line)
    with events.open("rb") as fh:
        for line in fh:
            yield "event", orjson.loads(line)


def _flop_players(hand: dict[str, Any]) -> frozenset[str]:
    """Who was still in when the flop came (empty if it never did)."""
    streets = {a["street"] for a in hand["actions"]}
    if "flop" not in streets:
        return frozenset()
    folded = {
        a["player_id"]
        for a in hand["actions"]
        if a["street"] == "preflop" and a["action"] == "fold"
    }
    return frozenset(s["player_id"] for s in hand["seats"]) - folded


def run_day(job: tuple[int, float | None, argparse.Namespace]) -> DayResult:
    """Simulate (or re-read) one day, scan it, and measure each true pair's and hard
    negative's shared hands and heads-up flops from the hands themselves."""
    seed, intensity, args = job
    cfg = day_config(seed, intensity, args)
    pipeline = Pipeline(build_detectors(only=detector_names(args.detectors)), decide=False)
    day = DayResult(seed, DRAWN if intensity is None else intensity)
    truth: list[dict[str, Any]] = []
    hands_at: Counter[str] = Counter()  # hands dealt so far per table
    hand_end: dict[str, tuple[str, int]] = {}  # hand id -> (ended_at, its table's hand count)
    seen: set[str] = set()
    seats_of: list[frozenset[str]] = []
    heads_up_flops: Counter[frozenset[str]] = Counter()
    first: dict[str, dict[str, Any]] = {}  # flag id -> the flag as first raised
    began_day = time.perf_counter()
    for kind, record in _records(cfg, Path(args.cache) if args.cache else None):
        if kind == "truth":
            truth.append(record)
            continue
        event = event_from_dict(record)
        if record["type"] == "hand":
            hands_at[record["table_id"]] += 1
            hand_end[record["hand_id"]] = (record["ended_at"], hands_at[record["table_id"]])
            players = frozenset(s["player_id"] for s in record["seats"])
            seen |= players
            seats_of.append(players)
            flop = _flop_players(record)
            if len(flop) == 2:
                heads_up_flops[flop] += 1
        began = time.perf_counter()
        flags = pipeline.process(event).flags
        day.seconds += time.perf_counter() - began
        for flag in flags:
            if flag.category not in CATEGORIES or flag.flag_id in first:
                continue
            as_dict = flag.to_dict()
            first[flag.flag_id] = {
                "category": as_dict["category"],
                "detector": as_dict["detector"],
                "player_ids": sorted(as_dict["player_ids"]),
                "table_id": as_dict["table_id"],
                "ts": as_dict["ts"],
                "table_hands": hands_at[str(as_dict["table_id"])],
                "day_hands": len(seats_of),
                "summary": as_dict["explanation"],
            }
    day.sim_seconds = time.perf_counter() - began_day - day.seconds
    day.flags = list(first.values())
    day.truth = [t for t in truth if t.get("category") in CATEGORIES]
    day.negatives = [t for t in truth if t.get("hard_negative") in KINDS]
    for record in day.truth + day.negatives:
        pair = frozenset(record["player_ids"])
        # The day's hand numbers (from 1) the pair shared: a flag raised once the day had dealt
        # n hands came after those <= n (for the surface).
        record["shared_at"] = [k for k, seats in enumerate(seats_of, start=1) if pair <= seats]
        record["shared_hands"] = len(record["shared_at"])
        record["heads_up_flops"] = heads_up_flops[pair]
    for t in day.truth:  # the pair's acting hands up to each of its flags, for the delay
        acts = [hand_end[h] for h in t.get("hand_ids", ()) if h in hand_end]
        t["act_ends"] = [end for end, _ in acts]
        t["first_act_table_hand"] = acts[0][1] if acts else None
    day.hands = len(seats_of)
    day.players = len(seen)
    members = {p for t in day.truth for p in t["player_ids"]}
    day.honest_players = len(seen - members)
    return day


# -- scoring -------------------------------------------------------------------------------------


def _bucket(value: float, bounds: Iterable[float]) -> float:
    return max(b for b in bounds if value >= b)


def _intensity_bucket(intensity: float) -> str:
    return next(name for low, name in reversed(INTENSITY_BUCKETS) if intensity >= low)


def _rate(found: int, total: int) -> float | None:
    return round(found / total, 3) if total else None


def _median(values: list[int]) -> int | None:
    return sorted(values)[len(values) // 2] if values else None


@dataclass(slots=True)
class PairOutcome:
    """One true pair, its measures, and whether (and when) a flag of its category named it."""

    day: DayResult
    truth: dict[str, Any]
    flags: list[dict[str, Any]]

    @property
    def found(self) -> bool:
        return bool(self.flags)

    @property
    def counted(self) -> bool:
        return not self.truth.get("optional")


def outcomes(days: list[DayResult]) -> tuple[list[PairOutcome], list[dict[str, Any]]]:
    """Each true pair with the flags naming it, and every flag marked with what it hit."""
    pairs: list[PairOutcome] = []
    marked: list[dict[str, Any]] = []
    for d in days:
        truth = [(frozenset(t["player_ids"]), t) for t in d.truth]
        negatives = [(frozenset(n["player_ids"]), n) for n in d.negatives]
        members = {p for key, _ in truth for p in key}
        named: dict[int, list[dict[str, Any]]] = {}
        for flag in d.flags:
            players = set(flag["player_ids"])
            hits = [k for k, (key, t) in enumerate(truth) if key <= players]
            right = [k for k in hits if truth[k][1]["category"] == flag["category"]]
            for k in right:
                named.setdefault(k, []).append(flag)
            label = "true" if right else ("wrong_category" if hits else "false")
            kinds = sorted({n["hard_negative"] for key, n in negatives if key <= players})
            touched = sorted(
                {n["hard_negative"] for key, n in negatives if key & players and not key <= players}
            )
            honest = sorted(players - members)
            marked.append(
                {
                    **flag,
                    "seed": d.seed,
                    "intensity": d.intensity,
                    "label": label,
                    "hard_negatives": kinds,
                    "touches": touched,
                    "honest_players": honest,
                }
            )
        pairs.extend(PairOutcome(d, t, named.get(k, [])) for k, (_, t) in enumerate(truth))
    return pairs, marked


def shared_before_flag(pair: PairOutcome) -> int | None:
    """How many hands the pair had shared when it was first flagged (None: never)."""
    if not pair.flags:
        return None
    flagged_at: int = min(f["day_hands"] for f in pair.flags)
    shared_at: list[int] = pair.truth["shared_at"]
    return sum(k <= flagged_at for k in shared_at)


def _delays(pair: PairOutcome) -> tuple[int | None, int | None]:
    """(table hands from the pair's first act to its first flag, acting hands by then)."""
    flag = min(pair.flags, key=lambda f: f["ts"])
    first_act = pair.truth.get("first_act_table_hand")
    if first_act is None:
        return None, None
    by_then = sum(end <= flag["ts"] for end in pair.truth["act_ends"])
    return flag["table_hands"] - first_act, by_then


def score(days: list[DayResult], min_flops: int) -> dict[str, Any]:
    pairs, flags = outcomes(days)
    honest = sum(d.honest_players for d in days)
    report: dict[str, Any] = {
        "days": len(days),
        "hands": sum(d.hands for d in days),
        "honest_players": honest,
        "detector_seconds": round(sum(d.seconds for d in days), 1),
        "simulate_seconds": round(sum(d.sim_seconds for d in days), 1),
    }
    for category in CATEGORIES:
        mine = [p for p in pairs if p.truth["category"] == category]
        counted = [p for p in mine if p.counted]
        cat_flags = [f for f in flags if f["category"] == category]
        true = sum(f["label"] == "true" for f in cat_flags)
        false = [f for f in cat_flags if f["label"] != "true"]
        wanted = [p for p in counted if p.truth["heads_up_flops"] >= min_flops]
        found = [p for p in counted if p.found]
        delays = [_delays(p) for p in found]
        flagged_honest = {
            (f["seed"], f["intensity"], p) for f in false for p in f["honest_players"]
        }
        report[category] = {
            "flags": len(cat_flags),
            "precision": _rate(true, len(cat_flags)),
            "recall": _rate(len(found), len(counted)),
            "pairs_found": f"{len(found)}/{len(counted)}",
            f"recall_{min_flops}_heads_up_flops": _rate(sum(p.found for p in wanted), len(wanted)),
            f"pairs_{min_flops}_heads_up_flops": len(wanted),
            "optional_pairs_found": f"{sum(p.found for p in mine if not p.counted)}/"
            f"{sum(not p.counted for p in mine)}",
            "false_flags": len(false),
            "wrong_category_flags": sum(f["label"] == "wrong_category" for f in false),
            "alerts_per_1000_honest_players": round(1000 * len(false) / max(1, honest), 2),
            "honest_players_flagged_per_1000": round(
                1000 * len(flagged_honest) / max(1, honest), 2
            ),
            "median_delay_table_hands": _median([h for h, _ in delays if h is not None]),
            "median_delay_acts": _median([a for _, a in delays if a is not None]),
        }
    report["by_intensity"] = _recall_table(
        pairs,
        lambda p: str(p.day.intensity) if p.day.intensity != DRAWN else DRAWN,
    )
    report["by_intensity_bucket"] = _recall_table(
        pairs, lambda p: _intensity_bucket(float(p.truth["intensity"]))
    )
    report["by_mode"] = _recall_table(pairs, lambda p: str(p.truth.get("mode", "?")))
    report["surface"] = _surface(pairs)
    report["hard_negatives"] = _negatives(days, flags)
    return report


def _recall_table(pairs: list[PairOutcome], key: Any) -> dict[str, dict[str, Any]]:
    """category -> group -> recall over non-optional pairs, with their median moves."""
    table: dict[str, dict[str, Any]] = {}
    groups: dict[tuple[str, str], list[PairOutcome]] = {}
    for p in pairs:
        if p.counted:
            groups.setdefault((p.truth["category"], key(p)), []).append(p)
    for (category, group), members in sorted(groups.items()):
        found = sum(p.found for p in members)
        table.setdefault(category, {})[group] = {
            "recall": _rate(found, len(members)),
            "pairs_found": f"{found}/{len(members)}",
            "median_acts": _median([int(p.truth["acts"]) for p in members]),
            "median_moves": _median([int(p.truth.get("moves", 0)) for p in members]),
            "median_shared_hands": _median([int(p.truth["shared_hands"]) for p in members]),
        }
    return table


def _surface(pairs: list[PairOutcome]) -> dict[str, dict[str, dict[str, str]]]:
    """category -> the pair's deviating moves (bucket) -> "found within N shared hands / pairs
    that shared N", and at all: how many shared hands a pair needs before it is found. Every
    pair counts, optional ones too: the quietest corner is the point."""
    surface: dict[str, dict[str, dict[str, str]]] = {}
    rows: dict[tuple[str, float], list[PairOutcome]] = {}
    for p in pairs:
        moves = _bucket(float(p.truth.get("moves", 0)), MOVE_BUCKETS)
        rows.setdefault((p.truth["category"], moves), []).append(p)
    for (category, moves), members in sorted(rows.items()):
        row = surface.setdefault(category, {}).setdefault(f"moves>={int(moves)}", {})
        for n in WITHIN:
            eligible = [p for p in members if p.truth["shared_hands"] >= n]
            if eligible:
                needed = [shared_before_flag(p) for p in eligible]
                found = sum(k is not None and k <= n for k in needed)
                row[f"within {n}"] = f"{found}/{len(eligible)}"
        row["at all"] = f"{sum(p.found for p in members)}/{len(members)}"
    return surface


def _negatives(days: list[DayResult], flags: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per hard-negative kind: how many there were, how many were flagged as a pair (by
    category), and false flags naming one of the two with someone else."""
    kinds: dict[str, dict[str, Any]] = {}
    for d in days:
        for n in d.negatives:
            row = kinds.setdefault(
                n["hard_negative"],
                {"instances": 0, "flagged": Counter(), "touched": 0, "shared_hands": [], "lost": 0},
            )
            row["instances"] += 1
            row["shared_hands"].append(n["shared_hands"])
            row["lost"] += n.get("lost_to_winner", 0) > 0
    for f in flags:
        for kind in f["hard_negatives"]:
            kinds[kind]["flagged"][f["category"]] += 1
        for kind in f["touches"]:
            kinds[kind]["touched"] += 1
    report: dict[str, dict[str, Any]] = {}
    for kind, row in sorted(kinds.items()):
        report[kind] = {
            "instances": row["instances"],
            "flagged": dict(row["flagged"]),
            "flags_touching_one_of_them": row["touched"],
            "median_shared_hands": _median(row["shared_hands"]),
        }
        if kind == "bad_luck_against_winner":  # how often the bad luck really happened
            report[kind]["loser_lost_to_winner"] = f"{row['lost']}/{row['instances']}"
    return report


def misses(days: list[DayResult]) -> list[str]:
    pairs, _ = outcomes(days)
    return [
        f"seed={p.day.seed} {p.truth['category']} mode={p.truth.get('mode')} "
        f"intensity={p.truth['intensity']} acts={p.truth['acts']} moves={p.truth.get('moves')} "
        f"shared_hands={p.truth['shared_hands']} heads_up_flops={p.truth['heads_up_flops']} "
        f"table={p.truth['table_id']} players={','.join(p.truth['player_ids'])}"
        for p in pairs
        if p.counted and not p.found
    ]


def render(report: dict[str, Any]) -> str:
    """The report as Markdown tables, ready for docs/."""
    lines = [
        f"{report['days']} days, {report['hands']:,} hands, {report['honest_players']:,} "
        f"honest players; simulating {report['simulate_seconds']} s, detectors "
        f"{report['detector_seconds']} s",
        "",
    ]
    head = [k for k in report[CATEGORIES[0]] if k != "flags"]
    lines += ["| category | flags | " + " | ".join(head) + " |", "|---" * (len(head) + 2) + "|"]
    for category in CATEGORIES:
        row = report[category]
        lines.append(
            f"| {category} | {row['flags']} | " + " | ".join(str(row[k]) for k in head) + " |"
        )
    for title in ("by_mode", "by_intensity_bucket", "by_intensity"):
        lines += [
            "",
            f"Recall {title.replace('_', ' ')}:",
            "",
            "| category | group | recall | found | median acts | median moves "
            "| median shared hands |",
            "|---|---|---|---|---|---|---|",
        ]
        for category, groups in report[title].items():
            for group, row in groups.items():
                lines.append(
                    f"| {category} | {group} | {row['recall']} | {row['pairs_found']} | "
                    f"{row['median_acts']} | {row['median_moves']} | {row['median_shared_hands']} |"
                )
    for category, rows in report["surface"].items():
        columns = [*(f"within {n}" for n in WITHIN), "at all"]
        lines += [
            "",
            f"{category}: pairs found within N shared hands / pairs that shared N, by the "
            "pair's deviating moves:",
            "",
            "| moves | " + " | ".join(columns) + " |",
            "|---" * (len(columns) + 1) + "|",
        ]
        for moves in (f"moves>={b}" for b in MOVE_BUCKETS):
            if moves in rows:
                cells = [rows[moves].get(c, "") for c in columns]
                lines.append(f"| {moves} | " + " | ".join(cells) + " |")
    if report["hard_negatives"]:
        lines += [
            "",
            "| hard negative | instances | flagged as a pair | flags touching one | "
            "median shared hands | note |",
            "|---|---|---|---|---|---|",
        ]
        for kind, row in report["hard_negatives"].items():
            note = (
                f"the loser lost to the winner at {row['loser_lost_to_winner']}"
                if "loser_lost_to_winner" in row
                else ""
            )
            lines.append(
                f"| {kind} | {row['instances']} | {row['flagged'] or 0} | "
                f"{row['flags_touching_one_of_them']} | {row['median_shared_hands']} | {note} |"
            )
    return "\n".join(lines) + "\n"


def scan_real(path: Path, detectors: list[str] | None) -> dict[str, Any]:
    """Presumed-honest real hands: every flag is a false flag."""
    events = []
    for line in path.read_text().splitlines():
        event = event_from_dict(json.loads(line))
        if isinstance(event, HandEvent):
            events.append(event)
    events.sort(key=lambda e: e.ended_at)
    pipeline = Pipeline(build_detectors(only=detector_names(detectors)), decide=False)
    flags = [f for e in events for f in pipeline.process(e).flags if f.category in CATEGORIES]
    players = {s.player_id for e in events for s in e.seats}
    return {
        "hands": len(events),
        "players": len(players),
        "flags": len(flags),
        "flags_per_1000_hands": round(1000 * len(flags) / max(1, len(events)), 3),
        "flags_per_player": round(len(flags) / max(1, len(players)), 4),
        "flagged": [[f.category, *f.player_ids] for f in flags],
    }


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13, 14])
    parser.add_argument("--intensities", type=float, nargs="+", default=[0.5, 0.3])
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--hours", type=float, default=4.0)
    parser.add_argument("--pairs", type=int, default=4, help="pairs of each category per day")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--phh", type=Path, help="imported real hands (JSON Lines) to scan")
    parser.add_argument("--verbose", action="store_true", help="print every flag")
    parser.add_argument(
        "--dump-modes",
        nargs="+",
        choices=DUMP_MODES,
        default=[],
        help="chip-dumping pair k plays modes[k %% len] (default: fold)",
    )
    parser.add_argument(
        "--soft-modes",
        nargs="+",
        choices=SOFT_MODES,
        default=[],
        help="soft-play pair k plays modes[k %% len] (default: heads_up)",
    )
    parser.add_argument(
        "--intensity-range",
        type=float,
        nargs=2,
        metavar=("LOW", "HIGH"),
        help="each pair draws its intensity from this range (one day per seed; --intensities "
        "is then ignored)",
    )
    parser.add_argument(
        "--hard-negatives",
        action="store_true",
        help="seat honest look-alikes at every table: " + ", ".join(KINDS),
    )
    parser.add_argument(
        "--positional-share",
        type=float,
        default=0.0,
        help="share of players of the second honest family (sim.positional_players)",
    )
    parser.add_argument("--varied", action="store_true", help=f"all of it: {VARIED}")
    parser.add_argument(
        "--min-flops",
        type=int,
        default=6,
        help="soft play's recall over pairs that met heads-up on at least this many flops",
    )
    parser.add_argument("--cache", help="directory keeping simulated days between runs")
    parser.add_argument(
        "--detectors",
        nargs="+",
        help="registered detectors to run (default: every one that reads hands)",
    )
    parser.add_argument("--text", action="store_true", help="Markdown tables instead of JSON")
    parser.add_argument("--misses", action="store_true", help="list the pairs not found")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.varied:
        for key, value in VARIED.items():
            if not getattr(args, key):
                setattr(args, key, value)
    if args.intensity_range and not 0 <= args.intensity_range[0] <= args.intensity_range[1] <= 1:
        raise SystemExit(f"--intensity-range {args.intensity_range}: need 0 <= LOW <= HIGH <= 1")
    if args.phh:
        sys.stdout.write(json.dumps(scan_real(args.phh, args.detectors), indent=2) + "\n")
        return 0
    intensities: list[float | None] = [None] if args.intensity_range else list(args.intensities)
    jobs = [(s, i, args) for s in args.seeds for i in intensities]
    with ProcessPoolExecutor(max(1, args.jobs)) as pool:
        days = list(pool.map(run_day, jobs))
    if args.verbose:
        for flag in outcomes(days)[1]:
            sys.stdout.write(json.dumps(flag) + "\n")
    report = score(days, args.min_flops)
    sys.stdout.write(render(report) if args.text else json.dumps(report, indent=2) + "\n")
    if args.misses:
        sys.stdout.write("".join(f"missed: {m}\n" for m in misses(days)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
