"""The policy file's [chat_check]: per channel block / hold / pass, the shipped file's lists for
what a file leaves out, checked with the line at fault."""

from __future__ import annotations

from datetime import timedelta

import pytest

from railbird.detectors.events import CHANNELS
from railbird.rules.chat_check_policy import ChatCheckPolicy
from railbird.rules.policy_file import (
    PolicyError,
    default_policy,
    default_policy_text,
    parse_policy,
)


def _with(chat_check: str) -> str:
    """The shipped file with `chat_check` in place of its [chat_check] (and what follows)."""
    text = default_policy_text()
    return text[: text.index("[chat_check]")] + chat_check


SHIPPED_BLOCK = {
    "hate",
    "harassment",
    "malicious_link",
    "impersonation",
    "advertising",
    "pii_disclosure",
    "spam",
}


@pytest.mark.parametrize(
    "policy",
    [default_policy().chat_check, parse_policy(_with(""), "no-chat-check.toml").chat_check],
)
@pytest.mark.parametrize("channel", CHANNELS)
def test_the_shipped_policy_and_a_file_without_chat_check_do_what_the_check_always_did(
    policy: ChatCheckPolicy, channel: str
) -> None:
    for category in SHIPPED_BLOCK:
        assert policy.decide(channel, category, "low", hand_in_play=False) == "block"
    assert policy.decide(channel, "profanity", "medium", hand_in_play=False) == "pass"
    assert policy.decide(channel, "profanity", "high", hand_in_play=False) == "block"
    assert policy.decide(channel, "in_hand_influence", "high", hand_in_play=True) == "hold"
    assert policy.decide(channel, "in_hand_influence", "critical", hand_in_play=True) == "block"
    # with no hand in play a held category follows the severity rule
    assert policy.decide(channel, "in_hand_influence", "medium", hand_in_play=False) == "pass"


def test_a_file_without_chat_check_reads_as_the_shipped_one() -> None:
    policy = parse_policy(_with(""), "test")
    assert policy.chat_check == default_policy().chat_check
    assert policy.chat_check.spam_hold == timedelta(seconds=60)


def test_a_channel_list_left_out_keeps_its_default_less_what_the_channel_names() -> None:
    text = _with('[chat_check.channels.private]\npass = ["spam", "profanity"]\n')
    policy = parse_policy(text, "test").chat_check
    private = policy.channels["private"]
    assert private.passed == {"spam", "profanity"}
    assert private.block == SHIPPED_BLOCK - {"spam"}
    assert private.hold == {"in_hand_influence"}
    assert policy.decide("private", "profanity", "critical", hand_in_play=False) == "pass"
    assert policy.decide("table", "spam", "low", hand_in_play=False) == "block"
    described = parse_policy(text, "test").describe()["chat_check"]
    assert described["channels"]["private"]["pass"] == ["profanity", "spam"]


def test_every_channels_lists_and_the_spam_hold_are_the_operators() -> None:
    text = _with('[chat_check]\nblock = ["hate"]\npass = ["spam"]\nspam_hold_seconds = 5\n')
    policy = parse_policy(text, "test").chat_check
    for channel in CHANNELS:
        assert policy.decide(channel, "spam", "high", hand_in_play=False) == "pass"
        assert policy.decide(channel, "harassment", "low", hand_in_play=False) == "pass"
        assert policy.decide(channel, "hate", "low", hand_in_play=False) == "block"
        assert policy.decide(channel, "in_hand_influence", "low", hand_in_play=True) == "hold"
    assert policy.spam_hold == timedelta(seconds=5)


def test_hold_and_block_severities_are_the_operators() -> None:
    text = _with('[chat_check]\nblock_severity = "critical"\nhold_block_severity = "high"\n')
    policy = parse_policy(text, "test").chat_check
    assert policy.decide("table", "profanity", "high", hand_in_play=False) == "pass"
    assert policy.decide("table", "in_hand_influence", "high", hand_in_play=True) == "block"


@pytest.mark.parametrize(
    ("chat_check", "line", "message"),
    [
        ('[chat_check]\nblock_severity = "loud"\n', 2, "block_severity must be one of"),
        ("[chat_check]\nmystery = 1\n", 2, "[chat_check] takes"),
        ("[chat_check]\n\nspam_hold_seconds = -1\n", 3, "spam_hold_seconds must be"),
        (
            '[chat_check]\nblock = ["spam"]\nhold = ["spam"]\n',
            3,
            "'spam' is in both block and hold",
        ),
        ('[chat_check.channels.casino]\nblock = ["spam"]\n', 1, "unknown channel 'casino'"),
        ('\n[chat_check.channels.table]\nhold = ["spamm"]\n', 3, "unknown category 'spamm'"),
        ('[chat_check.channels.lobby]\nhold = "spam"\n', 2, "must be a list of category names"),
        (
            '\n\n[chat_check.channels.table]\nblock = ["spam"]\npass = ["spam"]\n',
            5,
            "'spam' is in both block and pass",
        ),
        ('[chat_check.channels.table]\nmute = ["spam"]\n', 1, "takes block, hold, pass"),
    ],
)
def test_a_bad_chat_check_is_refused_naming_its_line(
    chat_check: str, line: int, message: str
) -> None:
    text = _with(chat_check)
    offset = text[: text.index(chat_check)].count("\n")
    with pytest.raises(PolicyError) as refused:
        parse_policy(text, "policy.toml")
    assert message in str(refused.value)
    assert f"policy.toml line {offset + line}:" in str(refused.value)
