from __future__ import annotations

import pytest

from railbird.detectors.chat import advertising
from railbird.detectors.chat.advertising import Advertising, Pitch
from railbird.detectors.state import TtlState
from railbird.detectors.text.contact_lexicon import (
    CALL_TO_ACTION,
    COMMERCIAL,
    CONTACT_REQUEST,
    CREDENTIALS,
    HANDLE,
    PRICE,
)
from railbird.detectors.text.link_risks import link_risks
from railbird.detectors.text.links import extract_links, is_own_domain, may_hold_link
from railbird.detectors.text.prize_lexicon import read_scam_signals
from railbird.detectors.text.promotion_lexicon import read_promotion
from tests.builders import chat
from tests.detectors.test_chat_gates import corpus, ref_messenger_named


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


@pytest.mark.parametrize(
    ("text", "expected", "severity"),
    [
        # self-promotion: a call to the audience tied to what it promotes
        (
            "subscribe to my channel for daily hand reviews",
            'self-promotion "subscribe to my channel"',
            "medium",
        ),
        ("sub my channel pls", 'self-promotion "sub my channel"', "medium"),
        ("subscribe to me and i subscribe back", 'self-promotion "subscribe to me"', "medium"),
        ("please subscribe", 'self-promotion "please subscribe"', "medium"),
        ("check out my new song", 'self-promotion "check out my new song"', "medium"),
        ("check my channel please", 'self-promotion "check my channel"', "medium"),
        ("watch my stream tonight", 'self-promotion "watch my stream"', "medium"),
        ("visit my blog", 'self-promotion "visit my blog"', "medium"),
        (
            "Check out this video on YouTube:",
            'self-promotion "check out this video on youtube"',
            "medium",
        ),
        ("new mixtape is out, check it out", 'self-promotion "check it out ... mixtape"', "medium"),
        ("follow me on twitter", 'self-promotion "follow me on twitter"', "medium"),
        ("follow me on instagram", 'self-promotion "follow me on instagram"', "medium"),
        ("follow us @pokerclips", 'self-promotion "follow us @pok"', "medium"),
        ("sub 4 sub anyone?", 'self-promotion "sub 4 sub"', "medium"),
        ("help me get 100 subscribers", 'self-promotion "help me get 100 subscribers"', "medium"),
        ("watch?v=abc123xyz", 'self-promotion "watch?v=abc123"', "medium"),
        # like-bait
        (
            "like this comment if you hate the river",
            'self-promotion "like this comment"',
            "medium",
        ),
        ("😼 Like This Comment", 'self-promotion "like this comment"', "medium"),
        ("thumbs up so everyone sees this", 'self-promotion "thumbs up so everyone"', "medium"),
        ("give it a like", 'self-promotion "give it a like"', "medium"),
        ("like & share", 'self-promotion "like & share"', "medium"),
        # prize and premium-rate scams: two kinds of evidence, one of them a marker
        ("text WIN to 80082", 'short code "text win to 80082"', "medium"),
        ("call 09061701461 to claim your prize", 'premium-rate call "call 0906..."', "high"),
        ("call 09061701461 to claim your prize", 'prize claim "to claim"', "high"),
        ("you have won a £1000 cash prize", 'prize "£1000 cash"', "medium"),
        ("you have won a £1000 cash prize", 'prize claim "you have won a £1000"', "medium"),
        ("150p/msg, reply STOP to end", 'small print "reply stop"', "medium"),
        ("claim code X1 text CLAIM to 69698", 'short code "text claim to 69698"', "high"),
        (
            "urgent! you are a winner, call 0800 542 0578",
            'premium-rate call "call 0800..."',
            "high",
        ),
        (
            "send your email to claim your prize",
            'asks for contact details "send your email"',
            "medium",
        ),
        # a sales pitch with an ask for the reader's details
        (
            "send me your email for free chips",
            'asks for contact details "send me your email"',
            "medium",
        ),
        ("tell me your number, i sell cheap chips", 'sales pitch "sell cheap chips"', "medium"),
    ],
)
def test_promotion_and_scams_without_a_link(text: str, expected: str, severity: str) -> None:
    found = Advertising().detect(chat(text), TtlState())
    assert len(found) == 1
    assert expected in found[0].evidence.summary
    assert found[0].severity == severity
    assert found[0].evidence.measures["hosts"] == []


def test_promotion_evidence_is_read_once() -> None:
    """The sales word and the call to action inside a promotion phrase are that phrase."""
    found = Advertising().detect(chat("check out my channel"), TtlState())[0]
    assert (
        found.evidence.summary == 'advertising in table chat: self-promotion "check out my channel"'
    )
    assert found.evidence.measures["signals"] == 2
    assert found.evidence.measures["self_promotion"] is True
    assert found.evidence.measures["sales_pitch"] is False


def test_scam_evidence_names_its_kinds_and_hides_the_number() -> None:
    found = Advertising().detect(chat("WINNER! call 09061701461 now, 150ppm"), TtlState())[0]
    assert found.evidence.measures["scam"] == [
        "prize claim",
        "premium-rate call",
        "premium-rate price",
    ]
    assert "09061701461" not in found.evidence.summary
    assert found.severity == "high"


@pytest.mark.parametrize(
    "text",
    [
        # poker's own verbs
        "I call",
        "call 2k",
        "nice call sir",
        "call me crazy but he had it",
        "check it",
        "check out that river, unreal",
        "check out my new avatar",
        "raise to 80082",
        "all in",
        "like that river",
        "i like this dealer",
        "I like this comment",  # a declaration, not a request
        "thumbs up for the dealer",
        "Thumbs up if you watched the main event",  # no promotion in it
        "follow the leader",
        "follow me to table 4",
        "can someone sub for me next game",
        "sub in for me after the break",
        "did you subscribe to the sunday series alerts?",
        "Subscribe",  # one word alone
        "my channel is lagging",
        "watch my stack grow",
        "look at my cards",
        "my video poker session went bad",
        "did you see the final table on youtube?",
        # prizes, wins and claims at a poker table
        "2nd prize in the tourney",
        "won 1000 chips",
        "I claim the pot",
        "time to claim the chip lead",
        "did you claim your free chips today?",
        "congrats you won the $500 prize",
        "you won a $50 ticket, gz",
        "you have won 3 flips in a row",
        "the $100k guaranteed starts soon",
        "WINNER!",
        "winner winner chicken dinner",
        "you've been chosen as table captain lol",
        # texting, replying and numbers
        "text me if you rebuy",
        "send it",
        "reply to him in private",
        "reply STOP",
        "80082 chips left",
        "stack is 69888",
        "hand #0906170146 was crazy",
        "his stack is 08712",
        "18+ only site so behave",
        "send me your email",  # an ask alone is personal_info's
    ],
)
def test_poker_talk_with_promotion_words_passes(text: str) -> None:
    assert flags(text) == []


def test_site_domains_are_configurable() -> None:
    assert flags("see pokerstars.com", Advertising(site_domains=("pokerstars.com",))) == []
    assert flags("see pokerstars.com") == ["advertising in table chat: link to pokerstars.com"]


def test_severity_grows_with_signals() -> None:
    low = Advertising().detect(chat("see pokerstars.com"), TtlState())[0]
    high = Advertising().detect(chat("cheap chips, msg me on telegram @x1 x1.biz"), TtlState())[0]
    assert (low.severity, high.severity) == ("low", "high")


def _ref_pitch(text: str, site_domains: tuple[str, ...]) -> Pitch | None:
    """The reading without any gate or shortcut: every pattern run on every text."""
    lowered = text.lower()
    links = extract_links(text) if may_hold_link(lowered) else ()
    sales = COMMERCIAL.search(lowered)
    messenger = ref_messenger_named(lowered)
    promo = read_promotion(lowered)
    contact = CONTACT_REQUEST.search(lowered)
    scam = read_scam_signals(lowered, contact is not None)
    if not (links or sales or messenger or promo or scam):
        return None
    if CREDENTIALS.search(lowered):
        return None
    hosts = sorted(
        {
            link.host
            for link in links
            if not is_own_domain(link.host, site_domains) and not link_risks(link, site_domains)
        }
    )
    handle = HANDLE.search(lowered) if messenger or sales else None
    scams = sum(weight for _, weight, _ in scam) + (1 if scam and contact else 0) >= 2
    if sales and promo and promo[1] <= sales.start() and sales.end() <= promo[2]:
        sales = None
    action = (
        CALL_TO_ACTION.search(lowered) if sales or messenger or hosts or promo or scams else None
    )
    if action and promo and promo[1] <= action.start() and action.end() <= promo[2]:
        action = None
    if action and contact and contact.start() <= action.start() and action.end() <= contact.end():
        action = None
    price = PRICE.search(lowered) if sales else None
    signals: list[str] = []
    strength = 0
    if hosts:
        signals.append("link to " + ", ".join(hosts))
    if sales:
        signals.append(f'sales pitch "{sales.group(0)}"')
    if promo:
        signals.append(f'self-promotion "{promo[0]}"')
        strength += 1
    if scams:
        for kind, weight, shown in scam:
            signals.append(f'{kind} "{shown}"')
            strength += weight - 1
    if messenger and (handle or not promo or messenger not in promo[0]):
        signals.append(f"messenger {messenger}" + (f" {handle.group(0)}" if handle else ""))
    if action:
        signals.append(f'call to action "{action.group(0)}"')
    if contact and (sales or promo or scams):
        signals.append(f'asks for contact details "{contact.group(0)}"')
    if price:
        signals.append(f"price {price.group(0)}")
    offers = bool(sales) and len(signals) >= 2
    moves_off_site = bool(messenger) and bool(handle) and bool(action)
    if not (hosts or offers or moves_off_site or promo or scams):
        return None
    return Pitch(
        tuple(hosts),
        tuple(signals),
        strength + len(signals),
        bool(sales),
        messenger,
        promo is not None,
        tuple(kind for kind, _, _ in scam) if scams else (),
    )


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
        ("subscribe to my channel", "subscribe to my chanal"),
        ("text WIN to 80082", "text WIN to 90082"),
        ("like this comment if you agree", "i like this comment"),
    ],
)
def test_the_memo_never_serves_a_near_miss(first: str, second: str) -> None:
    detector = Advertising()
    assert flags(first, detector)
    assert flags(second, detector) == [] == flags(second, Advertising(("other.com",)))
    assert flags(first, detector)
