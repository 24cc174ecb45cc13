"""Cash pairs' modes and intensities: each mode does what it says, intensities are drawn per
pair, deviating moves are counted, and a day with the options left alone is the day it was."""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from railbird.sim.cash_pairs import PairPolicy, PairScheme, pair_mode
from railbird.sim.config import SimConfig
from railbird.sim.players import new_player
from railbird.sim.positional_players import honest_policy
from railbird.sim.table_view import DecisionView, OpponentView
from railbird.sim.teams import Team
from tests.sim.days import Records, events_and_truth

DUMPING = SimConfig(
    seed=31, tournaments=0, cash_tables=4, hours=1.5, chip_dump_pairs=4, soft_play_pairs=0
)
SOFT = SimConfig(
    seed=32, tournaments=0, cash_tables=4, hours=1.5, chip_dump_pairs=0, soft_play_pairs=4
)

# A cash day with every new option at its default, and the digest of its events as the code
# wrote them before cash pairs had modes (sim/cash_pairs.py). A deliberate change to honest play
# or to the engine changes it: then regenerate it from that change's parent to check nothing
# else moved.
DEFAULT_DAY = SimConfig(
    seed=7, tournaments=0, cash_tables=3, hours=0.75, chip_dump_pairs=2, soft_play_pairs=2
)
DEFAULT_DAY_EVENTS_SHA256 = "6f7d225032858ecc4ce858214ded51b0bcaffde1b8adc5ed5f2013531ff5b663"


def digest(records: Records) -> str:
    return hashlib.sha256(json.dumps(records, default=str).encode()).hexdigest()


def pairs_of(truth: Records, category: str) -> Records:
    return [t for t in truth if t.get("category") == category]


def day(base: SimConfig, category: str, mode: str, intensity: float) -> tuple[Records, Records]:
    field = "cash_dump_modes" if category == "chip_dumping" else "cash_soft_modes"
    config = replace(base, cash_intensity_range=(intensity, intensity), **{field: (mode,)})
    return events_and_truth(config)


def hands_of(events: Records, players: set[str]) -> Iterator[dict[str, Any]]:
    for event in events:
        if event["type"] == "hand" and players <= {s["player_id"] for s in event["seats"]}:
            yield event


def aggressive_actions(hand: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Every action of `hand` that raised the street's price (bets, raises, all-ins for more),
    with the player who had last done so on that street before it."""
    street, totals, price, last = "", {}, 0, None
    for action in hand["actions"]:
        if action["street"] != street:
            street, totals, price, last = action["street"], {}, 0, None
        if action["action"] in ("post_ante", "fold", "check"):
            continue
        pid = action["player_id"]
        totals[pid] = totals.get(pid, 0) + action["amount"]
        if totals[pid] > price and not action["action"].startswith("post"):
            yield action, last
            last = pid
        price = max(price, totals[pid])


# -- byte-identical defaults -------------------------------------------------------------------


def test_a_day_with_the_new_options_left_alone_is_byte_identical() -> None:
    events, truth = events_and_truth(DEFAULT_DAY)
    assert digest(events) == DEFAULT_DAY_EVENTS_SHA256
    # Naming today's modes explicitly takes the same path.
    explicit = replace(DEFAULT_DAY, cash_dump_modes=("fold",), cash_soft_modes=("heads_up",))
    assert digest(events_and_truth(explicit)[0]) == DEFAULT_DAY_EVENTS_SHA256
    modes = {t["mode"] for t in truth if "mode" in t}
    assert modes == {"fold", "heads_up"}


@pytest.mark.parametrize(
    ("category", "modes"),
    [
        ("chip_dumping", ("fold", "showdown", "bluff", "mixed")),
        ("soft_play", ("heads_up", "multiway")),
    ],
)
def test_at_intensity_zero_every_mode_is_honest_play(category: str, modes: tuple[str, ...]) -> None:
    """A pair whose scheme never applies plays its honest policy: every mode gives the same
    day, with no act and no deviating move."""
    base = DUMPING if category == "chip_dumping" else SOFT
    days = [day(base, category, mode, 0.0) for mode in modes]
    assert len({digest(events) for events, _ in days}) == 1
    for _, truth in days:
        pairs = pairs_of(truth, category)
        assert len(pairs) == 4
        assert all(p["acts"] == 0 and p["moves"] == 0 and p["hand_ids"] == [] for p in pairs)


# -- each mode does what it says ---------------------------------------------------------------


def folds_to_receiver(events: Records, pair: dict[str, Any]) -> int:
    """Hands where the donor bet or raised and then folded to the receiver's raise."""
    donor, receiver = pair["donor"], pair["receiver"]
    count = 0
    for hand in hands_of(events, {donor, receiver}):
        aggressive = {id(a): last for a, last in aggressive_actions(hand)}
        fired = False
        for k, action in enumerate(hand["actions"]):
            if action["player_id"] != donor or action["action"] != "fold":
                continue
            before = [a for a in hand["actions"][:k] if a["street"] == action["street"]]
            raised = [a for a in before if id(a) in aggressive]
            fired |= (
                bool(raised)
                and raised[-1]["player_id"] == receiver
                and any(a["player_id"] == donor for a in raised)
            )
        count += fired
    return count


def showdowns_lost_to_receiver(events: Records, pair: dict[str, Any]) -> int:
    """Showdowns of the two alone that the receiver won outright."""
    donor, receiver = pair["donor"], pair["receiver"]
    count = 0
    for hand in hands_of(events, {donor, receiver}):
        shown = {s["player_id"] for s in hand["showdown"]}
        winners = {w["player_id"] for w in hand["winners"]}
        count += shown == {donor, receiver} and winners == {receiver}
    return count


def river_bets_called_by_receiver(events: Records, pair: dict[str, Any]) -> int:
    """Hands where the donor bet or raised on the river, the receiver called, and won."""
    donor, receiver = pair["donor"], pair["receiver"]
    count = 0
    for hand in hands_of(events, {donor, receiver}):
        river = [
            a
            for a, _ in aggressive_actions(hand)
            if a["street"] == "river" and a["player_id"] == donor
        ]
        winners = {w["player_id"] for w in hand["winners"]}
        shown = {s["player_id"] for s in hand["showdown"]}
        count += bool(river) and shown == {donor, receiver} and winners == {receiver}
    return count


@pytest.mark.parametrize(
    ("mode", "signature", "at_least"),
    [
        ("fold", folds_to_receiver, 10),
        ("showdown", showdowns_lost_to_receiver, 20),
        ("bluff", river_bets_called_by_receiver, 20),
    ],
)
def test_a_dumping_mode_passes_chips_its_own_way(
    mode: str, signature: Callable[[Records, dict[str, Any]], int], at_least: int
) -> None:
    """The mode's signature between donor and receiver, against the same pairs' honest selves
    (the same day at intensity 0, where the scheme never applies)."""
    honest_events, honest_truth = day(DUMPING, "chip_dumping", mode, 0.0)
    events, truth = day(DUMPING, "chip_dumping", mode, 0.9)
    pairs = pairs_of(truth, "chip_dumping")
    assert [p["mode"] for p in pairs] == [mode] * 4
    colluding = sum(signature(events, p) for p in pairs)
    honest = sum(signature(honest_events, p) for p in pairs_of(honest_truth, "chip_dumping"))
    assert colluding >= at_least
    assert colluding > 2 * honest
    assert all(p["acts"] >= 3 and p["moves"] >= p["acts"] / 2 for p in pairs)


def test_a_showdown_donor_loses_with_the_worse_hand_and_gives_up_the_better() -> None:
    """At showdown against the receiver the donor nearly always holds the worse hand: while
    ahead it gives up, while behind it calls down."""
    events, truth = day(DUMPING, "chip_dumping", "showdown", 0.9)
    donor_won = receiver_won = 0
    for pair in pairs_of(truth, "chip_dumping"):
        for hand in hands_of(events, {pair["donor"], pair["receiver"]}):
            if {s["player_id"] for s in hand["showdown"]} == {pair["donor"], pair["receiver"]}:
                winners = {w["player_id"] for w in hand["winners"]}
                donor_won += winners == {pair["donor"]}
                receiver_won += winners == {pair["receiver"]}
    assert receiver_won > 5 * max(1, donor_won)


def test_a_mixed_pair_plays_several_modes_one_per_hand() -> None:
    _, truth = day(DUMPING, "chip_dumping", "mixed", 0.9)
    for pair in pairs_of(truth, "chip_dumping"):
        assert pair["mode"] == "mixed"
        assert len(pair["mode_acts"]) >= 2
        assert set(pair["mode_acts"]) <= {"fold", "showdown", "bluff"}
        assert sum(pair["mode_acts"].values()) == pair["acts"] == len(pair["hand_ids"])


def soft_breaches(events: Records, pair: dict[str, Any], multiway: bool) -> tuple[int, int]:
    """(times a member bet or raised into the partner where the mode forbids it, times the
    mode's rule was put to the test)."""
    a, b = pair["player_ids"]
    breaches = tested = 0
    for hand in hands_of(events, {a, b}):
        aggressive = {id(x): last for x, last in aggressive_actions(hand)}
        out: set[str] = set()  # folded or all in
        live = {s["player_id"] for s in hand["seats"]}
        for action in hand["actions"]:
            pid = action["player_id"]
            if pid in (a, b) and not ({a, b} & out):
                partner = b if pid == a else a
                alone = live - out == {a, b}
                reraise = aggressive.get(id(action), "") == partner
                after_flop = action["street"] != "preflop"
                forbidden = alone or (multiway and (reraise or after_flop))
                if forbidden and action["action"] not in ("post_sb", "post_bb", "post_ante"):
                    tested += 1
                    breaches += id(action) in aggressive
            if action["action"] in ("fold", "all_in"):
                out.add(pid)
    return breaches, tested


@pytest.mark.parametrize("mode", ["heads_up", "multiway"])
def test_a_soft_pair_never_raises_the_partner_where_its_mode_forbids(mode: str) -> None:
    events, truth = day(SOFT, "soft_play", mode, 1.0)
    totals = [soft_breaches(events, p, mode == "multiway") for p in pairs_of(truth, "soft_play")]
    assert sum(t for _, t in totals) > 50  # the rule was tried often
    assert sum(b for b, _ in totals) == 0
    honest_events, honest_truth = day(SOFT, "soft_play", mode, 0.0)
    honest = [soft_breaches(honest_events, p, True) for p in pairs_of(honest_truth, "soft_play")]
    assert sum(b for b, _ in honest) > 0  # honest players do raise each other there


# -- intensities and moves ---------------------------------------------------------------------

RANGE_DAY = SimConfig(
    seed=33,
    tournaments=0,
    cash_tables=4,
    hours=1.0,
    chip_dump_pairs=4,
    soft_play_pairs=4,
    cash_dump_modes=("fold", "showdown"),
    cash_soft_modes=("multiway", "heads_up"),
    cash_intensity_range=(0.05, 0.9),
)


def test_each_pair_draws_its_own_intensity_and_its_mode_in_turn() -> None:
    _, truth = events_and_truth(RANGE_DAY)
    pairs = pairs_of(truth, "chip_dumping") + pairs_of(truth, "soft_play")
    intensities = [p["intensity"] for p in pairs]
    assert all(0.05 <= i <= 0.9 for i in intensities)
    assert len(set(intensities)) >= 6
    _, again = events_and_truth(RANGE_DAY)
    assert [p["intensity"] for p in pairs_of(again, "chip_dumping")] == intensities[:4]
    _, other = events_and_truth(replace(RANGE_DAY, seed=34))
    assert [p["intensity"] for p in pairs_of(other, "chip_dumping")] != intensities[:4]
    # Pair k of a category takes modes[k % len]: pair k sits at table k % tables.
    by_table = {p["table_id"]: p["mode"] for p in pairs_of(truth, "chip_dumping")}
    assert [by_table[t] for t in sorted(by_table)] == ["fold", "showdown", "fold", "showdown"]
    soft = {p["table_id"]: p["mode"] for p in pairs_of(truth, "soft_play")}
    assert [soft[t] for t in sorted(soft)] == ["multiway", "heads_up", "multiway", "heads_up"]
    for p in pairs:
        assert p["shared_hands"] >= p["acts"] > 0 or p["optional"]
        assert p["moves"] >= 0 and p["mode_acts"] == ({p["mode"]: p["acts"]} if p["acts"] else {})


def test_the_quieter_pair_of_a_mode_deviates_less() -> None:
    quiet = sum(
        p["moves"] for p in pairs_of(day(DUMPING, "chip_dumping", "fold", 0.15)[1], "chip_dumping")
    )
    loud = sum(
        p["moves"] for p in pairs_of(day(DUMPING, "chip_dumping", "fold", 0.9)[1], "chip_dumping")
    )
    assert 0 < quiet < loud / 2


def test_unknown_modes_and_ranges_are_refused_with_the_field_named() -> None:
    with pytest.raises(ValueError, match="cash_dump_modes: unknown mode 'fast'"):
        pair_mode(SimConfig(cash_dump_modes=("fold", "fast")), "chip_dumping", 0)
    with pytest.raises(ValueError, match="cash_soft_modes"):
        pair_mode(SimConfig(cash_soft_modes=("fold",)), "soft_play", 0)
    with pytest.raises(ValueError, match="cash_intensity_range"):
        events_and_truth(replace(DEFAULT_DAY, cash_intensity_range=(0.5, 1.5)))


def _limped_to_the_big_blind() -> DecisionView:
    """p-1 in the big blind with 7-2 offsuit; p-2, its partner, completed the small blind."""
    partner = OpponentView("p-2", 2, 9_800, 200, 200, False, False, None)
    return DecisionView(
        hand_id="h-1",
        table_id="t-1",
        tournament_id=None,
        player_id="p-1",
        seat=1,
        button_seat=2,
        hole_cards=("7c", "2d"),
        board=(),
        street="preflop",
        stack=9_800,
        to_call=0,
        min_raise_to=400,
        max_raise_to=10_000,
        pot=400,
        big_blind=200,
        opponents=(partner,),
        actions_this_street=(
            ("p-2", "post_sb", 100),
            ("p-1", "post_bb", 200),
            ("p-2", "call", 100),
        ),
        preflop_aggressor=None,
    )


@pytest.mark.parametrize(
    ("role", "intensity", "deviates"), [("dumper", 1.0, True), ("dumper", 0.0, False)]
)
def test_a_move_is_counted_when_the_scheme_changes_the_honest_decision(
    role: str, intensity: float, deviates: bool
) -> None:
    """Heads-up with the receiver, checked to with 7-2 offsuit: honest play checks, the fold
    mode's donor bets. The counterfactual leaves the generator where it was."""
    members = [new_player("p-1", random.Random(1)), new_player("p-2", random.Random(2))]
    members[0].style.misclick = 0.0
    team = Team("chip_dumping", members, intensity, None, random.Random(3))
    policy = PairPolicy(members[0], team, role, PairScheme("fold", random.Random(4)))
    rng, twin = random.Random(5), random.Random(5)
    view = _limped_to_the_big_blind()
    honest = honest_policy(members[0]).decide(view, twin)
    move = policy.decide(view, rng)
    assert honest[0] == "check"
    assert (move[0] == "raise") is deviates
    assert team.moves == int(deviates)
    if deviates:  # the scheme drew nothing from the day's generator
        assert rng.getstate() == random.Random(5).getstate()
    else:  # honest play drew exactly what honest play draws
        assert rng.getstate() == twin.getstate()
