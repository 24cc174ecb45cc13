"""The honest-decision model's inputs: hands read as the players saw them, cards read as made
hands and draws, styles counted, and the model loaded from plain arrays only."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import numpy as np
import pytest

from railbird.detectors.events import HandEvent
from railbird.detectors.play.decisions import (
    AGGRESSIVE,
    FEATURE_NAMES,
    FOLD,
    PASSIVE,
    _postflop_order,
    bounty_heads,
    read_hand,
)
from railbird.detectors.play.hand_reading import (
    BOARD_PAIR_ONLY,
    FLUSH,
    FULL_HOUSE,
    LOW_PAIR,
    MIDDLE_PAIR,
    NOTHING,
    OVERPAIR,
    SET,
    STRAIGHT,
    TOP_PAIR,
    TRIPS,
    TWO_PAIR,
    UNDERPAIR,
    hand_class,
    postflop,
    preflop,
)
from railbird.detectors.play.honest_model import PlayModelError, load_model, model_at
from railbird.detectors.play.pair_evidence import PlayLedger
from railbird.detectors.play.style import PRIOR_STYLE, STYLE_FEATURES, Style
from tests.builders import hand

F = {name: k for k, name in enumerate(FEATURE_NAMES)}


@pytest.mark.parametrize(
    ("hole", "board", "made"),
    [
        (("Ah", "Kd"), ("Kc", "7s", "2d"), TOP_PAIR),
        (("Qh", "Qd"), ("Jc", "7s", "2d"), OVERPAIR),
        (("5h", "5d"), ("Jc", "7s", "2d"), UNDERPAIR),
        (("Jh", "9d"), ("Ac", "9s", "2d"), MIDDLE_PAIR),
        (("2h", "9d"), ("Ac", "Ks", "2d"), LOW_PAIR),
        (("Ah", "9d"), ("Ac", "9s", "2d"), TWO_PAIR),
        (("5h", "5d"), ("5c", "Ks", "Jd"), SET),
        (("Kh", "5d"), ("5c", "5s", "Jd"), TRIPS),
        (("8h", "9d"), ("Tc", "Js", "Qd"), STRAIGHT),
        (("Ah", "2h"), ("Kh", "9h", "4h"), FLUSH),
        (("Kh", "Kd"), ("Kc", "9s", "9d"), FULL_HOUSE),
        (("Ah", "Qd"), ("7c", "7s", "2d"), BOARD_PAIR_ONLY),
        (("Ah", "Qd"), ("7c", "8s", "2d"), NOTHING),
        # the board's straight is everyone's: holding nothing that beats it is no straight
        (("2h", "3d"), ("Tc", "Js", "Qd", "Kh", "As"), NOTHING),
    ],
)
def test_made_hands_count_only_what_the_hole_cards_make(
    hole: tuple[str, str], board: tuple[str, ...], made: int
) -> None:
    assert postflop(hole, board).made == made


def test_draws_and_board_texture() -> None:
    read = postflop(("Ah", "5h"), ("Kh", "9h", "2c"))
    assert read.flush_draw and read.nut_flush_draw and read.overcards == 1  # the ace
    assert read.board_suited == 2 and not read.board_paired
    oesd = postflop(("8c", "9d"), ("Tc", "Js", "2d"))
    assert oesd.straight_draw == 2 and oesd.overcards == 0
    gut = postflop(("8c", "9d"), ("Qc", "Js", "2d"))
    assert gut.straight_draw == 1
    river = postflop(("Ah", "5h"), ("Kh", "9h", "2c", "3s", "7d"))
    assert not river.flush_draw and river.straight_draw == 0  # no draws on the river


def test_preflop_reads_the_class_equity_table() -> None:
    assert hand_class(("Kd", "As")) == "AKo" and hand_class(("7h", "7c")) == "77"
    aces, trash = preflop(("As", "Ad")), preflop(("7c", "2d"))
    assert aces.pair and aces.equity > 0.8 > 0.4 > trash.equity
    assert preflop(("Ks", "Qs")).suited and preflop(("Ks", "Qs")).gap == 0


def _seats(stacks: dict[str, int]) -> list[dict[str, object]]:
    cards = {"p-1": ["As", "Ad"], "p-2": ["7c", "2d"], "p-3": ["Kh", "Qh"], "p-4": ["9s", "9d"]}
    return [
        {"seat": k + 1, "player_id": p, "stack": s, "bounty": 500, "hole_cards": cards[p]}
        for k, (p, s) in enumerate(stacks.items())
    ]


def _hand() -> object:
    # Button seat 1 (p-1); p-2 small blind, p-3 big blind, p-4 first to act.
    return hand(
        "h-1",
        start=0,
        end=40,
        seats=_seats({"p-1": 10_000, "p-2": 10_000, "p-3": 10_000, "p-4": 1_200}),
        actions=[
            {"street": "preflop", "player_id": "p-2", "action": "post_sb", "amount": 50},
            {"street": "preflop", "player_id": "p-3", "action": "post_bb", "amount": 100},
            {"street": "preflop", "player_id": "p-4", "action": "raise", "amount": 300, "to": 300},
            {"street": "preflop", "player_id": "p-1", "action": "call", "amount": 300},
            {"street": "preflop", "player_id": "p-2", "action": "fold", "amount": 0},
            {"street": "preflop", "player_id": "p-3", "action": "call", "amount": 200},
            {"street": "flop", "player_id": "p-3", "action": "check", "amount": 0},
            {"street": "flop", "player_id": "p-4", "action": "bet", "amount": 600, "to": 600},
            {"street": "flop", "player_id": "p-1", "action": "raise", "amount": 1800, "to": 1800},
            {"street": "flop", "player_id": "p-3", "action": "fold", "amount": 0},
            {"street": "flop", "player_id": "p-4", "action": "all_in", "amount": 300, "to": 900},
        ],
        board=["Ac", "9h", "2s", "5d", "8c"],
    )


def test_a_hand_is_read_decision_by_decision_as_the_players_saw_it() -> None:
    reading = read_hand(_hand(), {})  # type: ignore[arg-type]
    ds = reading.decisions
    assert [(d.player_id, d.street, d.choice) for d in ds] == [
        ("p-4", 0, AGGRESSIVE),
        ("p-1", 0, PASSIVE),
        ("p-2", 0, FOLD),
        ("p-3", 0, PASSIVE),
        ("p-3", 1, PASSIVE),  # a check is passive, never a fold
        ("p-4", 1, AGGRESSIVE),
        ("p-1", 1, AGGRESSIVE),
        ("p-3", 1, FOLD),
        ("p-4", 1, PASSIVE),  # all in for less than the raise: a call
    ]
    call = ds[1]
    assert call.facing and call.aggressor == "p-4" and call.entered == frozenset({"p-4"})
    x = call.features
    assert x is not None and len(x) == len(FEATURE_NAMES)
    # p-1 calls 300 into a pot of 50 + 100 + 300: price 300 / 750.
    assert x[F["pot_odds"]] == pytest.approx(300 / 750)
    assert x[F["to_call_bb"]] == pytest.approx(math.log1p(3.0))
    assert x[F["position"]] == pytest.approx(1.0) and x[F["last_to_act"]] == 1.0
    assert x[F["preflop_equity"]] > 0.8 and x[F["pocket_pair"]] == 1.0
    flop_raise = ds[6].features
    assert flop_raise is not None and flop_raise[F[f"made_{SET}"]] == 1.0
    assert flop_raise[F["flop"]] == 1.0 and flop_raise[F["was_preflop_aggressor"]] == 0.0
    short_call = ds[8]
    assert short_call.features is not None and short_call.features[F["call_is_all_in"]] == 1.0
    # p-4 covers nobody and is covered by all: a short stack is a head for whoever covers it.
    assert ds[1].features is not None and ds[1].features[F["head_live"]] == 1.0


def test_styles_count_what_the_hand_showed() -> None:
    reading = read_hand(_hand(), {})  # type: ignore[arg-type]
    style = Style()
    for pid in ("p-1", "p-4"):
        reading.tallies[pid].add_to(style)
    assert (style.hands, style.vpip, style.pfr) == (2, 2, 1)
    assert style.post_aggressive == 2 and style.post_calls == 1 and style.faced_bets == 2
    assert style.faced_opens == 1 and style.three_bets == 0
    # With no history a player reads as the population.
    assert Style().features() == PRIOR_STYLE and len(PRIOR_STYLE) == len(STYLE_FEATURES)


def test_unknown_hole_cards_give_context_but_no_model_input() -> None:
    event = _hand()
    blind = hand(
        "h-2",
        start=0,
        end=40,
        seats=[
            {**s, "hole_cards": None}
            for s in _seats(dict.fromkeys(("p-1", "p-2", "p-3", "p-4"), 10_000))
        ],
        actions=[a.model_dump() for a in event.actions],  # type: ignore[attr-defined]
    )
    reading = read_hand(blind, {})
    assert len(reading.decisions) == 9 and all(d.features is None for d in reading.decisions)


def test_the_shipped_model_loads_and_predicts_probabilities() -> None:
    model = model_at()
    reading = read_hand(_hand(), {})  # type: ignore[arg-type]
    rows = np.asarray([d.features for d in reading.decisions], dtype=np.float64)
    p = model.probabilities(rows)
    assert p.shape == (9, 3) and np.allclose(p.sum(axis=1), 1.0)
    # aces facing a raise in position are not folded by an honest player
    assert p[1, FOLD] < 0.2


def test_a_model_for_other_features_is_refused(tmp_path: Path) -> None:
    shipped = Path(__file__).resolve().parents[2] / "detectors" / "play" / "models"
    (tmp_path / "honest_play.npz").write_bytes((shipped / "honest_play.npz").read_bytes())
    manifest = json.loads((shipped / "honest_play.json").read_text())
    manifest["features"] = manifest["features"][:-1]
    (tmp_path / "honest_play.json").write_text(json.dumps(manifest))
    with pytest.raises(PlayModelError, match="other features"):
        load_model(tmp_path / "honest_play.npz", tmp_path / "honest_play.json")
    (tmp_path / "broken.npz").write_bytes(b"not an archive")
    with pytest.raises(PlayModelError, match="cannot load"):
        load_model(tmp_path / "broken.npz", tmp_path / "honest_play.json")
    arrays = dict(np.load(shipped / "honest_play.npz", allow_pickle=False))
    for layers in (0, 99):
        np.savez(tmp_path / "layers.npz", **{**arrays, "layers": np.asarray(layers)})
        with pytest.raises(PlayModelError, match="layers"):
            load_model(tmp_path / "layers.npz", shipped / "honest_play.json")


def test_a_model_retrained_into_its_directory_is_the_new_one(tmp_path: Path) -> None:
    """`railbird train-play --out DIR` over a model in use: the next build or reload reads the
    new weights (as a restarted worker would), and the evidence names which ones."""
    shipped = Path(__file__).resolve().parents[2] / "detectors" / "play" / "models"
    (tmp_path / "honest_play.json").write_bytes((shipped / "honest_play.json").read_bytes())
    arrays = dict(np.load(shipped / "honest_play.npz", allow_pickle=False))
    np.savez(tmp_path / "honest_play.npz", **arrays)
    first = model_at(str(tmp_path))
    assert model_at(str(tmp_path)) is first  # loaded once while the files stay as they are
    arrays["b0"] = arrays["b0"] + 1.0
    np.savez(tmp_path / "honest_play.npz", **arrays)
    written = (tmp_path / "honest_play.npz").stat().st_mtime_ns + 1_000_000_000
    os.utime(tmp_path / "honest_play.npz", ns=(written, written))  # a coarse clock's rewrite
    second = model_at(str(tmp_path))
    assert second is not first and second.version != first.version
    assert second.version.startswith(str(first.manifest["version"]) + "+")


def test_a_history_showing_only_the_showdown_gives_no_model_input() -> None:
    """Public hand histories show the cards of those who reached a showdown: reading them would
    give the model only players who did not fold. Such a hand is context, never a sample."""
    event = _hand()
    heads_up = hand(
        "h-3",
        start=0,
        end=40,
        seats=_seats({"p-1": 10_000, "p-4": 1_200}),
        actions=[
            {"street": "preflop", "player_id": "p-1", "action": "post_sb", "amount": 50},
            {"street": "preflop", "player_id": "p-4", "action": "post_bb", "amount": 100},
            {"street": "preflop", "player_id": "p-1", "action": "call", "amount": 50},
            {"street": "preflop", "player_id": "p-4", "action": "check", "amount": 0},
        ],
        board=list(event.board),  # type: ignore[attr-defined]
    )
    shown = HandEvent.model_validate(
        {
            **heads_up.model_dump(mode="json"),
            "showdown": [
                {"player_id": "p-1", "cards": ["As", "Ad"]},
                {"player_id": "p-4", "cards": ["9s", "9d"]},
            ],
        }
    )
    assert all(d.features is not None for d in read_hand(heads_up, {}).decisions)
    assert all(d.features is None for d in read_hand(shown, {}).decisions)
    # The operator's own stream knows every hand dealt: a heads-up showdown is read in full.
    operator = read_hand(shown, {}, complete_history=True).decisions
    assert operator and all(d.features is not None for d in operator)

    # A stream is the operator's until it withholds someone's cards: then its hands where
    # every card was shown are the showdown's sample (the real PHH hands are such a stream).
    model = model_at()
    operator_ledger, public_ledger = PlayLedger(), PlayLedger()
    operator_ledger.read(shown, model)
    withheld = HandEvent.model_validate(
        {
            **heads_up.model_dump(mode="json"),
            "hand_id": "h-9",
            "seats": [
                {**seat, "hole_cards": None if seat["player_id"] == "p-4" else seat["hole_cards"]}
                for seat in heads_up.model_dump(mode="json")["seats"]
            ],
        }
    )
    public_ledger.read(withheld, model)
    public_ledger.read(shown, model)
    assert not operator_ledger.public and public_ledger.public
    assert any(operator_ledger.pairs[("p-1", "p-4")].spots)  # their decisions were read
    assert not any(public_ledger.pairs[("p-1", "p-4")].spots)


def test_a_hand_seating_one_player_twice_is_not_read() -> None:
    seats = _seats({"p-1": 10_000, "p-2": 10_000})
    seats.append({**seats[0], "seat": 3})
    twice = hand(
        "h-2",
        start=0,
        end=30,
        seats=seats,
        actions=[
            {"street": "preflop", "player_id": "p-1", "action": "post_sb", "amount": 50},
            {"street": "preflop", "player_id": "p-2", "action": "post_bb", "amount": 100},
            {"street": "preflop", "player_id": "p-1", "action": "call", "amount": 50},
        ],
    )
    reading = read_hand(twice, {}, complete_history=True)
    assert reading.decisions == [] and reading.tallies == {}


def test_an_unknown_action_is_neither_a_call_nor_a_raise() -> None:
    """A platform action the reader does not know (a straddle, a sit-out mid-hand) moves its
    chips but changes nobody's count of callers."""
    event = hand(
        "h-4",
        start=0,
        end=30,
        seats=_seats({"p-1": 10_000, "p-2": 10_000, "p-3": 10_000, "p-4": 10_000}),
        actions=[
            {"street": "preflop", "player_id": "p-2", "action": "post_sb", "amount": 50},
            {"street": "preflop", "player_id": "p-3", "action": "post_bb", "amount": 100},
            {"street": "preflop", "player_id": "p-4", "action": "raise", "amount": 300, "to": 300},
            {"street": "preflop", "player_id": "p-1", "action": "sit_out", "amount": 0},
            {"street": "preflop", "player_id": "p-2", "action": "fold", "amount": 0},
        ],
    )
    last = read_hand(event, {}, complete_history=True).decisions[-1]
    assert last.player_id == "p-2" and last.features is not None
    assert last.features[F["callers"]] == 0.0


def test_acting_order_follows_the_button_whatever_the_seat_numbers() -> None:
    seats = _seats({"p-1": 10_000, "p-2": 10_000, "p-3": 10_000, "p-4": 10_000})
    for seat, number in zip(seats, (1, 2, 3, 66), strict=True):
        seat["seat"] = number
    event = hand("h-5", start=0, end=30, seats=seats, button_seat=3)
    # left of the button first: seat 66, then 1, 2; the button (3) last
    assert _postflop_order(event) == ["p-4", "p-1", "p-2", "p-3"]


def test_bounty_heads_are_the_big_bounties_and_the_short_stacks() -> None:
    """A team plays for a head: a bounty well above the table's, or a stack about to bust. The
    target a flag names is weighted towards them (`pair_evidence.bounty_heads`)."""
    seats = [
        {"seat": 1, "player_id": "p-big", "stack": 20_000, "bounty": 3_000},
        {"seat": 2, "player_id": "p-short", "stack": 900, "bounty": 1_000},
        {"seat": 3, "player_id": "p-1", "stack": 20_000, "bounty": 1_000},
        {"seat": 4, "player_id": "p-2", "stack": 15_000, "bounty": 1_200},
    ]
    bounty_hand = hand("h-b", start=0, end=30, seats=seats)
    assert bounty_heads(bounty_hand) == {"p-big", "p-short"}
    cash = hand("h-c", start=0, end=30, seats=[{**s, "bounty": None} for s in seats])
    assert bounty_heads(cash) == frozenset()  # no bounties: nobody is hunted
