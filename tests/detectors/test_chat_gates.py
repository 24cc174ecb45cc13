"""The cheap gates in front of the contact and link detectors never change what they find.

Each gate (a word set, a literal scan, a chunk-limited link scan, per-pattern word checks) must
be a necessary condition of the patterns it guards. Here every gated function is compared with
the plain, ungated reading of the same patterns (kept below as the reference) over real and
simulated chat, the spam and tweet corpora when present, and mutations of all of them with the
characters that break naive case folding (U+0130, U+0131, U+017F, Kelvin sign), odd whitespace,
masks and separators.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Callable, Iterator
from functools import cache

import pytest

from railbird.detectors.chat import hate, hate_patterns
from railbird.detectors.chat import impersonation as imp
from railbird.detectors.chat import personal_info as personal
from railbird.detectors.chat.advertising import Advertising
from railbird.detectors.chat.reasons import Reason
from railbird.detectors.findings import Severity
from railbird.detectors.state import TtlState
from railbird.detectors.text import contact_lexicon as lexicon
from railbird.detectors.text import link_risks, links
from railbird.detectors.text import pii_patterns as pii
from railbird.detectors.text import prize_lexicon as prize
from railbird.detectors.text import promotion_lexicon as promo
from railbird.detectors.text.normalise import normalise
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from tests.builders import chat
from tests.corpora import POKER_CHAT, csv_texts
from tests.paths import DATA, REPO

PROMO_TRAPS = REPO / "tests" / "data" / "poker_promo_traps.csv"

_ODD = [
    "\u0130",
    "\u0131",
    "\u017f",
    "\u212a",
    "\u00a0",
    "\t",
    "\u2003",
    "*",
    "  ",
    "_",
    "\u0307",
    "\u1e9e",
    "\u200b",
    "\U0001f602",
    "0",
    "7",
    "@",
    "#",
    ".",
    " dot ",
    "[.]",
    "(",
]
_LOOKALIKE = {"i": "\u0130", "s": "\u017f", "k": "\u212a", "o": "\u043e"}


# One phrase per alternative of each guarded pattern, so every word of every gate is exercised
# (they join the corpus, with their mutations).


def _split(phrases: str) -> tuple[str, ...]:
    return tuple(phrases.split("|"))


_PHRASES = _split(
    "rake back deal|cash back now|chips for sale|chip seller here|selling cheap chips|buy gold|"
    "bonus code x1|promo code abc|referral code|ref code 12|use my code|deposit bonus|free spins|"
    "50% off|discount|best prices|earn $500|make money|$50 a day|investment|forex|crypto signals|"
    "staking offers|coaching session|for sale|wholesale|chips selling|instant delivery|"
    "offers available|100% welcome bonus|code abc123|my channel|my server|subscribe|follow me|"
    "msg me|hit us|hmu|visit|check out|go to|join|click|sign up|register|available at|"
    "details at|deals at|play at|play on|inbox me|whisper me|write me|reach us|find me|ping me|"
    "telegram|telegrammm|whats app|whatsap|discord|skype|snap chat|insta|facebook|wechat|kik|"
    "viber|tiktok|tik tok|signal app|line app|icq|telegr|tg @dealz|wa @dealz|ig @dealz|"
    "fb #1234|snap @x_y|signal @abc|twitter @abc|dc @abc|$ 5|5usd|10 eur|3 btc|20 bucks|5 usdt|"
    "42 baker street|1 main st.|5 oak avenue|9 elm ave|3 high road|7 park rd.|8 sunset boulevard|"
    "2 sunset blvd|4 lovers lane|6 rose terrace|12 moon crescent|99 old highway|"
    "10 berliner strasse|10 berliner stra\u00dfe|5 calle mayor|3 rue de paris|i live at 4 oak st|"
    "my address is 5 elm way|addy is 5 x way|my house is 5 x drive|come to 5 oak court|"
    "located at 5 x close|my place 5 x square|whats your name|tell me ur number|give me yer phone|"
    "send me yur cell|gimme your mobile|share your digits|drop ur email|need your e-mail|"
    "want your address|can i get your addy|could i have your location|may i have your snap|"
    "pm me your snapchat|dm me ur insta|msg me your instagram|text me your ig|what's your discord|"
    "whats ur telegram|what is your whats app|what are your socials|whats your handle|"
    "whats your tg|whats your wechat|whats your kik|whats your contact info|whats your age|"
    "whats your birthday|whats your dob|whats your fb|whats your facebook|whats your skype|"
    "your real name|ur phonenumber|your phone# pls|your cellno|your mobile number|"
    "your email address|your home address|you're address|u r addy|where do you live|"
    "what city do you live in|what city are you from|do you have whatsapp|d u have telegram|"
    "ya have snapchat|add me on telegram|msg us at discord|hit me up on skype|find me via insta|"
    "talk to me over whatsapp|bob at gmail dot com|bob (at) mail [dot] ru|call me 0207 946 0018|"
    "+44 7700 900123|4111 1111 1111 1111|x[.]com|hxxp://bad.example.com|evil.exe|setup.msi|"
    # self-promotion: one phrase per alternative of `promotion_lexicon.PROMOTION` and the weak call
    "subscribe to my channel|sub 2 our page|suscribe in my new gaming chanel|subscribe back|"
    "subcribe me|subscribe if you agree|subscribe please|please subscribe|like and subscribe|"
    "dont forget to subscribe|come subscribe|sub back|follow u back|sub 4 sub|sub4sub|"
    "like 4 like|like4like|likefor like|follow for follow|s4s|f4f|l4l|check out my new song|"
    "check my vids|take a look at our covers|listen to my mixtape|go to my page|shares my video|"
    "visit my profile|check out this video on youtube|watch that vid on yt|check this dope channel|"
    "like this comment if|pls like this comment|like my video so more see|thumbs up so everyone|"
    "thumbsup please|give it a like|give my song a thumbs up|like&amp;share|subscribe & like|"
    "share this new video|follow me on twitter|follow us at ig|follow me: @handle_1|"
    "help me get 100 subscribers|road to 1k subs|be my first subscriber|watch?v=abcdefg|"
    "check it out new album|have a look at my music|please watch this rap|check 'em out youtuber|"
    # prize and premium-rate scams: each pattern of `prize_lexicon`
    "you have won a £1000 cash prize|u have been selected|you're awarded|ur mobile no was awarded|"
    "selected to receive|you won a $50 prize|claim your prize|to claim call|await collection|"
    "winner!|prize guaranteed|text WIN to 80082|txt: CALL to No: 86888|send GO to 8007|"
    "reply with: WIN to 83355|call 09061701461|ring 0871 277 8109|call freephone 0800 542 0578|"
    "150p/msg|10p per min|150ppm|@150p|£1.50/wk|?1.50 per week|£1.50 to rcv|billed 150p|"
    "costs £3|opt out|call2optout|stop2end|reply STOP|stop to 80082|t&c apply|t's and c's|"
    "tncs|cust care|customercare|po box 12|pobox12|std txt rate|msg rcvd|freephone|free msg|18+|"
    "£500 cash|500 pounds|cash prize|gift vouchers|4* holiday|free ringtone|poly tones|"
    # asks for contact details (`contact_lexicon.CONTACT_REQUEST`)
    "send me your email|give me ur e-mail|drop yr number|reply with your name and age|email me|"
    "e-mail us|mail me"
)


def _test_literals() -> list[str]:
    """Every string written in the repository's tests: the phrasings people thought of."""
    found: list[str] = []
    for path in sorted((REPO / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and 3 <= len(text) <= 300:
                found.append(text)
    return found


def _simulated_chat() -> list[str]:
    config = SimConfig(
        seed=3,
        tournaments=1,
        cash_tables=1,
        hours=0.5,
        players_per_tournament=45,
        violation_scale=12.0,
    )
    texts: list[str] = []
    for kind, record in simulate(config):
        if kind == "event" and record.get("type") == "chat":
            texts.append(str(record.get("text", "")))
    return texts


def _mutations(text: str, rng: random.Random) -> Iterator[str]:
    yield text.upper()
    yield text.replace(" ", "\u00a0")
    yield text.replace(" ", " \t ")
    for _ in range(4):
        chars = list(text)
        for _ in range(rng.randint(1, 3)):
            if chars:
                i = rng.randrange(len(chars))
                swap = _LOOKALIKE.get(chars[i].lower())
                chars[i] = swap if swap and rng.random() < 0.6 else rng.choice(_ODD)
        yield "".join(chars)


@cache
def corpus() -> tuple[str, ...]:
    rng = random.Random(11)
    poker = csv_texts(POKER_CHAT) + csv_texts(PROMO_TRAPS)
    tweets = csv_texts(DATA / "davidson_train.csv", 4000)
    sms = csv_texts(DATA / "sms_spam_train.csv", 2000)
    youtube = csv_texts(DATA / "youtube_spam_train.csv", 1500)
    seeds = [*_PHRASES, *_test_literals(), *poker, *_simulated_chat()]
    texts = [*seeds, *tweets, *sms, *youtube]
    for text in [*seeds, *rng.sample(tweets, min(400, len(tweets)))]:
        texts.extend(_mutations(text, rng))
    return tuple(dict.fromkeys(texts))


# The ungated readings: what each function computed before its gates were added.


def ref_find_pii(text: str) -> list[pii.PiiSpan]:
    spans: list[pii.PiiSpan] = []
    has_digit = any(ch.isdigit() for ch in text)
    if "@" in text:
        spans.extend(pii.PiiSpan("email", m.start(), m.end()) for m in pii.EMAIL.finditer(text))
    if ("dot" in text.lower() or "." in text) and pii._SPELLED_HINT.search(text):
        spans.extend(
            pii.PiiSpan("email", m.start(), m.end()) for m in pii.EMAIL_SPELLED.finditer(text)
        )
    if has_digit:
        pii._digits(text, spans)
        if pii.ADDRESS.search(text) or pii.ADDRESS_CONTEXT.search(text):
            pii._addresses(text, spans)
    return pii._merge(spans)


def ref_messenger_named(lowered: str) -> str | None:
    found = lexicon.MESSENGER.search(lowered)
    if found:
        return found.group(0)
    short = lexicon.MESSENGER_SHORT.search(lowered)
    if short and lexicon.HANDLE.search(lowered):
        return short.group(0)
    return None


def ref_solicitation(text: str) -> str | None:
    if not personal._QUICK.search(text):
        return None
    lowered = text.lower()
    found = personal.ASKING.search(text) or personal.PERSONAL_DIRECT.search(text)
    if found:
        return f'"{found.group(0).lower()}"'
    invite = personal.INVITE.search(text)
    if invite is None:
        return None
    messenger = ref_messenger_named(lowered)
    if messenger is None or lexicon.HANDLE.search(lowered) or lexicon.COMMERCIAL.search(lowered):
        return None
    return f'"{invite.group(0).lower()} {messenger}"'


def ref_extract_links(text: str) -> tuple[links.Link, ...]:
    lowered = text.lower()
    if not links.may_contain_link(lowered):
        return ()
    clean = links.deobfuscate(lowered)
    found: list[links.Link] = []
    for match in links._URL.finditer(clean):
        host = match.group("host").rstrip(".")
        is_ip = match.group("tld") is None
        if not links._accept(match, host, is_ip):
            continue
        url = match.group(0).rstrip(".,;:!?)")
        path = (match.group("path") or "").rstrip(".,;:!?)")
        found.append(
            links.Link(
                url, host, path, match.group("scheme") is not None, is_ip, url not in lowered
            )
        )
    return tuple(found)


_ANY = re.compile(
    "|".join(
        f"(?:{p.pattern})"
        for p in (*(c for c, _ in imp._CLAIMS), imp._PHISH, imp._PHISH_WEAK, imp._URGENCY)
    )
)


def ref_impersonation_reasons(text: str) -> tuple[list[Reason], Severity | None]:
    parsed = normalise(text)
    stream = parsed.stream
    if imp._TRIGGERS.isdisjoint(t.squeezed for t in parsed.tokens) or not _ANY.search(stream):
        return [], None
    reasons: list[Reason] = []
    claimed = False
    for pattern, label in imp._CLAIMS:
        found = pattern.search(stream)
        if (
            found is not None
            and not imp._negated(stream, found.start())
            and imp._DISCLAIMER.search(found.group()) is None
        ):
            reasons.append(Reason(label, found.group(), found.group(), "claim"))
            claimed = True
            break
    urgency = imp._URGENCY.search(stream)
    phish = imp._PHISH.search(stream)
    if phish is None and (claimed or urgency is not None):
        phish = imp._PHISH_WEAK.search(stream)
    phishing = phish is not None and not imp._negated(stream, phish.start())
    if phish is not None and phishing:
        reasons.append(Reason("asks for", phish.group(), phish.group(), "phishing"))
    if urgency is not None:
        reasons.append(Reason("account scare", urgency.group(), urgency.group(), "urgency"))
    if not reasons:
        return [], None
    if phishing and (claimed or urgency is not None):
        return reasons, "critical"
    if phishing:
        return reasons, "high"
    if claimed and urgency is not None:
        return reasons, "high"
    if claimed:
        return reasons, "medium"
    return [], None


def holds_everywhere(check: Callable[[str], object]) -> None:
    """`check` is truthy on every corpus text (the first few failures are shown)."""
    failures = [text for text in corpus() if not check(text)][:5]
    assert failures == []


def never_hides(gate: Callable[[str], object], pattern: re.Pattern[str]) -> None:
    """Wherever `pattern` matches the lower-cased text, `gate` lets it through."""
    holds_everywhere(lambda t: gate(t.lower()) or pattern.search(t.lower()) is None)


def test_corpus_is_broad_and_holds_what_each_gate_guards() -> None:
    texts = corpus()
    assert len(texts) > 20_000
    assert sum(bool(ref_find_pii(t)) for t in texts) > 100
    assert sum(ref_solicitation(t) is not None for t in texts) > 50
    assert sum(bool(ref_extract_links(t)) for t in texts) > 500
    assert sum(ref_impersonation_reasons(t)[1] is not None for t in texts) > 50
    assert sum(promo.read_promotion(t.lower()) is not None for t in texts) > 300
    assert sum(bool(prize.read_scam_signals(t.lower())) for t in texts) > 200
    assert sum(lexicon.CONTACT_REQUEST.search(t.lower()) is not None for t in texts) > 50
    assert any(not t.isascii() for t in texts)


def test_find_pii_matches_the_ungated_reading() -> None:
    holds_everywhere(lambda t: pii.find_pii(t) == ref_find_pii(t))


def test_solicitation_matches_the_ungated_reading() -> None:
    holds_everywhere(lambda t: personal.PersonalInfo._solicitation(t) == ref_solicitation(t))


def test_links_match_the_full_scan() -> None:
    holds_everywhere(lambda t: links.extract_links.__wrapped__(t) == ref_extract_links(t))
    holds_everywhere(lambda t: links.may_hold_link(t.lower()) or not ref_extract_links(t))


def test_impersonation_matches_the_ungated_reading() -> None:
    holds_everywhere(lambda t: imp.impersonation_reasons(t) == ref_impersonation_reasons(t))


@pytest.mark.parametrize(
    ("gate", "literal", "pattern"),
    [
        (lexicon.may_be_commercial, lexicon._COMMERCIAL_LITERAL, lexicon.COMMERCIAL),
        (lexicon.may_call_to_action, lexicon._CALL_TO_ACTION_LITERAL, lexicon.CALL_TO_ACTION),
        (lexicon.may_name_messenger, lexicon._MESSENGER_LITERAL, lexicon.MESSENGER),
    ],
)
def test_lexicon_gates_never_hide_a_match(
    gate: Callable[[str], bool], literal: re.Pattern[str], pattern: re.Pattern[str]
) -> None:
    """Both readings: word runs (ASCII text) and the literal scan (any text)."""
    never_hides(gate, pattern)
    never_hides(literal.search, pattern)


def test_promotion_matches_the_ungated_reading() -> None:
    holds_everywhere(lambda t: promo.promotion(t.lower()) == promo.read_promotion(t.lower()))


@pytest.mark.parametrize("asks_contact", [False, True])
def test_scam_signals_match_the_ungated_reading(asks_contact: bool) -> None:
    holds_everywhere(
        lambda t: (
            prize.scam_signals(t.lower(), None, asks_contact)
            == prize.read_scam_signals(t.lower(), asks_contact)
        )
    )


@pytest.mark.parametrize(
    ("gate", "literal", "pattern"),
    [
        (promo.may_promote, promo._PROMOTION_LITERAL, promo.PROMOTION),
        (promo.may_promote, promo._PROMOTION_LITERAL, promo.MENTION),
        (prize.may_scam, prize._MARKER_LITERAL, prize.PRIZE_CLAIM),
        (prize.may_scam, prize._MARKER_LITERAL, prize.SHORT_CODE),
        (prize.may_scam, prize._MARKER_LITERAL, prize.PREMIUM_CALL),
        (prize.may_scam, prize._MARKER_LITERAL, prize.PREMIUM_NUMBER),
        (prize.may_scam, prize._MARKER_LITERAL, prize.PREMIUM_PRICE),
        (lexicon.may_ask_contact, lexicon._CONTACT_LITERAL, lexicon.CONTACT_REQUEST),
    ],
)
def test_promotion_scam_and_contact_gates_never_hide_a_match(
    gate: Callable[[str], bool], literal: re.Pattern[str], pattern: re.Pattern[str]
) -> None:
    """Both readings, as for the other lexicon gates: word runs and the literal scan."""
    never_hides(gate, pattern)
    never_hides(literal.search, pattern)


def test_price_and_short_messenger_gates_never_hide_a_match() -> None:
    never_hides(lexicon.may_name_price, lexicon.PRICE)
    never_hides(lexicon._MESSENGER_SHORT_LITERAL.search, lexicon.MESSENGER_SHORT)


def test_non_ascii_readings_hold_on_ascii_text_too() -> None:
    """The literal-scan gates used for non-ASCII text, checked on every text."""
    holds_everywhere(
        lambda t: (
            personal._ASK_GATE.search(pii.gate_text(t))
            or not (personal.ASKING.search(t) or personal.PERSONAL_DIRECT.search(t))
        )
    )
    holds_everywhere(
        lambda t: (
            pii._ADDRESS_GATE.search(pii.gate_text(t))
            or not (pii.ADDRESS.search(t) or pii.ADDRESS_CONTEXT.search(t))
        )
    )


def test_messenger_and_credentials_match_the_ungated_reading() -> None:
    holds_everywhere(lambda t: lexicon.messenger_named(t.lower()) == ref_messenger_named(t.lower()))
    holds_everywhere(
        lambda t: (
            lexicon.asks_for_credentials(t.lower())
            == (lexicon.CREDENTIALS.search(t.lower()) is not None)
        )
    )


def test_bare_executable_gates_never_hide_a_match() -> None:
    never_hides(link_risks.DOT_EXECUTABLE.search, link_risks.BARE_EXECUTABLE)
    never_hides(links.may_hold_link, link_risks.BARE_EXECUTABLE)


@pytest.mark.parametrize(
    "text",
    [
        "what c\u0130ty do you l\u0130ve in",  # dotted capital I matches "i" when ignoring case
        "whats your real na\u212ae",  # Kelvin sign is a "k"
        "i live at 42 baker \u017ftreet",  # long s is an "s"
        "my number\u00a0is 0207\u00a0946\u00a00018",
        "bob\u0131 at gmail dot com",
        "add me on tele\u0261ram @dealz",
    ],
)
def test_case_folding_corners_agree(text: str) -> None:
    assert pii.find_pii(text) == ref_find_pii(text)
    assert personal.PersonalInfo._solicitation(text) == ref_solicitation(text)


@pytest.mark.parametrize(
    "text",
    [
        "official notice: your account is locked",
        "URGENT official announcement from the site",
        "message from the fraud team: confirm your login",
        "notice from game integrity, your funds are frozen",
        "game integrity here, send your pin",
        "vip host speaking, whats ur 2fa code",
        "tell me the code we sent",
        "send us the otp i texted",
        "verify your identity now",
        "ur balance was flagged",
        "trust and safety team here please reply",
        "we re from the billing department",
        "im a mod*erator give me ur pw",
        "cashier team here. enter your card details",
        "never share your password, support will never ask",
    ],
)
def test_impersonation_branches_agree(text: str) -> None:
    assert imp.impersonation_reasons(text) == ref_impersonation_reasons(text)


@pytest.mark.parametrize(
    "text",
    [
        "whats your phone number, mine is 555-867-5309",
        "cheap rakeback 45%, msg me on telegram @chipdealz www.chipdealz.biz",
        "SUPPORT here: your account is locked, send your password",
    ],
)
def test_per_text_memo_keeps_each_message_its_own(text: str) -> None:
    """The per-text caches hold only what the text says: each message keeps its own ids and
    channel, and a repeat reads exactly like the first time."""
    chain = (personal.PersonalInfo(), Advertising(), imp.Impersonation())
    first = [d.detect(chat(text, player="p-1", channel="private"), TtlState()) for d in chain]
    again = [d.detect(chat(text, player="p-2", channel="table"), TtlState()) for d in chain]
    assert any(first)
    for before, after in zip(first, again, strict=True):
        assert [f.player_ids for f in after] == [("p-2",)] * len(after)
        assert [f.evidence.measures.keys() for f in after] == [
            f.evidence.measures.keys() for f in before
        ]
    fresh = imp.Impersonation().detect(chat(text, player="p-2", screen_name="Kate"), TtlState())
    assert [f.evidence.summary for f in fresh] == [
        f.evidence.summary
        for f in imp.Impersonation().detect(
            chat(text, player="p-3", screen_name="Kate"), TtlState()
        )
    ]


# -- hate's remark gate --------------------------------------------------------------------------

_HATE_PHRASES = _split(
    "women are disgusting|muslims should be deported|kill all jews|i despise gay people|"
    "female lives do not matter|immigrants have no place here|w o m e n are a c a n c e r|"
    "trans people should not be allowed to vote|death to all arabs|make those women suffer|"
    "women think they re special. i hate them|saying 'jews are vermin' is disgusting|"
    "I wish all refugees would be shot|the chinese player shoved|a muslim country"
)


@cache
def hate_corpus() -> tuple[str, ...]:
    """The gate corpus plus text where groups are named: HateCheck whole, samples of HateXplain
    and CONDA, the game-slang set, and hate phrasings with their mutations."""
    rng = random.Random(29)
    hatexplain = csv_texts(DATA / "hatexplain.csv")
    conda = csv_texts(DATA / "conda_train.csv")
    texts = [
        *corpus(),
        *_HATE_PHRASES,
        *csv_texts(DATA / "hatecheck.csv"),
        *rng.sample(hatexplain, min(3000, len(hatexplain))),
        *rng.sample(conda, min(3000, len(conda))),
        *csv_texts(REPO / "tests" / "data" / "poker_game_slang.csv"),
    ]
    for text in _HATE_PHRASES:
        texts.extend(_mutations(text, rng))
    return tuple(dict.fromkeys(texts))


def test_hate_remark_gate_never_hides_a_remark() -> None:
    """`may_hold_remark` is a necessary condition of every remark the clause reading finds."""
    found = 0
    for text in hate_corpus():
        words = hate._reading(normalise(text)).words
        remarks = hate_patterns.remarks(words)
        found += bool(remarks)
        assert not remarks or hate_patterns.may_hold_remark(words), text
    assert found > 500


def test_hate_matches_the_ungated_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    texts = hate_corpus()
    hate._verdict.cache_clear()
    gated = [hate.hate_reasons(t) for t in texts]
    monkeypatch.setattr(hate, "may_hold_remark", lambda _words: True)
    hate._verdict.cache_clear()
    ungated = [hate.hate_reasons(t) for t in texts]
    hate._verdict.cache_clear()
    assert [t for t, a, b in zip(texts, gated, ungated, strict=True) if a != b] == []
    assert sum(bool(r) for r, _ in gated) > 1000
