"""The flag categories railbird raises: the one list the contract, the API, the console, the
policy file and the rules all read.

Adding a category is one line here. What it then needs from a person, and only that, is what
the shipped policy does with it (`rules/default_policy.toml`: a ladder or a referral) and a
detector that raises it with a severity; `tests/test_lists_defined_once.py` adds one and shows
that those are the only two places that say so.
"""

from __future__ import annotations

from typing import Literal, get_args

Category = Literal[
    "profanity",
    "harassment",
    "hate",
    "spam",
    "advertising",
    "malicious_link",
    "pii_solicitation",
    "pii_disclosure",
    "impersonation",
    "in_hand_influence",
    "coordinated_sit_out",
    "bounty_collusion",
    "chip_dumping",
    "soft_play",
    "refusal_to_play",
]
CATEGORIES: tuple[Category, ...] = get_args(Category)
