"""Bounty teams: seated with their target, kept together, never busting each other, and acting
through their play often enough to be found, more often at the higher intensity."""

from __future__ import annotations

import pytest

from railbird.sim.config import SimConfig
from tests.sim.days import Records, events_and_truth

DAY = SimConfig(
    seed=5,
    tournaments=1,
    cash_tables=0,
    hours=1.5,
    players_per_tournament=180,
    bounty_share=1.0,
    bounty_teams_per_tournament=3,
    team_intensities=(0.85, 0.4),
)


@pytest.fixture(scope="module")
def day() -> tuple[Records, Records, Records]:
    events, truth = events_and_truth(DAY)
    teams = [t for t in truth if t.get("category") == "bounty_collusion" and "message_id" not in t]
    return events, truth, teams


def test_teams_act_in_dozens_of_hands_with_their_target(
    day: tuple[Records, Records, Records],
) -> None:
    events, _, teams = day
    assert len(teams) == 3
    assert [t["intensity"] for t in teams] == [0.85, 0.4, 0.85]
    dealt = {e["hand_id"]: {s["player_id"] for s in e["seats"]} for e in events if "seats" in e}
    for team in teams:
        members, targets = set(team["player_ids"]), set(team["targets"])
        assert team["acts"] == len(team["hand_ids"]) <= team["target_hands"]
        for hand_id in team["hand_ids"]:  # each act: >= 2 members and a target dealt in
            assert len(dealt[hand_id] & members) >= 2 and dealt[hand_id] & targets
        assert team["target"] in targets and not targets & members
        assert not team["optional"]
    high = [t for t in teams if t["intensity"] > 0.5]
    low = [t for t in teams if t["intensity"] < 0.5]
    assert all(t["acts"] >= 30 for t in high)  # 90 minutes; a 3-hour day doubles it
    assert min(t["acts"] / t["target_hands"] for t in high) > max(
        t["acts"] / t["target_hands"] for t in low
    )


def test_members_never_bust_each_other(day: tuple[Records, Records, Records]) -> None:
    events, _, teams = day
    team_of = {p: k for k, t in enumerate(teams) for p in t["player_ids"]}
    busts = [x for e in events if e["type"] == "hand" for x in e["eliminated"]]
    assert busts
    for bust in busts:
        k = team_of.get(bust["player_id"])
        assert k is None or not all(team_of.get(w) == k for w in bust["by"])


def test_members_sit_together_while_two_are_alive(day: tuple[Records, Records, Records]) -> None:
    events, _, teams = day
    table_of: dict[str, str] = {}
    busted: set[str] = set()
    moves = 0
    for event in events:
        if event["type"] == "table" and event["action"] == "join":
            moves += event["player_id"] in table_of
            table_of[event["player_id"]] = event["table_id"]
        elif event["type"] == "hand":
            busted.update(x["player_id"] for x in event["eliminated"])
            for team in teams:
                alive = [p for p in team["player_ids"] if p not in busted]
                seated = {p for p in alive if p in {s["player_id"] for s in event["seats"]}}
                if len(alive) >= 2 and seated:
                    assert {table_of[p] for p in alive} == {event["table_id"]}, team
    assert moves > 0  # balancing and broken tables did move players
