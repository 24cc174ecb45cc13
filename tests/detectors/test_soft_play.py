"""Soft play: strong hands checked down against one partner, contrasted with play vs others."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

from railbird.detectors.collusion.soft_play import SoftPlay
from railbird.detectors.events import HandEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import hand

PLAYERS = ("p-a", "p-b", "p-c", "p-d", "p-e", "p-f")
WEAK = ("7c", "2d")
STRONG = ("As", "Kh")  # top pair on the A-high board below
BOARD = ["Ad", "8s", "3c", "4h", "9d"]


def limped(n: int, first: str, second: str, kind: str, strong: str | None) -> HandEvent:
    """Everybody else folds, the two limp and see a flop. `check`: checked down; `bet`: the
    strong player bets every street and the other calls."""
    seats = [
        {"seat": k + 1, "player_id": p, "stack": 10_000, "hole_cards": list(WEAK)}
        for k, p in enumerate(PLAYERS)
    ]
    if strong is not None:
        seats[PLAYERS.index(strong)]["hole_cards"] = list(STRONG)
    acts: list[dict[str, Any]] = [
        {"t": n * 60 + 1, "street": "preflop", "player_id": p, "action": "fold", "amount": 0}
        for p in PLAYERS
        if p not in (first, second)
    ]

    def act(street: str, pid: str, action: str, amount: int, to: int | None = None) -> None:
        acts.append(
            {"t": n * 60 + 2, "street": street, "player_id": pid, "action": action,
             "amount": amount, "to": to}
        )  # fmt: skip

    act("preflop", first, "call", 100)
    act("preflop", second, "check", 0)
    for street in ("flop", "turn", "river"):
        if kind == "bet" and strong is not None:
            caller = second if strong == first else first
            if strong == second:
                act(street, first, "check", 0)
            act(street, strong, "bet", 200, 200)
            act(street, caller, "call", 200)
        else:
            act(street, first, "check", 0)
            act(street, second, "check", 0)
    return hand(
        f"h-{n}", start=n * 60, end=n * 60 + 30, seats=seats, actions=acts, board=BOARD,
        table_id="t-cash", tournament=None,
    )  # fmt: skip


def table_day(soft: int, passive_everywhere: bool = False) -> list[HandEvent]:
    """300 limped heads-up pots; with a strong hand honest players bet 80% of the time. `soft`
    pots between p-a and p-b have a strong hand checked down. `passive_everywhere`: p-a checks
    strong hands against everybody (a calling station, not a colluder)."""
    rng = random.Random(3)
    pairs = list(itertools.permutations(PLAYERS, 2))
    soft_at = set(range(5, 5 + 23 * soft, 23))
    hands = []
    for n in range(300):
        first, second = rng.choice(pairs)
        if n in soft_at:
            hands.append(limped(n, "p-a", "p-b", "check", rng.choice(("p-a", "p-b"))))
            continue
        strong = rng.choice((first, second, None))
        kind = "bet" if rng.random() < 0.8 else "check"
        if passive_everywhere and strong == "p-a":
            kind = "check"
        hands.append(limped(n, first, second, kind, strong))
    return hands


def run(hands: list[HandEvent]) -> list[Finding]:
    detector = SoftPlay()
    state = TtlState()
    found = []
    for h in hands:
        state.advance(h.ended_at)
        found += detector.detect(h, state)
    return found


def test_pair_checking_down_strong_hands_is_flagged_with_evidence() -> None:
    found = run(table_day(soft=10))
    assert len(found) == 1
    f = found[0]
    assert f.category == "soft_play" and f.player_ids == ("p-a", "p-b")
    m = f.evidence.measures
    assert isinstance(m["strong_passive"], int) and m["strong_passive"] >= 5
    assert isinstance(m["expected_strong_passive"], float)
    assert m["expected_strong_passive"] < m["strong_passive"] / 2
    assert isinstance(m["p_value_bonferroni"], float) and m["p_value_bonferroni"] < 1e-3
    assert "p-a and p-b spare each other heads-up" in f.evidence.summary
    assert "h-5" in f.evidence.event_ids
    assert f.dedupe_key == "t-cash:p-a,p-b"


def test_flag_is_raised_once_per_pair() -> None:
    assert len(run(table_day(soft=12))) == 1


@pytest.mark.parametrize(
    ("label", "hands"),
    [
        ("ordinary table", table_day(soft=0)),
        ("three soft pots only", table_day(soft=3)),
        ("passive player checks strong hands against everyone", table_day(0, True)),
    ],
)
def test_near_misses_do_not_flag(label: str, hands: list[HandEvent]) -> None:
    assert run(hands) == [], label


def test_chat_and_tournament_free_events_are_ignored() -> None:
    from tests.builders import chat

    assert SoftPlay().detect(chat("nh"), TtlState()) == []
