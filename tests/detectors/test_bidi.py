"""Right-to-left overrides: the detectors read text in the order it displays, so a reversed
insult behind U+202E is read as the insult a player sees."""

from __future__ import annotations

import pytest

from railbird.detectors.registry import build_detectors
from railbird.detectors.text.bidi import (
    BIDI_CONTROLS,
    visible_controls,
    visual_order,
    visual_positions,
)
from railbird.rules.pipeline import Pipeline
from tests.builders import chat

RLO, PDF, PDI = "\u202e", "\u202c", "\u2069"


@pytest.mark.parametrize(
    ("stored", "displayed"),
    [
        ("nice hand", "nice hand"),
        (f"{RLO}kcuf", f"{RLO}fuck"),
        (f"gg {RLO}toidi uoy{PDF} lol", f"gg {RLO}you idiot{PDF} lol"),
        (f"{RLO}ba{PDI}cd", f"{RLO}ab{PDI}cd"),
        (f"{RLO}ab\ncd", f"{RLO}ba\ncd"),  # a new line ends the override
        (f"{RLO}ab{RLO}cd", f"{RLO}dc{RLO}ba"),  # nested: one run, one direction
        ("\u202bembedding keeps order", "\u202bembedding keeps order"),
    ],
)
def test_visual_order(stored: str, displayed: str) -> None:
    got = visual_order(stored)
    assert got == displayed
    assert len(got) == len(stored)  # positions still point into the stored text


@pytest.mark.parametrize(
    ("text", "category"),
    [
        (f"{RLO}toidi gnikcuf uoy", "harassment"),
        (f"{RLO}tihs ytorc", "profanity"),
    ],
)
def test_a_reversed_insult_is_flagged_as_it_displays(text: str, category: str) -> None:
    found = Pipeline(build_detectors()).detect(chat(text)) or []
    assert category in {f.category for f in found}


@pytest.mark.parametrize("text", [f"{RLO}dnah ecin", f"{RLO}revir kcis", "\u2067gg wp\u2069"])
def test_reversed_table_talk_stays_clean(text: str) -> None:
    assert not Pipeline(build_detectors()).detect(chat(text))


@pytest.mark.parametrize(
    ("stored", "shown"),
    [
        ("nice hand", "nice hand"),
        (f"{RLO}kcuf", "\u27e8RLO\u27e9kcuf"),
        (f"https://good.example/{RLO}exe.gnp{PDF}", "https://good.example/⟨RLO⟩exe.gnp⟨PDF⟩"),
        ("\u2067gg\u2069 \u200f\u200e\u061c", "⟨RLI⟩gg⟨PDI⟩ ⟨RLM⟩⟨LRM⟩⟨ALM⟩"),
        ("\u202a\u202b\u202d\u2066\u2068", "⟨LRE⟩⟨RLE⟩⟨LRO⟩⟨LRI⟩⟨FSI⟩"),
    ],
)
def test_visible_controls_show_every_bidi_control_as_a_mark_in_sent_order(
    stored: str, shown: str
) -> None:
    got = visible_controls(stored)
    assert got == shown
    assert not any(c in got for c in BIDI_CONTROLS)
    assert visible_controls(got) == got


@pytest.mark.parametrize(
    "stored", [f"ab{RLO}cdef{PDF}gh", f"{RLO}ab\ncd{RLO}ef", "plain", f"{RLO}{RLO}xy"]
)
def test_visual_positions_is_the_permutation_visual_order_shows(stored: str) -> None:
    positions = visual_positions(stored)
    assert sorted(positions) == list(range(len(stored)))
    assert "".join(stored[i] for i in positions) == visual_order(stored)
