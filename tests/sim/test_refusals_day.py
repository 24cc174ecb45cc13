"""Issue 21's acceptance on a simulated day: `railbird scan` finds every refusal to play the
simulator's truth holds and no other, and the table-join blocks it takes are the house ladder
computed from that truth alone (per player and blind level, 12 hours: none, 5, 15, 30, 60)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest

from railbird.cli import main
from railbird.sim.config import SimConfig
from railbird.sim.run import write_simulation

# Six cash tables at three levels, two of them formats the rule spares; a third of the
# tables leave the level to their hands; a small tournament, whose short stays are no refusal.
REFUSAL_DAY = SimConfig(
    seed=21,
    tournaments=1,
    players_per_tournament=27,
    cash_tables=6,
    hours=8,
    cash_big_blinds=(2, 100, 100, 200, 2, 100),
    cash_table_formats=("ring", "ring", "rush_and_cash", "ring", "all_in_or_fold", "ring"),
    cash_fields_missing_share=0.35,
    hit_and_runners=14,
    short_stayers=8,
    refusal_exceptions=8,
    chip_dump_pairs=1,
    soft_play_pairs=0,
)
HOUSE_BLOCKS = (None, 5, 15, 30, 60)  # minutes, for the n-th refusal in 12 hours


@dataclass(frozen=True)
class Scanned:
    truth: list[dict[str, Any]]
    flags: list[dict[str, Any]]
    actions: list[dict[str, Any]]


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> Scanned:
    base = tmp_path_factory.mktemp("refusals")
    events, truth = base / "events.jsonl", base / "truth.jsonl"
    write_simulation(REFUSAL_DAY, events, truth)
    flags, actions = base / "flags.jsonl", base / "actions.jsonl"
    assert main(["scan", str(events), "--out", str(flags), "--actions", str(actions)]) == 0

    def read(path: Path) -> list[dict[str, Any]]:
        return [orjson.loads(line) for line in path.read_bytes().splitlines()]

    return Scanned(read(truth), read(flags), read(actions))


def _time(ts: str) -> datetime:
    return datetime.fromisoformat(ts.replace("Z", "+00:00"))


def test_every_truth_refusal_is_flagged_and_none_is_invented(scanned: Scanned) -> None:
    want = {
        (t["player_id"], t["ts"], t["table_id"])
        for t in scanned.truth
        if t.get("category") == "refusal_to_play"
    }
    got = {
        (f["player_ids"][0], f["ts"], f["table_id"])
        for f in scanned.flags
        if f["category"] == "refusal_to_play"
    }
    assert len(want) >= 20, "the day should hold enough refusals to mean something"
    assert got == want, f"missing {sorted(want - got)[:5]}; invented {sorted(got - want)[:5]}"
    # The flags name what the truth says of each: the hands and the level.
    truth_of = {(t["player_id"], t["ts"]): t for t in scanned.truth if "hands_played" in t}
    for f in scanned.flags:
        if f["category"] == "refusal_to_play":
            t = truth_of[(f["player_ids"][0], f["ts"])]
            measures = f["evidence"]["measures"]
            assert measures["hands_played"] == t["hands_played"]
            assert measures["blind_level"] == t["blind_level"]


def test_the_day_covers_every_clause(scanned: Scanned) -> None:
    """Hit-and-runners at one level and across levels, the exceptions, both spared formats,
    honest stays of 10+ hands and tournament tables, each present (and none flagged)."""
    excused = Counter(
        t["excuse"] for t in scanned.truth if t.get("hard_negative") == "refusal_excused"
    )
    assert {"alone", "others_sitting_out", "rush_and_cash", "all_in_or_fold"} <= set(excused)
    assert any(t.get("hard_negative") == "stayed_ten_hands" for t in scanned.truth)
    refusals = [t for t in scanned.truth if t.get("category") == "refusal_to_play"]
    levels_by_player: dict[str, set[str]] = {}
    for t in refusals:
        levels_by_player.setdefault(t["player_id"], set()).add(t["blind_level"])
    assert any(len(levels) > 1 for levels in levels_by_player.values()), "a roamer"
    assert Counter(t["player_id"] for t in refusals).most_common(1)[0][1] >= 3, "a repeat"
    flagged = {(f["player_ids"][0], f["ts"]) for f in scanned.flags}
    for t in scanned.truth:
        if t.get("hard_negative") in ("refusal_excused", "stayed_ten_hands"):
            assert (t["player_id"], t["ts"]) not in flagged, t


def test_the_blocks_are_the_house_ladder_computed_from_the_truth(scanned: Scanned) -> None:
    refusals = sorted(
        (t for t in scanned.truth if t.get("category") == "refusal_to_play"),
        key=lambda t: t["ts"],
    )
    expected: list[tuple[str, str, str, int]] = []
    seen: dict[tuple[str, str], list[datetime]] = {}
    for t in refusals:
        when = _time(t["ts"])
        earlier = seen.setdefault((t["player_id"], t["blind_level"]), [])
        count = 1 + sum(1 for e in earlier if when - e < timedelta(hours=12))
        earlier.append(when)
        block = HOUSE_BLOCKS[min(count, len(HOUSE_BLOCKS)) - 1]
        if block is not None:
            expected.append((t["player_id"], t["blind_level"], t["ts"], block * 60))
    got = [
        (a["player_id"], a["blind_level"], a["ts"], a["duration_s"])
        for a in scanned.actions
        if a["kind"] == "block_table_join"
    ]
    assert len(expected) >= 8 and {b for *_, b in expected} >= {300, 900}
    assert sorted(got) == sorted(expected)
    for a in scanned.actions:
        if a["kind"] == "block_table_join":
            assert _time(a["expires_at"]) - _time(a["ts"]) == timedelta(seconds=a["duration_s"])
            assert a["blind_level"] in a["reason"]
