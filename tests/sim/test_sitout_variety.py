"""The simulator's sit-out variety: teams go away the way the day asks, crowds take the shapes
asked for, and each styled team's truth says how it went away."""

from __future__ import annotations

import itertools
from collections import defaultdict
from datetime import datetime
from typing import Any

import pytest

from railbird.sim.config import SimConfig
from railbird.sim.run import simulate


def _day(**options: Any) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    cfg = SimConfig(
        seed=4,
        hours=1.0,
        tournaments=1,
        cash_tables=0,
        players_per_tournament=150,
        bounty_share=0.0,
        team_intensity=0.9,
        sitout_teams_per_tournament=3,
        **options,
    )
    events: list[dict[str, Any]] = []
    truth: list[dict[str, Any]] = []
    for kind, record in simulate(cfg):
        (truth if kind == "truth" else events).append(record)
    return events, truth


def _ts(record: dict[str, Any]) -> float:
    return datetime.fromisoformat(record["ts"].replace("Z", "+00:00")).timestamp()


def test_teams_go_away_by_their_kind_within_their_lag() -> None:
    events, truth = _day(
        sitout_away=("disconnect", "timeout", "sit_out"),
        sitout_lags_s=(20.0, 8.0, 2.0),
        mass_drop_shapes=("rolling", "table"),
        mass_disconnects_per_tournament=2,
    )
    teams = [t for t in truth if t.get("category") == "coordinated_sit_out" and "acts" in t]
    assert [t["sitout_style"] for t in teams] == ["disconnect:20s", "timeout:8s", "sit_out:2s"]
    first_away: dict[str, str] = {}  # each team member's first way of going away
    onsets: dict[str, list[float]] = defaultdict(list)
    for e in events:
        if e["type"] == "table" and e["action"] in ("sit_out", "disconnect", "timeout"):
            first_away.setdefault(e["player_id"], e["action"])
            onsets[e["player_id"]].append(_ts(e))
    for team in teams:
        kind, lag = team["sitout_style"].split(":")
        assert team["acts"] >= 2
        # the team's absences: onsets of two of its members within the lag of each other
        close = max(
            sum(1 for x in onsets[a] if any(abs(x - y) <= float(lag[:-1]) for y in onsets[b]))
            for a, b in itertools.combinations(team["player_ids"], 2)
        )
        assert close >= 2, team
        assert any(first_away.get(p) == kind for p in team["player_ids"]), team
    crowds = {t["hard_negative"] for t in truth if "hard_negative" in t}
    assert crowds & {"mass_disconnect_rolling", "table_drop"}


@pytest.mark.parametrize("option", [{"sitout_away": ("away",)}, {"mass_drop_shapes": ("flood",)}])
def test_unknown_styles_are_refused(option: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="is not one of"):
        _day(**option, mass_disconnects_per_tournament=1)
