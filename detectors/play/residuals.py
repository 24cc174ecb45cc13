"""A finished hand's decisions scored against the honest-decision model, and the running
averages that centre each player's residuals on their own play.

Both play ledgers (tournaments: `pair_evidence`; cash tables: `heads_up_evidence`) start here:
read the hand with every player's style as it stood before it, ask the model for all of the
hand's decisions at once, and floor the probabilities at `FLOOR`, so that one move the model
thought impossible cannot outweigh a day of play.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field

import numpy as np

from railbird.detectors.events import HandEvent
from railbird.detectors.play.decisions import AGGRESSIVE, FOLD, Decision, HandReading, read_hand
from railbird.detectors.play.honest_model import HonestModel
from railbird.detectors.play.style import Style

FLOOR = 0.05  # model probabilities are read within [FLOOR, 1 - FLOOR]


@dataclass(slots=True)
class Residual:
    """One decision against the model: aggression (bet or raise, minus its predicted chance)
    and, facing a bet, continuation (did not fold, minus its predicted chance)."""

    decision: Decision
    aggression: float
    aggression_var: float
    continuation: float | None
    continuation_var: float
    expected: float  # the model's probability of what was done


def withholds_cards(hand: HandEvent) -> bool:
    """Whether a history withheld someone's hole cards: a public history, not the operator's.
    A stream that has done so once is read as public from then on (its hands where every card
    was shown are the showdown's sample, not the deal)."""
    return any(not s.hole_cards for s in hand.seats)


@dataclass(slots=True)
class ScoredHand:
    reading: HandReading
    residuals: list[Residual] = field(default_factory=list)


def score_hand(
    hand: HandEvent, styles: dict[str, Style], model: HonestModel, complete_history: bool
) -> ScoredHand:
    """The hand's decisions with known hole cards, scored; styles are read, not updated.
    `complete_history`: see `decisions.read_hand`."""
    seen = {s.player_id: styles[s.player_id].features() for s in hand.seats
            if s.player_id in styles}  # fmt: skip
    reading = read_hand(hand, seen, complete_history)
    known = [d for d in reading.decisions if d.features is not None]
    scored = ScoredHand(reading)
    if not known:
        return scored
    rows = np.asarray([d.features for d in known], dtype=np.float64)
    probabilities = np.clip(model.probabilities(rows), FLOOR, 1.0 - FLOOR).tolist()
    for d, p in zip(known, probabilities, strict=True):
        raised = p[2]
        continued = 1.0 - p[0]
        scored.residuals.append(
            Residual(
                decision=d,
                aggression=float(d.choice == AGGRESSIVE) - raised,
                aggression_var=raised * (1.0 - raised),
                continuation=(float(d.choice != FOLD) - continued) if d.facing else None,
                continuation_var=continued * (1.0 - continued) if d.facing else 0.0,
                expected=p[d.choice],
            )
        )
    return scored


def learn_styles(styles: dict[str, Style], reading: HandReading) -> None:
    """Add the hand to every player's running style (after its decisions were scored)."""
    for pid, tally in reading.tallies.items():
        tally.add_to(styles.setdefault(pid, Style()))


@dataclass(slots=True)
class RunningMeans:
    """Each player's average residual per kind of spot, so far."""

    sums: dict[tuple[str, str], list[float]] = field(default_factory=dict)

    def mean(self, player: str, cell: str) -> float:
        total = self.sums.get((player, cell))
        if total is None or total[1] == 0:
            return 0.0
        return total[0] / (total[1] + 2.0)  # shrunk toward zero for the first decisions

    def mean_without(self, player: str, cell: str, total: float, count: float) -> float:
        """The average without `count` of its decisions summing to `total`: a player's play
        against everyone but one opponent, when those decisions were against that opponent."""
        sums = self.sums.get((player, cell))
        if sums is None:
            return 0.0
        rest = sums[1] - count
        if rest <= 0:
            return 0.0
        return (sums[0] - total) / (rest + 2.0)

    def add(self, player: str, cell: str, value: float) -> None:
        total = self.sums.setdefault((player, cell), [0.0, 0.0])
        total[0] += value
        total[1] += 1

    def forget(self, players: AbstractSet[str]) -> None:
        for key in [k for k in self.sums if k[0] in players]:
            del self.sums[key]
