"""The tactic matrix and the bounty day's hard negatives: teams with two tactics decided per
hand and intensities drawn from a range, progressive knockouts, honest hunters, friends who
chat all day, and planning chat in open wording from only some teams."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from railbird.detectors.collusion.planning_chat import is_bounty_plan
from railbird.detectors.events import event_from_dict
from railbird.sim import influence_lines
from railbird.sim.config import SimConfig
from tests.sim.days import Records, events_and_truth

DAY = SimConfig(
    seed=7,
    tournaments=1,
    cash_tables=0,
    hours=1.5,
    players_per_tournament=240,
    bounty_share=1.0,
    bounty_teams_per_tournament=4,
    bounty_tactics=("checkdown+softplay", "chip_pass", "ko_steer", "isolate+sandwich"),
    team_intensity_range=(0.3, 0.9),
    progressive_bounty=True,
    bounty_hunters_per_table=1.0,
    friend_pairs_per_tournament=3,
    open_planning_chat=True,
)


@pytest.fixture(scope="module")
def day() -> tuple[Records, Records]:
    return events_and_truth(DAY)


def _teams(truth: Records) -> Records:
    return [t for t in truth if t.get("category") == "bounty_collusion" and "message_id" not in t]


def test_teams_carry_their_tactics_and_drawn_intensities(day: tuple[Records, Records]) -> None:
    events, truth = day
    teams = _teams(truth)
    assert [t["tactic"] for t in teams] == list(DAY.bounty_tactics)
    intensities = [t["intensity"] for t in teams]
    assert all(0.3 <= i <= 0.9 for i in intensities)
    assert len(set(intensities)) > 1  # drawn per team, not one knob for all
    for event in events:
        event_from_dict(event)  # every new behaviour stays inside the contract


def test_soft_tactics_never_reraise_a_partner(day: tuple[Records, Records]) -> None:
    """Check-down, soft-play, chip-passing and knockout-steering teams come along behind a
    partner's raise; only a sandwich re-raises it."""
    events, truth = day
    quiet = {
        p: set(t["player_ids"])
        for t in _teams(truth)
        if "sandwich" not in t["tactic"]
        for p in t["player_ids"]
    }
    came_along = 0
    for hand in (e for e in events if e["type"] == "hand"):
        last_raiser = None
        for action in hand["actions"]:
            if action["street"] != "preflop":
                break
            pid = action["player_id"]
            partners = quiet.get(pid, set()) - {pid}
            if last_raiser in partners:
                assert action["action"] not in ("raise", "all_in"), hand["hand_id"]
                came_along += action["action"] == "call"
            if action["action"] in ("raise", "all_in"):
                last_raiser = pid
    assert came_along > 0


def test_progressive_knockouts_put_half_the_bounty_on_the_winner(
    day: tuple[Records, Records],
) -> None:
    events, _ = day
    bounty: dict[str, int] = {}
    grown = 0
    for hand in (e for e in events if e["type"] == "hand"):
        for seat in hand["seats"]:
            before = bounty.get(seat["player_id"], DAY.bounty)
            assert seat["bounty"] == before, (hand["hand_id"], seat["player_id"])
        for bust in hand["eliminated"]:
            share, odd = divmod(bust["bounty_awarded"], len(bust["by"]))
            for rank, pid in enumerate(bust["by"]):
                won = share + (rank < odd)
                bounty[pid] = bounty.get(pid, DAY.bounty) + won // 2
                grown += 1
    assert grown > 10
    assert max(bounty.values()) >= 2 * DAY.bounty


def test_hunters_and_friends_are_labelled_and_friends_talk_bounties_innocently(
    day: tuple[Records, Records],
) -> None:
    events, truth = day
    hard = Counter(t["hard_negative"] for t in truth if "hard_negative" in t)
    assert hard["bounty_hunters"] == 1 and hard["friends"] == DAY.friend_pairs_per_tournament
    hunters = next(t for t in truth if t.get("hard_negative") == "bounty_hunters")
    team_players = {p for t in _teams(truth) for p in t["player_ids"]}
    assert len(hunters["player_ids"]) >= 10 and not set(hunters["player_ids"]) & team_players
    by_id = {e["message_id"]: e for e in events if e["type"] == "chat"}
    bounty_talk = 0
    for pair in (t for t in truth if t.get("hard_negative") == "friends"):
        assert len(pair["message_ids"]) >= 5
        for mid in pair["message_ids"]:
            message = by_id[mid]
            assert message["channel"] == "private"
            assert {message["player_id"], message["recipient_id"]} == set(pair["player_ids"])
            assert not is_bounty_plan(message["text"]), message["text"]
            bounty_talk += "bount" in message["text"] or "head" in message["text"]
    assert bounty_talk > 0


def test_only_some_teams_plan_in_chat(day: tuple[Records, Records]) -> None:
    teams = _teams(day[1])
    assert sum(bool(t["message_ids"]) for t in teams) < len(teams)


def test_open_planning_wording_varies_and_never_uses_the_old_templates() -> None:
    rng = random.Random(3)
    lines = [influence_lines.open_plan_line(rng, "kev_77") for _ in range(300)]
    assert len(set(lines)) > 200
    assert all("kev_77" in line.lower() for line in lines)
    assert not any("usual plan" in line or "same plan" in line for line in lines)
