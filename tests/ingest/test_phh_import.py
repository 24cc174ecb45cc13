"""The PHH importer on the real hands in /work/shared/data/phh (read at run time, not copied)."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from railbird.detectors.events import HandEvent, TableEvent, event_from_dict
from railbird.import_phh_command import run_import_phh
from railbird.ingest.phh.importer import import_records
from railbird.ingest.phh.replay import uncalled_bets

DATA = Path("/work/shared/data/phh")
FILES = sorted([*DATA.glob("*.phhs"), *DATA.glob("*.phh")])
pytestmark = pytest.mark.skipif(len(FILES) != 4, reason="PHH sample data not present")


@cache
def records() -> tuple[dict[str, Any], ...]:
    return tuple(import_records(FILES))


def by_id(hand_id: str) -> dict[str, Any]:
    return next(r for r in records() if r["hand_id"] == hand_id)


def test_every_hand_of_the_four_files_is_a_valid_contract_event() -> None:
    events = [event_from_dict(r) for r in records()]
    assert len(events) == 299 + 260 + 439 + 1
    assert all(isinstance(e, HandEvent) for e in events)
    assert len({e.event_id for e in events}) == len(events)
    times = [e.time for e in events]
    assert times == sorted(times)


def test_chips_are_conserved_and_match_pokerkit_final_stacks() -> None:
    for hand in records():
        check_conservation(hand)


def check_conservation(hand: dict[str, Any]) -> None:
    put_in: Counter[str] = Counter()
    for action in hand["actions"]:
        assert action["amount"] >= 0
        put_in[action["player_id"]] += action["amount"]
    won: Counter[str] = Counter()
    for winner in hand["winners"]:
        won[winner["player_id"]] += winner["amount"]
    refunds = uncalled_bets(hand["actions"])
    assert sum(put_in.values()) == sum(won.values()) + sum(refunds.values())
    for seat, final in zip(hand["seats"], hand["phh"]["final_stacks"], strict=True):
        player = seat["player_id"]
        assert seat["stack"] - put_in[player] + won[player] + refunds.get(player, 0) == final


def test_wsop_hand_replays_to_the_recorded_result() -> None:
    hand = by_id("h-wsop_2019_42_3_00-01-07-1")
    assert hand["winners"] == [{"player_id": "Dan Matsuzuki", "amount": 8_450_000, "pot": "main"}]
    assert hand["board"] == ["Th", "Jc", "5h", "6c", "8s"]
    assert hand["ante"] == 500_000 and hand["big_blind"] == 500_000
    assert hand["seats"][1]["hole_cards"] == ["Ac", "7c"]
    # The file's finishing_stacks: the big-blind ante is paid, not refunded.
    assert hand["phh"]["final_stacks"] == [
        18_100_000, 5_625_000, 6_675_000, 5_750_000, 9_150_000, 6_525_000, 12_950_000, 7_300_000
    ]  # fmt: skip
    raise_ = next(a for a in hand["actions"] if a["action"] == "raise")
    assert (raise_["player_id"], raise_["amount"], raise_["to"]) == (
        "Adam Lamphere",
        1_150_000,
        1_150_000,
    )


def test_pokerstars_hand_in_cents_with_eastern_time_and_derived_winner() -> None:
    hand = by_id("h-ps_NLH_handhq_334-OBFUSCATED-1")
    # 16:46:03 ET on 19 Jul 2009 is EDT (UTC-4).
    assert hand["started_at"] == "2009-07-19T20:46:03.000Z"
    assert (hand["small_blind"], hand["big_blind"]) == (300, 600)
    assert hand["seats"][4]["stack"] == 12_630  # $126.30
    # p8 raised to $18, p6 called; flop: p6 bets $24, p8 folds; the file's winnings say 42.75
    # for p6 (after rake); the replay gives the whole pot, 18+18+3+6 = $45.
    assert hand["winners"] == [
        {"player_id": "qDsdqzxHqGBjbZgn0pKcLg", "amount": 4500, "pot": "main"}
    ]
    assert all(s["hole_cards"] is None for s in hand["seats"])
    bet = next(a for a in hand["actions"] if a["street"] == "flop" and a["action"] == "bet")
    assert bet["amount"] == 2400


def test_mucked_cards_stay_unknown_and_shown_cards_are_kept() -> None:
    shown = [r for r in records() if r["showdown"]]
    assert shown
    for hand in shown:
        for entry in hand["showdown"]:
            seat = next(s for s in hand["seats"] if s["player_id"] == entry["player_id"])
            assert entry["cards"] == seat["hole_cards"]


def test_cli_writes_hands_and_optional_table_events(tmp_path: Path) -> None:
    out = tmp_path / "hands.jsonl"
    wsop = DATA / "wsop_2019_42_3_00-01-07.phh"
    args = argparse.Namespace(files=[wsop], out=out, with_table_events=True)
    assert run_import_phh(args) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line.get("action", line["type"]) for line in lines] == [
        "hand_start",
        "hand_end",
        "hand",
    ]
    start = event_from_dict(lines[0])
    assert isinstance(start, TableEvent) and start.players is not None and len(start.players) == 8
    missing = argparse.Namespace(files=[tmp_path / "nope.phh"], out=None, with_table_events=False)
    assert run_import_phh(missing) == 2


def test_cli_skips_files_that_are_not_phh_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# PHH sample\n\nSome prose: not = toml [\n")
    broken = tmp_path / "broken.phh"
    broken.write_text("this is not toml at all\n")
    wsop = DATA / "wsop_2019_42_3_00-01-07.phh"
    out = tmp_path / "hands.jsonl"
    args = argparse.Namespace(files=[readme, broken, wsop], out=out, with_table_events=False)
    assert run_import_phh(args) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["hand_id"] for r in lines] == ["h-wsop_2019_42_3_00-01-07-1"]
    err = capsys.readouterr().err
    assert f"skipping {readme}: not a PHH file" in err
    assert f"skipping {broken}: unreadable PHH" in err
    assert "1 hands" in err


def test_library_import_still_raises_on_a_bad_file(tmp_path: Path) -> None:
    broken = tmp_path / "broken.phh"
    broken.write_text("this is not toml at all\n")
    with pytest.raises(ValueError):
        list(import_records([broken]))
