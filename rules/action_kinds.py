"""What railbird can do to a player, and what each restriction stops: the one list the rules,
the policy file, the API, the console, the chat check and the join check read.

A restriction is an action that limits something until it ends or is lifted; the other kinds
limit nothing by themselves (a warning is a system message, a referral opens a case for an
investigator, a lift records an early end).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Literal, get_args

from railbird.detectors.events import MESSAGE_KINDS, MessageKind

# The mildest chat restriction first: the console's restrict form offers them in this order.
RestrictionKind = Literal[
    "mute_chat",  # no chat (text, emoji) for a while
    "chat_ban",  # no chat (text, emoji) until lifted, or for long: the long form of a mute
    "snapcam_ban",  # no SnapCam; chat stays open
    "suspend_communication",  # no chat, emoji or SnapCam at all
    "block_table_join",  # no joining cash tables of one blind level (its `scope`)
]
ActionKind = Literal[
    "warn",  # a system message to the player; no restriction
    RestrictionKind,
    "refer_investigator",  # a case for a human investigator; no restriction by itself
    "lift",  # a restriction ended early (by an analyst)
]
ACTION_KINDS: tuple[ActionKind, ...] = get_args(ActionKind)
RESTRICTION_KINDS: tuple[RestrictionKind, ...] = get_args(RestrictionKind)
RESTRICTING_KINDS: frozenset[str] = frozenset(RESTRICTION_KINDS)

# What a player may be kept from: each kind of message, and joining a table. Every
# restriction kind stops something (`tests/rules/test_action_kinds.py`).
Activity = MessageKind | Literal["table_join"]
STOPS: Mapping[str, frozenset[Activity]] = MappingProxyType(
    {
        "mute_chat": frozenset({"text", "emoji"}),
        "chat_ban": frozenset({"text", "emoji"}),
        "snapcam_ban": frozenset({"snapcam"}),
        "suspend_communication": frozenset(MESSAGE_KINDS),
        "block_table_join": frozenset({"table_join"}),
    }
)
# Kinds with no length: nothing to end. The policy file refuses `minutes` on them.
UNTIMED_KINDS: frozenset[ActionKind] = frozenset({"warn", "refer_investigator"})
# What a ladder step may be: any kind but the join block (only the refusal ladder, per blind
# level, gives one) and a lift (only an analyst ends a restriction early).
LADDER_KINDS: tuple[ActionKind, ...] = tuple(
    k for k in ACTION_KINDS if k not in ("block_table_join", "lift")
)


def stops(kind: str, activity: str) -> bool:
    """Whether a restriction of `kind` keeps its player from `activity` (a message kind, or
    "table_join"); False for a kind that restricts nothing."""
    return activity in STOPS.get(kind, frozenset())
