"""Chip dumping: a directed bet-then-fold contrast against the same players' play with others."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from railbird.detectors.collusion.chip_dumping import ChipDumping
from railbird.detectors.collusion.pair_ledger import heads_up_play, holding_strength
from railbird.detectors.events import HandEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import hand

PLAYERS = ("p-a", "p-b", "p-c", "p-d", "p-e", "p-f")
WEAK = ("7c", "2d")
STRONG = ("Qs", "Qh")


def duel(
    n: int, opener: str, other: str, kind: str, opener_cards: tuple[str, str] = WEAK
) -> HandEvent:
    """Everybody else folds; `opener` raises heads-up against `other`, then:
    `fold`: other folds; `flop`: other calls, opener bets the flop, other folds;
    `reraise_fold`: other re-raises and the opener folds; `check_down`: limp and check it down."""
    seats = [
        {"seat": k + 1, "player_id": p, "stack": 10_000, "hole_cards": list(WEAK)}
        for k, p in enumerate(PLAYERS)
    ]
    seats[PLAYERS.index(opener)]["hole_cards"] = list(opener_cards)
    acts: list[dict[str, Any]] = [
        {"t": n * 60 + 1, "street": "preflop", "player_id": p, "action": "fold", "amount": 0}
        for p in PLAYERS
        if p not in (opener, other)
    ]

    def act(street: str, pid: str, action: str, amount: int, to: int | None = None) -> None:
        acts.append(
            {"t": n * 60 + 2, "street": street, "player_id": pid, "action": action,
             "amount": amount, "to": to}
        )  # fmt: skip

    board: list[str] = []
    if kind == "check_down":
        act("preflop", opener, "call", 100)
        act("preflop", other, "call", 100)
        board = ["Kd", "8s", "3c", "4h", "9d"]
        for street in ("flop", "turn", "river"):
            act(street, opener, "check", 0)
            act(street, other, "check", 0)
    else:
        act("preflop", opener, "raise", 300, 300)
        if kind == "fold":
            act("preflop", other, "fold", 0)
        elif kind == "flop":
            act("preflop", other, "call", 300)
            board = ["Kd", "8s", "3c"]
            act("flop", opener, "bet", 400, 400)
            act("flop", other, "fold", 0)
        else:
            act("preflop", other, "raise", 1000, 1000)
            act("preflop", opener, "fold", 0)
    return hand(
        f"h-{n}", start=n * 60, end=n * 60 + 30, seats=seats, actions=acts, board=board,
        table_id="t-cash", tournament=None,
    )  # fmt: skip


def table_day(dumps: int, timid: bool = False) -> list[HandEvent]:
    """300 hands of ordinary heads-up duels over all ordered pairs, with `dumps` of them turned
    into p-a raising a strong hand into p-b and folding to p-b's re-raise. `timid`: p-a raise-
    folds to *everyone* that often, so the p-b hands are no exception."""
    rng = random.Random(7)
    pairs = [(a, b) for a, b in itertools.permutations(PLAYERS, 2)]
    hands = []
    dump_at = set(range(7, 7 + 29 * dumps, 29))
    for n in range(300):
        opener, other = rng.choice(pairs)
        # honest players mostly win or lose small, and give up to a re-raise now and then
        kind = rng.choice(("fold", "flop", "fold", "flop", "check_down", "reraise_fold"))
        if timid and opener == "p-a":
            kind = "reraise_fold"
        if n in dump_at:
            hands.append(duel(n, "p-a", "p-b", "reraise_fold", STRONG))
        else:
            hands.append(duel(n, opener, other, kind))
    return hands


def run(hands: list[HandEvent], detector: ChipDumping | None = None) -> list[Finding]:
    detector = detector or ChipDumping()
    state = TtlState()
    found = []
    for h in hands:
        state.advance(h.ended_at)
        found += detector.detect(h, state)
    return found


def test_strength_table_orders_hands_sensibly() -> None:
    assert holding_strength(("As", "Ah"), ()) == pytest.approx(0.98)
    assert (holding_strength(("7c", "2d"), ()) or 1.0) < 0.3
    assert holding_strength(("As", "Kd"), ("Ac", "7d", "2h")) == pytest.approx(0.72)
    assert holding_strength(("9s", "8d"), ("7c", "6d", "5h")) == pytest.approx(0.92)
    assert holding_strength(None, ()) is None


def test_heads_up_play_names_the_raise_fold_and_its_strength() -> None:
    plays = {p.actor: p for p in heads_up_play(duel(1, "p-a", "p-b", "reraise_fold", STRONG))}
    assert plays["p-a"].opponent == "p-b"
    assert plays["p-a"].folded_to_opponent and plays["p-a"].aggressive_before
    assert plays["p-a"].fold_strength is not None and plays["p-a"].fold_strength >= 0.7
    assert plays["p-a"].put_in == 300
    assert not plays["p-b"].folded_to_opponent


def test_dumper_folding_strong_hands_to_one_partner_is_flagged_with_evidence() -> None:
    found = run(table_day(dumps=8))
    assert len(found) == 1
    f = found[0]
    assert f.category == "chip_dumping" and f.player_ids == ("p-a", "p-b")
    assert f.evidence.details == {"dumper": "p-a", "receiver": "p-b"}
    m = f.evidence.measures
    assert isinstance(m["raise_folds"], int) and m["raise_folds"] >= 4
    assert isinstance(m["strong_folds"], int) and m["strong_folds"] >= 4
    assert m["chips_transferred"] == 300 * m["raise_folds"]
    assert isinstance(m["p_value_bonferroni"], float) and m["p_value_bonferroni"] < 1e-3
    assert "p-a bet or raised into p-b" in f.evidence.summary
    assert set(f.evidence.event_ids) >= {"h-7", "h-36"}
    assert f.dedupe_key == "t-cash:p-a>p-b"


@pytest.mark.parametrize(
    ("label", "hands"),
    [
        ("ordinary table", table_day(dumps=0)),
        ("two dumps only", table_day(dumps=2)),
        ("timid player gives up to everyone", table_day(dumps=0, timid=True)),
    ],
)
def test_near_misses_do_not_flag(label: str, hands: list[HandEvent]) -> None:
    assert run(hands) == [], label


def test_tournament_hands_and_unknown_cards_are_handled() -> None:
    seatless = duel(1, "p-a", "p-b", "reraise_fold")
    unknown = seatless.model_copy(
        update={"seats": tuple(s.model_copy(update={"hole_cards": None}) for s in seatless.seats)}
    )
    plays = {p.actor: p for p in heads_up_play(unknown)}
    assert plays["p-a"].fold_strength is None and plays["p-a"].strong_spots == 0
