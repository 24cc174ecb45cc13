"""Harassment: insults aimed at someone and threats; self-deprecation and poker banter pass."""

from __future__ import annotations

import pytest

from railbird.detectors.chat.harassment import Harassment
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import chat


def detect(text: str, channel: str = "table", recipient: str | None = None) -> list[Finding]:
    table = None if channel == "private" else "t-1"
    event = chat(text, channel=channel, recipient=recipient, table=table)
    return Harassment().detect(event, TtlState())


@pytest.mark.parametrize(
    ("text", "severity", "label"),
    [
        ("you idiot", "medium", "directed insult 'idiot'"),
        ("what an idiot", "medium", "directed insult 'idiot'"),
        ("you fucking idiot", "high", "directed insult 'idiot'"),
        ("ur a clown", "medium", "directed insult 'clown'"),
        ("you bitch", "high", "directed insult 'bitch'"),
        ("y0u m0r0n", "medium", "directed insult 'moron' (typed 'm0r0n')"),
        ("ur a l o s e r", "medium", "directed insult 'loser'"),
        ("@Bob you moron", "medium", "directed insult 'moron'"),
        ("idiot", "low", "insult 'idiot'"),
        ("fuck you", "high", "directed profanity 'fuck you'"),
        ("stfu nobody cares", "medium", "directed profanity 'stfu'"),
        ("shut the f u c k up", "medium", "directed profanity 'shut the f u c k up'"),
        ("kys", "high", "threat 'kys'"),
        ("k y s", "high", "threat 'kys'"),
        ("kill yourself", "high", "threat 'kill yourself'"),
        ("i hope you die", "high", "threat 'hope you die'"),
        ("i'll kill you", "high", "threat 'i ll kill you'"),
        ("i know where you live", "critical", "threat 'i know where you live'"),
        ("im gonna stab you", "critical", "threat 'im gonna stab you'"),
        ("uninstall you idiot", "medium", "put-down 'uninstall'"),
        ("you play like a child", "medium", "put-down"),
        ("go cry to your mommy", "medium", "put-down"),
    ],
)
def test_directed_abuse_and_threats_are_flagged(text: str, severity: str, label: str) -> None:
    (finding,) = detect(text)
    assert finding.category == "harassment"
    assert finding.severity == severity
    assert label in finding.evidence.summary
    assert finding.evidence.measures["severity"] == severity
    count = finding.evidence.measures["count"]
    assert isinstance(count, int) and count >= 1


def test_summary_names_the_target() -> None:
    (table,) = detect("you idiot")
    assert table.evidence.summary.endswith("aimed at the table")
    (private,) = detect("you idiot", channel="private", recipient="p-2")
    assert private.evidence.summary.endswith("aimed at a private recipient")


@pytest.mark.parametrize(
    "text",
    [
        "I'm such an idiot for calling",
        "im so stupid, misclicked",
        "what a dumb call by me",
        "stupid river",
        "this game is stupid sometimes",
        "I'll kill you next hand lol",
        "gonna destroy you this level",
        "i will beat you on the river next time",
        "you're drawing dead",
        "he's dead money",
        "kill pot",
        "you sucked out on me again",
        "you suck out every time lol",
        "shut up and deal lol",
        "kill me now, another bad beat",
        "what a donk call",
        "you're a fish magnet",
        "you're so lucky",
        "nice hand",
    ],
)
def test_near_misses_do_not_flag(text: str) -> None:
    assert detect(text) == []
