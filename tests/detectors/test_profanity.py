"""Profanity: swearing however it is spelled; poker slang and place names never."""

from __future__ import annotations

import pytest

from railbird.detectors.chat.profanity import Profanity
from railbird.detectors.findings import Finding
from railbird.detectors.registry import build_detectors
from railbird.detectors.state import TtlState
from railbird.detectors.text.abuse_lexicon import scan
from railbird.detectors.text.abuse_terms import lexicon
from railbird.rules.pipeline import Pipeline
from tests.builders import chat


def detect(text: str) -> list[Finding]:
    return Profanity().detect(chat(text), TtlState())


@pytest.mark.parametrize(
    ("text", "term", "typed"),
    [
        ("what the fuck", "fuck", "fuck"),
        ("shut the f u c k up", "fuck", "f u c k"),
        ("f_u_c_k", "fuck", "f_u_c_k"),
        ("fuuuuck that river", "fuck", "fuuuuck"),
        ("shiiiit", "shit", "shiiiit"),
        ("sh!t", "shit", "sh!t"),
        ("ѕhit", "shit", "ѕhit"),
        ("fuсk", "fuck", "fuсk"),
        ("ｆｕｃｋ", "fuck", "ｆｕｃｋ"),
        ("fück", "fuck", "fück"),
        ("shitshitshit", "shit", "shitshitshit"),
        ("what the f*ck", "fuck", "f*ck"),
        ("b*llsh*t", "bullshit", "b*llsh*t"),
        ("Fuuuu-ck", "fuck", "Fuuuu-ck"),
    ],
)
def test_swearing_is_found_with_term_span_and_tier(text: str, term: str, typed: str) -> None:
    (finding,) = detect(text)
    assert finding.category == "profanity"
    assert finding.severity == "low"
    measures = finding.evidence.measures
    assert measures["terms"] == [term]
    assert measures["originals"] == [typed]
    assert measures["tiers"] == ["mild"]
    assert term in finding.evidence.summary
    assert finding.message_ids == finding.evidence.event_ids


def test_vulgarity_and_strings_of_swearing_at_someone_are_medium() -> None:
    (vulgar,) = detect("lol my dick is bigger than your stack")
    assert vulgar.severity == "medium" and vulgar.evidence.measures["tiers"] == ["vulgar"]
    (string,) = detect("fuck fuck fuck you")
    assert string.severity == "medium" and string.evidence.measures["count"] == 3
    (mentioned,) = detect("@Bob shit shit shit")
    assert mentioned.severity == "medium"


@pytest.mark.parametrize(
    "text",
    [
        "no fucking way",
        "holy shit",
        "why the fuck would anyone do that",
        "fuck this game",
        "fuck fuck fuck",  # near-miss of "fuck fuck fuck you": a string of it, at nobody
        "shit shit shit this river",
        "what the fuck was that river",
        "fuck off river",
    ],
)
def test_undirected_swearing_is_low_severity_profanity(text: str) -> None:
    """Swearing at nobody is low however much of it there is (the direction, not the count,
    makes it worse)."""
    (finding,) = detect(text)
    assert finding.category == "profanity"
    assert finding.severity == "low"


@pytest.mark.parametrize(
    "text",
    [
        "I had the nuts",
        "sick suck out on the river",
        "this sucks",
        "kill pot next hand",
        "god run on this table",
        "shove or fold",
        "what a donk call",
        "fish on my left",
        "Scunthorpe United won",
        "Hancock is on a heater",
        "greetings from the cockpit",
        "455 chips left",
        "4 bet pot",
        "A5s is a fine hand",
        "lmao",
        "damn what a river",
        "hell of a hand",
        "assassin's creed",
        "classic pass",
        "shitake mushrooms",
        "sniggering at that",
        "nooooob",  # a game insult (harassment's business), never vulgar
        "you noob",
        "ur trash",
        "nice hand Dick",
        "cum laude",
        "",
    ],
)
def test_poker_slang_and_innocent_words_do_not_flag(text: str) -> None:
    assert detect(text) == []


def test_only_text_messages_are_read() -> None:
    assert Profanity().detect(chat("fuck", kind="emoji"), TtlState()) == []


def test_lexicon_keeps_base_list_minus_allowlist_with_tiers() -> None:
    lex = lexicon()
    assert lex.exact["fuck"].tier == "mild"
    assert lex.exact["cunt"].tier == "insult" and lex.exact["cunt"].vulgar
    assert lex.exact["nigger"].tier == "slur"
    assert lex.exact["kys"].tier == "threat"
    for word in ("pot", "kill", "god", "suck", "lmao", "nuts", "gay", "pawn", "organ"):
        assert word not in lex.exact


def test_scan_reports_how_each_hit_was_found() -> None:
    hows = {h.original: h.how for h in scan("f u c k fuuuuck f*ck shitshitshit shit")}
    assert hows == {
        "f u c k": "spaced",
        "fuuuuck": "stretched",
        "f*ck": "masked",
        "shitshitshit": "glued",
        "shit": "exact",
    }


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("gute nacht allen, ich höre auf", False),  # German "hear", folds to "hore"
        ("ich habe zwei könige und fürchte das ass", False),  # German "Ass", the ace
        ("mein ass hält", False),
        ("you are a hore", True),
        ("kiss my ass", True),
        ("fück you", True),  # an accent on a strong stem only disguises it
        ("shït player", True),
        ("fuсk you", True),  # Cyrillic "с": a homoglyph, not a foreign word
        ("ur a fàg", True),  # any other accent on an English term is a disguise
        ("you mörön", True),
        ("you dümbass", True),
        ("fúcking idiot", True),
    ],
)
def test_foreign_words_that_fold_onto_english_terms(text: str, flagged: bool) -> None:
    assert bool(scan(text)) is flagged


@pytest.mark.parametrize(
    "text",
    [
        "watching a Dick Van Dyke movie between tables",
        "Alan Cumming is a great actor",
        "Dick Cheney was vice president",
        "Gaylord Perry was a great pitcher",
        "my friend Mr Dikshit plays here too",
        "nice game Peter Cock",
    ],
)
def test_names_of_people_that_hold_a_term_flag_nothing(text: str) -> None:
    """The whole chain: a capitalised word beside another name word, or after a title."""
    assert not Pipeline(build_detectors()).detect(chat(text))


@pytest.mark.parametrize(
    "text", ["you Fat Cunt", "You Bitch", "Shut Up Bitch", "Stupid Bitch", "ur a Cunt"]
)
def test_capitalised_insults_are_no_names(text: str) -> None:
    assert {f.category for f in Pipeline(build_detectors()).detect(chat(text)) or []} >= {
        "harassment"
    }
