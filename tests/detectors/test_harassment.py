"""Harassment: insults aimed at someone and threats; self-deprecation and poker banter pass.

Game-chat words ("noob", "trash", "bot") are harassment only when aimed: the tables below pair
each aimed use with the poker-innocent near-misses that must not flag.
"""

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


@pytest.mark.parametrize(
    ("text", "severity", "label"),
    [
        ("you noob", "medium", "directed insult 'noob'"),
        ("ur such a noob", "medium", "directed insult 'noob'"),
        ("n00b", "medium", "directed insult 'noob' (typed 'n00b')"),
        ("nooooob", "medium", "directed insult 'noob' (typed 'nooooob')"),
        ("gg noob", "medium", "directed insult 'noob'"),
        ("noob team", "medium", "directed insult 'noob'"),
        ("@Bob noob", "medium", "directed insult 'noob'"),
        ("report this trash", "medium", "directed insult 'trash'"),
        ("report noob pudge", "medium", "directed insult 'noob'"),
        ("ur trash", "medium", "directed insult 'trash'"),
        ("my team is trash", "medium", "directed insult 'trash'"),
        ("trash players", "medium", "directed insult 'trash'"),
        ("you bot", "medium", "directed insult 'bot'"),
        ("you are such a monkey", "medium", "directed insult 'monkey'"),
        ("report this idiot", "medium", "directed insult 'idiot'"),
        ("uninstall the game", "medium", "put-down 'uninstall'"),
        ("learn to play", "medium", "put-down 'learn to play'"),
        ("u guys suck", "low", "put-down 'u guys suck'"),
        ("this team sucks", "low", "put-down 'team sucks'"),
        ("he's a noob at this game lol", "low", "insult 'noob'"),
        ("bob is a noob", "low", "insult 'noob'"),
    ],
)
def test_aimed_game_insults_are_harassment(text: str, severity: str, label: str) -> None:
    (finding,) = detect(text)
    assert finding.category == "harassment"
    assert finding.severity == severity
    assert label in finding.evidence.summary


@pytest.mark.parametrize(
    "text",
    [
        "I'm such a noob",
        "im still a noob at plo",
        "noob question: does the button post?",
        "sorry noob mistake",
        "noob here, first tourney",
        "any noobs here?",
        "this is a noob friendly table",
        "I played that like a total noob",
        "trash hand",
        "my hand is trash",
        "that river was trash",
        "your trash hand beat me",
        "stop the trash talk",
        "he is trash",  # said of a third person, a weak insult is banter, not harassment
        "bot at seat 3?",
        "are you a bot?",
        "report the bot to support",
        "report the hand history",
        "report him to support if he stalls",
        "nice hand Monkey",
        "gl monkey",
        "gg ez",
        "ez fold",
        "uninstall the old client and reinstall",
        "fuck off river",
        "he always sucks out",
        "this table sucks",
        "i need to learn to play plo",
    ],
)
def test_game_slang_near_misses_do_not_flag(text: str) -> None:
    assert detect(text) == []
