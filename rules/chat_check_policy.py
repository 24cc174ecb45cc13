"""What the chat check does with a message a detector flags, per channel: block, hold or pass.

Twitch AutoMod's levels are the model: the operator says per channel which kinds of talk are
refused outright, which wait, and which go through (the stream still flags them and the ladder
still acts). Here "wait" means `hold`: the chat server delivers the message when the hand in
play at the sender's table ends, so nothing is lost and nothing sways the hand. Read from the
policy file's `[chat_check]` table (`rules.policy_file`); without one, the check does what it
always did: block the categories in `DEFAULT_BLOCK` and anything `high` or worse, and hold talk
that can influence a hand in play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import CATEGORIES, SEVERITY_RANK

CheckDecision = Literal["block", "hold", "pass"]
DECISIONS: tuple[str, ...] = get_args(CheckDecision)
CHANNELS: tuple[str, ...] = get_args(ChatEvent.model_fields["channel"].annotation)
# Categories the check refuses whatever their severity, in every channel, unless a policy says
# otherwise; spam is among them (a flood, a repeated line, a bot wave).
DEFAULT_BLOCK = frozenset(
    {
        "hate",
        "harassment",
        "malicious_link",
        "impersonation",
        "advertising",
        "pii_disclosure",
        "spam",
    }
)
DEFAULT_HOLD = frozenset({"in_hand_influence"})
_KEYS = {"block_severity", "hold_block_severity", "channels"}
_CHANNEL_KEYS = set(DECISIONS)

PolicyErrorFactory = Callable[[str, str], Exception]


@dataclass(frozen=True, slots=True)
class ChannelRules:
    """One channel's lists: a category named in none of them follows the severity rule."""

    block: frozenset[str] = DEFAULT_BLOCK
    hold: frozenset[str] = DEFAULT_HOLD
    passed: frozenset[str] = frozenset()

    def decision(self, category: str) -> CheckDecision | None:
        if category in self.passed:
            return "pass"
        if category in self.hold:
            return "hold"
        if category in self.block:
            return "block"
        return None


@dataclass(frozen=True, slots=True)
class ChatCheckPolicy:
    """The check's rules: per channel lists, and the severities that block on their own.

    `block_severity`: a finding of a category in no list blocks at this severity or worse.
    `hold_block_severity`: a finding of a held category blocks instead at this severity or
    worse (a railbird naming a live player's cards is not delayed: it is refused).
    """

    block_severity: str = "high"
    hold_block_severity: str = "critical"
    channels: Mapping[str, ChannelRules] = field(
        default_factory=lambda: {channel: ChannelRules() for channel in CHANNELS}
    )

    def decide(self, channel: str, category: str, severity: str, hand_in_play: bool) -> str:
        """`block`, `hold` or `pass` for one finding. A hold needs a hand in play to end;
        without one a held category follows the severity rule."""
        rules = self.channels.get(channel) or ChannelRules()
        listed = rules.decision(category)
        rank = SEVERITY_RANK[severity]
        if listed == "hold" and hand_in_play:
            return "block" if rank >= SEVERITY_RANK[self.hold_block_severity] else "hold"
        if listed in ("pass", "block"):
            return listed
        return "block" if rank >= SEVERITY_RANK[self.block_severity] else "pass"

    def describe(self) -> dict[str, Any]:
        return {
            "block_severity": self.block_severity,
            "hold_block_severity": self.hold_block_severity,
            "channels": {
                name: {
                    "block": sorted(rules.block),
                    "hold": sorted(rules.hold),
                    "pass": sorted(rules.passed),
                }
                for name, rules in self.channels.items()
            },
        }


def read_chat_check(table: Any, error: PolicyErrorFactory) -> ChatCheckPolicy:
    """The `[chat_check]` table of a policy file; `error(name, message)` makes the exception
    that names the line of `name`. A channel left out keeps the default lists."""
    if not isinstance(table, dict) or set(table) - _KEYS:
        raise error("chat_check", f"[chat_check] takes {', '.join(sorted(_KEYS))}")
    severities = {}
    for key, default in (("block_severity", "high"), ("hold_block_severity", "critical")):
        value = table.get(key, default)
        if value not in SEVERITY_RANK:
            raise error(key, f"[chat_check] {key} must be one of {', '.join(SEVERITY_RANK)}")
        severities[key] = value
    channels_data = table.get("channels", {})
    if not isinstance(channels_data, dict):
        raise error("chat_check", "[chat_check] channels must be a table of channels")
    channels = {channel: ChannelRules() for channel in CHANNELS}
    for channel, lists in channels_data.items():
        header = f"chat_check.channels.{channel}"
        if channel not in CHANNELS:
            raise error(header, f"unknown channel {channel!r} (one of {', '.join(CHANNELS)})")
        if not isinstance(lists, dict) or set(lists) - _CHANNEL_KEYS:
            raise error(header, f"[{header}] takes block, hold, pass")
        given: dict[str, frozenset[str]] = {}
        for decision in DECISIONS:
            if decision not in lists:
                continue
            value = lists[decision]
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise error(header, f"[{header}] {decision} must be a list of category names")
            unknown = sorted(set(value) - set(CATEGORIES))
            if unknown:
                raise error(header, f"[{header}] {decision}: unknown category {unknown[0]!r}")
            given[decision] = frozenset(value)
        for first, second in (("block", "hold"), ("block", "pass"), ("hold", "pass")):
            both = sorted(given.get(first, frozenset()) & given.get(second, frozenset()))
            if both:
                raise error(header, f"[{header}] {both[0]!r} is in both {first} and {second}")
        # A list left out keeps its default, less what the channel's other lists name.
        named = set().union(*given.values()) if given else set()
        defaults = ChannelRules()
        block = given.get("block", defaults.block - named)
        hold = given.get("hold", defaults.hold - named)
        passed = given.get("pass", defaults.passed - named)
        channels[channel] = ChannelRules(block, hold, passed)
    return ChatCheckPolicy(
        severities["block_severity"], severities["hold_block_severity"], channels
    )
