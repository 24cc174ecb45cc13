from __future__ import annotations

import pytest

from detectors.advertising import Advertising
from detectors.state import TtlState
from tests.builders import chat


def flags(text: str, detector: Advertising | None = None) -> list[str]:
    found = (detector or Advertising()).detect(chat(text), TtlState())
    return [f.evidence.summary for f in found]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "cheap rakeback 45% + chips, msg me on telegram @chipdealz www.chipdealz.biz",
            "link to chipdealz.biz",
        ),
        ("go to www dot chipdealz dot biz for deals", "link to chipdealz.biz"),
        ("chipdealz[.]com best prices", "link to chipdealz.com"),
        ("join my discord for free poker coaching discord.gg/pokerpro", "link to discord.gg"),
        ("use code POKER100 at luckyspins.io for bonus", "link to luckyspins.io"),
        ("play at betking365 for a 200% bonus, code KING", 'sales pitch "200% bonus"'),
        ("chip selling service, instant delivery, skype chipseller", "messenger skype"),
        ("staking deals available, hit me on telegram", "messenger telegram"),
        ("selling chips cheap, dm me", 'call to action "dm me"'),
    ],
)
def test_advertising_flags(text: str, expected: str) -> None:
    summaries = flags(text)
    assert len(summaries) == 1
    assert expected in summaries[0]


@pytest.mark.parametrize(
    "text",
    [
        "my rakeback this month is terrible",
        "free money lol",
        "it's 45% to hit the flush",
        "@bob nice hand",
        "check ultimatepoker.com/promo for the freeroll",
        "ok.so what now",
        "i.e. you should fold there",
        "ship it",
        "pm me your login details for the rakeback",
        "he had 2.5bb behind, 1.5k pot",
    ],
)
def test_poker_talk_and_own_site_pass(text: str) -> None:
    assert flags(text) == []


def test_site_domains_are_configurable() -> None:
    assert flags("see pokerstars.com", Advertising(site_domains=("pokerstars.com",))) == []
    assert flags("see pokerstars.com") == ["advertising in table chat: link to pokerstars.com"]


def test_severity_grows_with_signals() -> None:
    low = Advertising().detect(chat("see pokerstars.com"), TtlState())[0]
    high = Advertising().detect(chat("cheap chips, msg me on telegram @x1 x1.biz"), TtlState())[0]
    assert (low.severity, high.severity) == ("low", "high")
