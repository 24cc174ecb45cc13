"""What the chat check does with a message a detector flags, per channel: block, hold or pass.

Twitch AutoMod's levels are the model: the operator says per channel which kinds of talk are
refused outright, which wait, and which go through (the stream still flags them and the ladder
still acts). Here "wait" means `hold`: the chat server delivers the message when the hand in
play at the sender's table ends, so nothing is lost and nothing sways the hand. Read from the
policy file's `[chat_check]` table (`rules.policy_file`); what a file leaves out is the shipped
file's, which holds the lists (`rules/default_policy.toml`): they are written nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal, get_args

from railbird.detectors.categories import CATEGORIES
from railbird.detectors.events import CHANNELS
from railbird.detectors.severity import SEVERITIES, SEVERITY_RANK

CheckDecision = Literal["block", "hold", "pass"]
DECISIONS: tuple[CheckDecision, ...] = get_args(CheckDecision)
_KEYS = {"block_severity", "hold_block_severity", "spam_hold_seconds", "channels", *DECISIONS}
_MAX_SPAM_HOLD_SECONDS = 24 * 3600

PolicyErrorFactory = Callable[[str, str], Exception]


@dataclass(frozen=True, slots=True)
class ChannelRules:
    """One channel's lists: a category named in none of them follows the severity rule."""

    block: frozenset[str]
    hold: frozenset[str]
    passed: frozenset[str]

    def decision(self, category: str) -> CheckDecision | None:
        if category in self.passed:
            return "pass"
        if category in self.hold:
            return "hold"
        if category in self.block:
            return "block"
        return None

    def lists(self) -> dict[CheckDecision, frozenset[str]]:
        return {"block": self.block, "hold": self.hold, "pass": self.passed}


@dataclass(frozen=True, slots=True)
class ChatCheckPolicy:
    """The check's rules: per channel lists, and the severities that block on their own.

    `block_severity`: a finding of a category in no list blocks at this severity or worse.
    `hold_block_severity`: a finding of a held category blocks instead at this severity or
    worse (a railbird naming a live player's cards is not delayed: it is refused).
    `spam_hold`: how long the players a spam finding names are held back after it.
    """

    block_severity: str
    hold_block_severity: str
    spam_hold: timedelta
    channels: Mapping[str, ChannelRules]

    def decide(self, channel: str, category: str, severity: str, hand_in_play: bool) -> str:
        """`block`, `hold` or `pass` for one finding. A hold needs a hand in play to end;
        without one a held category follows the severity rule."""
        listed = self.channels[channel].decision(category)
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
            "spam_hold_seconds": self.spam_hold.total_seconds(),
            "channels": {
                name: {decision: sorted(named) for decision, named in rules.lists().items()}
                for name, rules in self.channels.items()
            },
        }


def read_chat_check(
    table: Any, shipped: Mapping[str, Any], error: PolicyErrorFactory
) -> ChatCheckPolicy:
    """The `[chat_check]` table of a policy file, what it leaves out taken from `shipped` (the
    shipped file's); `error(name, message)` makes the exception that names the line of `name`."""
    if not isinstance(table, dict) or set(table) - _KEYS:
        bad = sorted(set(table) - _KEYS) if isinstance(table, dict) else []
        raise error(
            f"chat_check.{bad[0]}" if bad else "chat_check",
            f"[chat_check] takes {', '.join(sorted(_KEYS))}",
        )
    severities = {}
    for key in ("block_severity", "hold_block_severity"):
        value = table.get(key, shipped[key])
        if value not in SEVERITY_RANK:
            raise error(
                f"chat_check.{key}", f"[chat_check] {key} must be one of {', '.join(SEVERITIES)}"
            )
        severities[key] = value
    seconds = table.get("spam_hold_seconds", shipped["spam_hold_seconds"])
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, int)
        or not 0 <= seconds <= _MAX_SPAM_HOLD_SECONDS
    ):
        raise error(
            "chat_check.spam_hold_seconds",
            f"[chat_check] spam_hold_seconds must be whole seconds, 0 to {_MAX_SPAM_HOLD_SECONDS}",
        )
    base = _lists(shipped, None, "chat_check", error)
    every = _lists(table, base, "chat_check", error)
    channels_data = table.get("channels", {})
    if not isinstance(channels_data, dict):
        raise error("chat_check.channels", "[chat_check] channels must be a table of channels")
    channels: dict[str, ChannelRules] = dict.fromkeys(CHANNELS, every)
    for channel, lists in channels_data.items():
        header = f"chat_check.channels.{channel}"
        if channel not in CHANNELS:
            raise error(header, f"unknown channel {channel!r} (one of {', '.join(CHANNELS)})")
        if not isinstance(lists, dict) or set(lists) - set(DECISIONS):
            raise error(header, f"[{header}] takes block, hold, pass")
        channels[channel] = _lists(lists, every, header, error)
    return ChatCheckPolicy(
        severities["block_severity"],
        severities["hold_block_severity"],
        timedelta(seconds=seconds),
        channels,
    )


def _lists(
    table: Mapping[str, Any],
    base: ChannelRules | None,
    header: str,
    error: PolicyErrorFactory,
) -> ChannelRules:
    """The block / hold / pass lists `table` gives; a list it leaves out is `base`'s, less
    the categories its other lists name."""
    given: dict[str, frozenset[str]] = {}
    for decision in DECISIONS:
        if decision not in table:
            continue
        value = table[decision]
        at = f"{header}.{decision}"  # the error names the list's own line
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise error(at, f"[{header}] {decision} must be a list of category names")
        unknown = sorted(set(value) - set(CATEGORIES))
        if unknown:
            raise error(at, f"[{header}] {decision}: unknown category {unknown[0]!r}")
        given[decision] = frozenset(value)
    for first, second in (("block", "hold"), ("block", "pass"), ("hold", "pass")):
        both = sorted(given.get(first, frozenset()) & given.get(second, frozenset()))
        if both:
            raise error(
                f"{header}.{second}", f"[{header}] {both[0]!r} is in both {first} and {second}"
            )
    named = frozenset().union(*given.values())
    fallback = base.lists() if base is not None else {}
    chosen = {
        decision: given.get(decision, fallback.get(decision, frozenset()) - named)
        for decision in DECISIONS
    }
    return ChannelRules(chosen["block"], chosen["hold"], chosen["pass"])
