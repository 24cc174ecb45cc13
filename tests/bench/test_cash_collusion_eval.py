"""The cash collusion harness: its arithmetic on a hand-made day, and a small varied day end to
end through the registered detectors, simulated once and re-read from the cache."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.bench.test_bench_smoke import load

EVAL = load("cash_collusion_eval")


def pair(pids: list[str], category: str, **extra: Any) -> dict[str, Any]:
    record = {
        "player_ids": pids,
        "category": category,
        "intensity": 0.5,
        "acts": 10,
        "moves": 20,
        "optional": False,
        "mode": "fold" if category == "chip_dumping" else "heads_up",
        "table_id": "t-1",
        "shared_hands": 150,
        "heads_up_flops": 8,
        "act_ends": ["2026-11-29T18:10:00.000Z", "2026-11-29T18:30:00.000Z"],
        "first_act_table_hand": 12,
    }
    record.update(extra)
    # The pair shared every other hand of the day: hands 1, 3, 5, ...
    record["shared_at"] = list(range(1, 2 * int(record["shared_hands"]), 2))
    return record


def flag(category: str, pids: list[str], ts: str = "2026-11-29T18:20:00.000Z") -> dict[str, Any]:
    return {
        "category": category,
        "player_ids": pids,
        "table_id": "t-1",
        "ts": ts,
        "table_hands": 40,  # at its table
        "day_hands": 120 if ts < "2026-11-29T18:30" else 200,  # in the whole day
    }


def made_day() -> Any:
    day = EVAL.DayResult(seed=1, intensity=0.5, hands=500, players=60, honest_players=50)
    day.truth = [
        pair(["p-1", "p-2"], "chip_dumping", moves=40, shared_hands=420),
        pair(["p-3", "p-4"], "chip_dumping", moves=3, mode="showdown", intensity=0.1),
        pair(["p-5", "p-6"], "soft_play", heads_up_flops=2),
        pair(["p-7", "p-8"], "soft_play", acts=1, optional=True),
    ]
    day.negatives = [
        {
            "hard_negative": "regulars_side_by_side",
            "player_ids": ["p-20", "p-21"],
            "shared_hands": 300,
        },
        {"hard_negative": "friends", "player_ids": ["p-22", "p-23"], "shared_hands": 200},
        {
            "hard_negative": "bad_luck_against_winner",
            "player_ids": ["p-24", "p-25"],
            "shared_hands": 250,
            "lost_to_winner": 5_000,
        },
    ]
    day.flags = [
        flag("chip_dumping", ["p-1", "p-2"]),
        flag("chip_dumping", ["p-1", "p-2"], "2026-11-29T18:40:00.000Z"),  # a later, second flag
        flag("chip_dumping", ["p-5", "p-6"]),  # a soft pair flagged as dumping
        flag("soft_play", ["p-20", "p-21"]),  # the regulars
        flag("chip_dumping", ["p-22", "p-30"]),  # a friend with a stranger
    ]
    return day


def test_the_scores_are_plain_arithmetic_over_pairs_flags_and_negatives() -> None:
    report = EVAL.score([made_day()], min_flops=6)
    dumping, soft = report["chip_dumping"], report["soft_play"]
    assert dumping["flags"] == 4 and dumping["precision"] == 0.5
    assert dumping["pairs_found"] == "1/2" and dumping["recall"] == 0.5
    assert dumping["false_flags"] == 2 and dumping["wrong_category_flags"] == 1
    assert dumping["alerts_per_1000_honest_players"] == 40.0  # 2 false flags, 50 honest
    assert (
        dumping["honest_players_flagged_per_1000"] == 40.0
    )  # p-22 and p-30 (p-5, p-6 are not honest)
    assert dumping["median_delay_table_hands"] == 28 and dumping["median_delay_acts"] == 1
    assert soft["pairs_found"] == "0/1" and soft["precision"] == 0.0
    assert soft["optional_pairs_found"] == "0/1"
    assert soft["recall_6_heads_up_flops"] is None  # the one counted soft pair met on 2 flops
    assert report["by_mode"]["chip_dumping"] == {
        "fold": {
            "recall": 1.0,
            "pairs_found": "1/1",
            "median_acts": 10,
            "median_moves": 40,
            "median_shared_hands": 420,
        },
        "showdown": {
            "recall": 0.0,
            "pairs_found": "0/1",
            "median_acts": 10,
            "median_moves": 3,
            "median_shared_hands": 150,
        },
    }
    assert set(report["by_intensity_bucket"]["chip_dumping"]) == {"quiet <0.2", "medium 0.4-0.7"}
    # p-1/p-2 were first flagged after the day's 120th hand: their 60th shared one.
    assert report["surface"]["chip_dumping"] == {
        "moves>=0": {"within 50": "0/1", "within 100": "0/1", "at all": "0/1"},
        "moves>=30": {
            "within 50": "0/1",
            "within 100": "1/1",
            "within 200": "1/1",
            "within 400": "1/1",
            "at all": "1/1",
        },
    }
    assert report["hard_negatives"] == {
        "bad_luck_against_winner": {
            "instances": 1,
            "flagged": {},
            "flags_touching_one_of_them": 0,
            "median_shared_hands": 250,
            "loser_lost_to_winner": "1/1",
        },
        "friends": {
            "instances": 1,
            "flagged": {},
            "flags_touching_one_of_them": 1,
            "median_shared_hands": 200,
        },
        "regulars_side_by_side": {
            "instances": 1,
            "flagged": {"soft_play": 1},
            "flags_touching_one_of_them": 0,
            "median_shared_hands": 300,
        },
    }
    markdown = EVAL.render(report)
    assert "| chip_dumping | fold | 1.0 | 1/1 | 10 | 40 | 420 |" in markdown
    assert "| regulars_side_by_side | 1 | {'soft_play': 1} | 0 | 300 |  |" in markdown
    assert EVAL.misses([made_day()])[0].startswith("seed=1 chip_dumping mode=showdown")


def test_a_varied_day_runs_end_to_end_and_is_re_read_from_the_cache(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--varied", "--seeds", "5", "--tables", "4", "--hours", "0.4", "--jobs", "1"]
    argv += ["--cache", str(tmp_path)]
    assert EVAL.main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    files = sorted(tmp_path.iterdir())
    assert [f.name.rsplit(".", 2)[1] for f in files] == ["events", "truth"]
    stamps = [f.stat().st_mtime_ns for f in files]
    assert EVAL.main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert [f.stat().st_mtime_ns for f in sorted(tmp_path.iterdir())] == stamps  # not rewritten
    for timing in ("detector_seconds", "simulate_seconds"):
        first.pop(timing)
        again.pop(timing)
    assert again == first
    assert first["days"] == 1 and first["hands"] > 100
    assert {kind: row["instances"] for kind, row in first["hard_negatives"].items()} == {
        "bad_luck_against_winner": 1,
        "friends": 1,
        "regulars_side_by_side": 1,
        "short_stack_shoving": 1,
    }
    surface = first["surface"]  # every pair, optional ones too, sits in one cell
    cells = [cell for rows in surface.values() for row in rows.values() for cell in row.values()]
    assert sum(int(cell.split("/")[1]) for cell in cells) == 8
