"""Hate: slurs in any spelling, and discrimination without a slur; identity words are not slurs."""

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
