from __future__ import annotations

import pytest

from railbird.detectors.chat.malicious_link import MaliciousLink
from railbird.detectors.state import TtlState
from railbird.detectors.text.link_risks import lookalike_of
from railbird.detectors.text.links import extract_links
from tests.builders import chat

SITE = ("ultimatepoker.com",)


def risks(text: str) -> list[str]:
    found = MaliciousLink().detect(chat(text), TtlState())
    return [f.evidence.summary for f in found]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("free chips bit.ly/fr33chips", "URL shortener bit.ly"),
        ("http://45.33.12.8/login", "raw IP host 45.33.12.8"),
        ("xn--ultimatepker-9db.com/login", "punycode host"),
        ("ultimatep\u043e\u043aer.com/login", "non-Latin letters in host"),
        ("verify at ultimatep0ker.com", "imitates ultimatepoker.com"),
        ("ultimate-poker.net/bonus", "imitates ultimatepoker.com"),
        ("ultimatepoker-support.com/verify", "imitates ultimatepoker.com"),
        ("ultimatepoker.com.secure-login.ru", "imitates ultimatepoker.com"),
        ("get the hud at pokertools.biz/hud.exe", "download of a .exe file"),
        ("hxxp://evil[.]ru/a.zip", "download of a .zip file"),
        ("download pokerhud.exe now", "names executable file pokerhud.exe"),
    ],
)
def test_malicious_links(text: str, reason: str) -> None:
    summaries = risks(text)
    assert len(summaries) == 1
    assert reason in summaries[0]


@pytest.mark.parametrize(
    "text",
    [
        "ultimatepoker.com/promo",
        "www.ultimatepoker.com",
        "support.ultimatepoker.com/help",
        "pokerstars.com",
        "discord.gg/pokerpro",
        "blinds 1.5.2 lol",
        "stack 12.500.000",
        "i have 10.5 bb",
    ],
)
def test_harmless_links_pass(text: str) -> None:
    assert risks(text) == []


def test_two_risks_are_critical() -> None:
    found = MaliciousLink().detect(chat("http://45.33.12.8/setup.exe"), TtlState())
    assert found[0].severity == "critical"
    assert found[0].evidence.measures["urls"] == ["http://45.33.12.8/setup.exe"]


def test_lookalike_helper() -> None:
    assert lookalike_of("ultimatepoker.com", SITE) is None
    assert lookalike_of("u1timatepoker.com", SITE) == "ultimatepoker.com"
    assert lookalike_of("pokerstars.com", SITE) is None


def test_extract_marks_obfuscation() -> None:
    (link,) = extract_links("x dot com is great")
    assert (link.host, link.obfuscated) == ("x.com", True)
