"""Hate: slurs in any spelling, and discrimination without a slur; identity words are not slurs.

Without a slur, hate is a protected group named and then derogated, excluded or threatened;
counter-speech, negation, neutral statements and identity mentions are the near-misses.
"""

from __future__ import annotations

import pytest

from railbird.detectors.chat.hate import Hate
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import chat


def detect(text: str) -> list[Finding]:
    return Hate().detect(chat(text), TtlState())


@pytest.mark.parametrize(
    ("text", "term", "severity"),
    [
        ("nigger", "nigger", "high"),
        ("n1gger", "nigger", "high"),
        ("n i g g e r", "nigger", "high"),
        ("niggaaaa", "nigga", "high"),
        ("f@ggot", "faggot", "high"),
        ("fa66ot", "faggot", "high"),
        ("you faggot", "faggot", "critical"),
        ("kike", "kike", "high"),
        ("tranny", "tranny", "high"),
    ],
)
def test_slurs_are_hate(text: str, term: str, severity: str) -> None:
    (finding,) = detect(text)
    assert finding.category == "hate"
    assert finding.severity == severity
    assert finding.evidence.measures["terms"] == [term]
    assert finding.evidence.measures["tiers"] == ["slur"]
    assert f"slur '{term}'" in finding.evidence.summary


@pytest.mark.parametrize(
    ("text", "label", "severity"),
    [
        ("russians are animals", "dehumanising remark", "high"),
        ("gays should die", "eliminationist remark", "critical"),
        ("women shouldnt be allowed to play", "exclusionary remark", "high"),
        ("no women at my table", "exclusionary remark", "high"),
        ("go back to your country", "xenophobic remark", "high"),
        ("typical russians, always cheaters", "group insult", "high"),
        ("heil hitler", "extremist slogan", "critical"),
        ("of course bob is one of those gypsies", "group insult", "medium"),
    ],
)
def test_discrimination_without_slurs_is_hate(text: str, label: str, severity: str) -> None:
    (finding,) = detect(text)
    assert finding.severity == severity
    assert label in finding.evidence.summary


@pytest.mark.parametrize(
    "text",
    [
        "gay marriage debate on the news",
        "queer eye is a good show",
        "anyone from Germany here",
        "women should be allowed to play more",
        "the chinese player shoved",
        "go back to your table",
        "sniggering at that river",
    ],
)
def test_identity_words_and_near_misses_are_not_hate(text: str) -> None:
    assert detect(text) == []


@pytest.mark.parametrize(
    ("text", "label", "severity"),
    [
        ("women are disgusting", "dehumanising remark 'women are disgusting'", "high"),
        ("muslims are nothing but vermin", "dehumanising remark", "high"),
        ("immigrants are a disease", "dehumanising remark", "high"),
        ("gay people are subhuman", "dehumanising remark 'gay people are subhuman'", "high"),
        ("trans people are sick in the head", "dehumanising remark", "high"),
        ("women are not human", "dehumanising remark", "high"),
        ("female lives do not matter", "dehumanising remark", "high"),
        ("disabled people have no place here", "exclusionary remark", "high"),
        ("muslims should not be allowed to play", "exclusionary remark", "high"),
        ("refugees should go back", "exclusionary remark", "high"),
        ("jews should be exterminated", "eliminationist remark", "critical"),
        ("black people should be shot", "eliminationist remark", "critical"),
        ("kill all immigrants", "eliminationist remark 'kill all immigrants'", "critical"),
        ("death to all muslims", "eliminationist remark", "critical"),
        ("I wish all women would be shot", "eliminationist remark", "critical"),
        ("i despise gay people", "group hatred 'despise gay people'", "high"),
        ("I'm so sick of muslims", "group hatred", "high"),
        ("Women think they're special. I hate them.", "group hatred 'hate them'", "high"),
        ("those women look human but they are just parasites", "dehumanising remark", "high"),
        ("immigrants ruin everything", "group insult 'immigrants ruin'", "high"),
        ("w o m e n are a c a n c e r", "dehumanising remark 'women are a cancer'", "high"),
    ],
)
def test_hate_without_slurs(text: str, label: str, severity: str) -> None:
    (finding,) = detect(text)
    assert finding.category == "hate"
    assert finding.severity == severity
    assert label in finding.evidence.summary


@pytest.mark.parametrize(
    "text",
    [
        "saying 'jews are vermin' is disgusting",
        'he wrote "women are scum", which is bigoted',
        "calling women trash is a horrible thing to do",
        "your contempt for women has to stop",
        "comments like muslims are animals get you banned",
        "I never said that women are stupid",
        "women are not stupid",
        "I don't hate women",
        "I would never hurt a muslim",
        "women should be allowed to play more",
        "muslims should be welcome here",
        "immigrants work hard",
        "women are great at this game",
        "I'm gay",
        "as a muslim I love this site",
        "my wife is an immigrant",
        "the chinese player shoved",
        "a muslim country is hosting the next event",
        "a woman's story is boring",
        "the rape of women is a war crime",
        "men kill women in that film",
        "the word faggot used to mean sticks",
        "it's not ok to be calling people faggot",
        "trash hand",
    ],
)
def test_counter_speech_negation_and_identity_are_not_hate(text: str) -> None:
    assert detect(text) == []
