"""Collusion: the categories whose flags name a suspected group rather than one player, and
for each the innocent reading an analyst rules out before referring the group.

Why the reading sits beside the category: most collusion suspicions are unfounded (the policy
never punishes these automatically), so every place that shows a group flag, the console's
pages and the flag's own evidence, shows the same honest alternative to the suspicion.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from railbird.detectors.categories import CATEGORIES

INNOCENT_READINGS: Mapping[str, str] = MappingProxyType(
    {
        "coordinated_sit_out": "friends who take their breaks together, or a shared connection "
        "dropping; look for sit-outs that line up with the blinds rather than with each other",
        "bounty_collusion": "two players whose styles the model reads poorly in the same spots "
        "(friends who learned together, two regulars with an unusual shared habit), or a "
        "target's pressure answered by both; look for deviations that happen only when both "
        "are in the pot with the target",
        "chip_dumping": "a timid player against an aggressive regular, or a short stack's shoves "
        "into a big one; look for bets and calls made while behind that only pay the partner",
        "soft_play": "pot control or slow-playing by cautious players; look for strong hands "
        "checked down against the partner and bet against everyone else",
    }
)
# Group flags: the suspected group goes in `player_ids` (the contract's "group flags").
COLLUSION_CATEGORIES: frozenset[str] = frozenset(INNOCENT_READINGS)

_UNKNOWN = COLLUSION_CATEGORIES - set(CATEGORIES)
if _UNKNOWN:  # a typo here would silently leave a collusion category without its reading
    raise ValueError(f"innocent readings for unknown categories: {sorted(_UNKNOWN)}")
