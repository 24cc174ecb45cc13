from __future__ import annotations

import pytest

from railbird.detectors.chat import advertising
from railbird.detectors.chat.advertising import Advertising
from railbird.detectors.state import TtlState
from railbird.detectors.text.contact_lexicon import (
    CALL_TO_ACTION,
    COMMERCIAL,
    HANDLE,
    PRICE,
    ascii_words,
    asks_for_credentials,
    may_be_commercial,
    may_call_to_action,
    may_name_messenger,
    may_name_price,
    messenger_named,
)
from railbird.detectors.text.link_risks import link_risks
from railbird.detectors.text.links import extract_links, is_own_domain, may_hold_link
from tests.builders import chat
from tests.detectors.test_chat_gates import corpus


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


def _ref_pitch(
    text: str, site_domains: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[str, ...], bool, str | None] | None:
    """The reading before the one-probe shortcut: every gate on its own."""
    lowered = text.lower()
    links = extract_links(text) if may_hold_link(lowered) else ()
    words = ascii_words(lowered)
    if not (links or may_be_commercial(lowered, words) or may_name_messenger(lowered, words)):
        return None
    if asks_for_credentials(lowered):
        return None
    hosts = sorted(
        {
            link.host
            for link in links
            if not is_own_domain(link.host, site_domains) and not link_risks(link, site_domains)
        }
    )
    sales = COMMERCIAL.search(lowered) if may_be_commercial(lowered, words) else None
    messenger = messenger_named(lowered)
    handle = (
        HANDLE.search(lowered)
        if (messenger or sales) and ("@" in lowered or "#" in lowered)
        else None
    )
    action = (
        CALL_TO_ACTION.search(lowered)
        if (sales or messenger or hosts) and may_call_to_action(lowered, words)
        else None
    )
    price = PRICE.search(lowered) if sales and may_name_price(lowered) else None
    signals: list[str] = []
    if hosts:
        signals.append("link to " + ", ".join(hosts))
    if sales:
        signals.append(f'sales pitch "{sales.group(0)}"')
    if messenger:
        signals.append(f"messenger {messenger}" + (f" {handle.group(0)}" if handle else ""))
    if action:
        signals.append(f'call to action "{action.group(0)}"')
    if price:
        signals.append(f"price {price.group(0)}")
    offers = bool(sales) and len(signals) >= 2
    moves_off_site = bool(messenger) and bool(handle) and bool(action)
    if not (hosts or offers or moves_off_site):
        return None
    return tuple(hosts), tuple(signals), bool(sales), messenger


def test_pitch_equals_the_reading_without_the_shortcut() -> None:
    site = ("ultimatepoker.com",)
    texts = corpus()
    found = 0
    for text in texts:
        expected = _ref_pitch(text, site)
        assert advertising._read_pitch(text, site) == expected, text
        assert advertising._pitch(text, site) == expected, text
        found += expected is not None
    assert found > 100


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("msg me on telegram @dealz cheap chips", "msg me on telegrem @dealz cheap chip"),
        ("selling chips cheap, dm me", "selling chips cheap, do me"),
        ("visit chipdealz.biz now", "visit chipdealz biz now"),
    ],
)
def test_the_memo_never_serves_a_near_miss(first: str, second: str) -> None:
    detector = Advertising()
    assert flags(first, detector)
    assert flags(second, detector) == [] == flags(second, Advertising(("other.com",)))
    assert flags(first, detector)
