"""A player's running style: how loose, how aggressive, how sticky they have played so far.

Why it is an input of the honest-decision model rather than a model per player: a day's history
per player is a few dozen hands, too little to fit anyone's own model, but enough to say "this
one plays half their hands and raises most of them". One population model that sees the style as
features serves every player, including styles the training days never had. Rates are shrunk
toward the population's, so a player's first hands are read as an average player's.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Population priors and how many observations they weigh (pseudo-counts).
PRIOR_VPIP = 0.25
PRIOR_PFR = 0.14
PRIOR_AGGRESSION = 0.4  # share of postflop bets and raises among bets, raises and calls
PRIOR_FOLD_TO_BET = 0.45
PRIOR_THREE_BET = 0.06
PRIOR_HUNT = PRIOR_VPIP  # entries when a covered bounty head is in the hand
PRIOR_WEIGHT = 8.0


@dataclass(slots=True)
class Style:
    """Counts over the hands seen so far (one instance per player and stream key)."""

    hands: int = 0
    vpip: int = 0  # hands with a voluntary preflop call or raise
    pfr: int = 0  # hands with a preflop raise
    post_aggressive: int = 0  # postflop bets and raises
    post_calls: int = 0  # postflop calls
    faced_bets: int = 0  # postflop decisions facing a bet
    folds_to_bets: int = 0
    faced_opens: int = 0  # preflop decisions facing exactly one raise
    three_bets: int = 0
    hunt_chances: int = 0  # first preflop decisions with a covered head live
    hunt_entries: int = 0

    def features(self) -> list[float]:
        """Shrunk rates, in `STYLE_FEATURES` order."""
        k = PRIOR_WEIGHT
        post = self.post_aggressive + self.post_calls
        return [
            (self.vpip + k * PRIOR_VPIP) / (self.hands + k),
            (self.pfr + k * PRIOR_PFR) / (self.hands + k),
            (self.post_aggressive + k * PRIOR_AGGRESSION) / (post + k),
            (self.folds_to_bets + k * PRIOR_FOLD_TO_BET) / (self.faced_bets + k),
            (self.three_bets + k * PRIOR_THREE_BET) / (self.faced_opens + k),
            (self.hunt_entries + k * PRIOR_HUNT) / (self.hunt_chances + k),
            math.log1p(self.hands) / 6.0,
        ]


STYLE_FEATURES = (
    "vpip",
    "pfr",
    "aggression",
    "fold_to_bet",
    "three_bet",
    "hunt",
    "hands_seen",
)
PRIOR_STYLE = Style().features()


@dataclass(slots=True)
class HandTally:
    """What one hand adds to a player's style, filled while the hand is read."""

    vpip: bool = False
    pfr: bool = False
    post_aggressive: int = 0
    post_calls: int = 0
    faced_bets: int = 0
    folds_to_bets: int = 0
    faced_opens: int = 0
    three_bets: int = 0
    decided: bool = False  # the player's first preflop decision has been read
    hunt_chance: bool = False
    hunt_entry: bool = False

    def add_to(self, style: Style) -> None:
        style.hands += 1
        style.vpip += self.vpip
        style.pfr += self.pfr
        style.post_aggressive += self.post_aggressive
        style.post_calls += self.post_calls
        style.faced_bets += self.faced_bets
        style.folds_to_bets += self.folds_to_bets
        style.faced_opens += self.faced_opens
        style.three_bets += self.three_bets
        style.hunt_chances += self.hunt_chance
        style.hunt_entries += self.hunt_entry


def style_scope(tournament_id: str | None, table_id: str) -> str:
    """Where a player's style is tracked: their tournament, or the cash table they sit at.

    The same key in training and at run time, so the model sees the history it will be given:
    a cash table's detectors keep state per table (one Kafka partition), and a tournament's
    per tournament.
    """
    return tournament_id if tournament_id is not None else table_id
