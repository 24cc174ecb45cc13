"""Cash-table collusion read against a model of honest play: a pair that bets and raises into
each other heads-up far beyond the model (and whose chips flow one way) is chip dumping; a pair
that never bets into each other where the model expects bets is soft play; honest tables and
tournament hands flag nothing."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from railbird.detectors.collusion.cash_collusion import CashCollusion
from railbird.detectors.events import AnyEvent, HandEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import hand
from tests.detectors.play_stub import write_stub_model

FOLD_P, CALL_P, RAISE_P = 0.45, 0.3, 0.25  # what the stub model expects of anyone, anywhere
PLAYERS = ["p-d", "p-r", "p-s", "p-u", "p-x", "p-y"]
DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


@pytest.fixture(scope="module")
def stub_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_stub_model(tmp_path_factory.mktemp("cash-stub"), (FOLD_P, CALL_P, RAISE_P))


def run(det: CashCollusion, events: Iterable[AnyEvent]) -> list[Finding]:
    state, found = TtlState(), []
    for event in events:
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


def act(
    street: str, pid: str, action: str, amount: int = 0, to: int | None = None
) -> dict[str, Any]:
    item: dict[str, Any] = {"street": street, "player_id": pid, "action": action, "amount": amount}
    if to is not None:
        item["to"] = to
    return item


def heads_up_hand(
    n: int, rng: random.Random, scheme: str | None, pair: tuple[str, str]
) -> HandEvent:
    """The others fold preflop; `pair` sees a flop alone. Honest: each flop decision is the
    stub's own draw (check or bet 25%, facing a bet fold 45%, call 30%, raise 25%). "dump":
    the first bets, the second raises, the first folds. "soft": both check."""
    a, b = pair
    others = [p for p in PLAYERS if p not in pair]
    acts = [act("preflop", others[0], "post_sb", 50), act("preflop", others[1], "post_bb", 100)]
    acts += [act("preflop", p, "fold") for p in others[2:]]
    acts += [act("preflop", a, "call", 100), act("preflop", b, "call", 100)]
    acts += [act("preflop", others[0], "fold"), act("preflop", others[1], "fold")]
    pot, put = 350, {a: 100, b: 100}
    winner = None
    if scheme == "dump":
        acts += [act("flop", a, "bet", 300, 300), act("flop", b, "raise", 1200, 1200)]
        acts.append(act("flop", a, "fold"))
        put[a] += 300
        put[b] += 1200
        winner = b
    elif scheme == "soft":
        acts += [act("flop", a, "check"), act("flop", b, "check")]
    else:
        first = "bet" if rng.random() < RAISE_P else "check"
        if first == "check":
            acts.append(act("flop", a, "check"))
            second = "bet" if rng.random() < RAISE_P else "check"
            acts.append(
                act(
                    "flop",
                    b,
                    second,
                    300 if second == "bet" else 0,
                    300 if second == "bet" else None,
                )
            )
            if second == "bet":
                put[b] += 300
                roll = rng.random()
                if roll < FOLD_P:
                    acts.append(act("flop", a, "fold"))
                    winner = b
                else:
                    acts.append(act("flop", a, "call", 300))
                    put[a] += 300
        else:
            acts.append(act("flop", a, "bet", 300, 300))
            put[a] += 300
            roll = rng.random()
            if roll < FOLD_P:
                acts.append(act("flop", b, "fold"))
                winner = a
            else:
                acts.append(act("flop", b, "call", 300))
                put[b] += 300
    deck = rng.sample(DECK, 2 * len(PLAYERS) + 3)
    seats = [
        {"seat": k + 1, "player_id": p, "stack": 20_000, "hole_cards": deck[2 * k : 2 * k + 2]}
        for k, p in enumerate(PLAYERS)
    ]
    total = pot + sum(put.values()) - 200
    winner = winner or rng.choice(pair)
    return hand(
        f"h-{n}",
        start=30.0 * n,
        end=30.0 * n + 20,
        seats=seats,
        actions=acts,
        board=deck[-3:],
        tournament=None,
        winners=[{"player_id": winner, "amount": total}],
    )


def table_day(scheme: str | None, hands: int = 240, seed: int = 4) -> list[HandEvent]:
    """Random pairs meet heads-up; every 3rd hand the colluding pair (p-d, p-r) meets and,
    with `scheme`, plays it."""
    rng = random.Random(seed)
    out = []
    for n in range(hands):
        if n % 3 == 0:
            pair = ("p-d", "p-r") if n % 2 else ("p-r", "p-d")
            out.append(heads_up_hand(n, rng, scheme, pair if scheme != "dump" else ("p-d", "p-r")))
        else:
            pair = tuple(rng.sample(PLAYERS, 2))
            out.append(heads_up_hand(n, rng, None, (pair[0], pair[1])))
    return out


def test_a_pair_betting_and_raising_off_chips_to_one_side_is_chip_dumping(stub_dir: str) -> None:
    found = run(CashCollusion(model_dir=stub_dir), table_day("dump"))
    assert [(f.category, f.player_ids) for f in found] == [("chip_dumping", ("p-d", "p-r"))]
    flag = found[0]
    assert flag.evidence.details["donor"] == "p-d" and flag.evidence.details["receiver"] == "p-r"
    assert float(flag.evidence.measures["aggression_toward_z"]) > 2  # type: ignore[arg-type]
    assert int(flag.evidence.measures["chips_transferred"]) > 0  # type: ignore[call-overload]
    assert flag.evidence.details["innocent_reading"] and flag.evidence.event_ids


def test_a_pair_that_never_bets_into_each_other_is_soft_play(stub_dir: str) -> None:
    found = run(CashCollusion(model_dir=stub_dir), table_day("soft", hands=360))
    assert [(f.category, f.player_ids) for f in found] == [("soft_play", ("p-d", "p-r"))]
    assert float(found[0].evidence.measures["aggression_toward_z"]) < -2  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [4, 5, 6])
def test_an_honest_table_flags_nothing(stub_dir: str, seed: int) -> None:
    assert run(CashCollusion(model_dir=stub_dir), table_day(None, seed=seed)) == []


def test_tournament_hands_are_not_read(stub_dir: str) -> None:
    hands = [h.model_copy(update={"tournament_id": "trn-1"}) for h in table_day("dump")]
    assert run(CashCollusion(model_dir=stub_dir), hands) == []


def test_a_pair_forgotten_while_away_starts_again(stub_dir: str) -> None:
    """Players idle past `idle` are pruned with their pairs; what the detector kept about those
    pairs (a half-run confirmation, a flag) goes too, so a pair that meets again is judged
    afresh and the table's memory stays bounded however long it runs."""
    det = CashCollusion(model_dir=stub_dir)
    rng = random.Random(3)
    state = TtlState()
    first = heads_up_hand(0, rng, None, ("p-d", "p-r"))
    state.advance(first.time)
    det.detect(first, state)
    table = state.get(("t-1", "cash_play"))
    assert table is not None
    table.above_since[("p-d", "p-r")] = 40
    table.flagged[("p-d", "p-r")] = "chip_dumping"
    others = heads_up_hand(0, rng, None, ("p-s", "p-u")).model_dump(mode="json")
    away = ("p-d", "p-r")
    later = HandEvent.model_validate(
        {
            **others,
            "hand_id": "h-later",
            "seats": [s for s in others["seats"] if s["player_id"] not in away],
            "actions": [a for a in others["actions"] if a["player_id"] not in away],
            "started_at": (first.started_at + det.idle * 2).isoformat(),
            "ended_at": (first.ended_at + det.idle * 2).isoformat(),
        }
    )
    state.advance(later.time)
    det.detect(later, state)
    table = state.get(("t-1", "cash_play"))
    assert ("p-d", "p-r") not in table.above_since and ("p-d", "p-r") not in table.flagged
    assert not any("p-d" in pair for pair in table.ledger.pairs)
