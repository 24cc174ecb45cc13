"""The authored chat sets, whole, through the registered chain: poker and game slang used
innocently flags nothing, and game insults, undirected swearing and hate land in their category.

`tests/data/poker_game_slang.csv` is game and poker slang (noob questions, trash hands, a bot at
seat 3, hand reports, "Monkey" as a nickname, "ez" between friends: taunts are not flagged) next
to game insults, undirected swearing (low-severity profanity, never harassment) and hate without
slurs. `tests/data/poker_chat.csv` is the earlier poker-chat set. Each message is read alone by a
fresh pipeline. The floors sit a little below what the detectors score today
(docs/quality-abuse.md), so a regression fails here.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

import pytest

from railbird.detectors.findings import Finding
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline
from tests.builders import chat
from tests.corpora import POKER_CHAT
from tests.paths import REPO

GAME_SLANG = REPO / "tests" / "data" / "poker_game_slang.csv"
ABUSIVE = ("hate", "harassment", "profanity")  # most serious first
FLOORS = {"harassment": 0.95, "profanity": 0.9, "hate": 0.9}


def rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


@cache
def findings(text: str, ml: bool = True) -> tuple[Finding, ...]:
    detectors = build_detectors()
    if not ml:
        detectors = [d for d in detectors if d.name != "ml_scorer"]
    return tuple(Pipeline(detectors).detect(chat(text)) or ())


def primary(found: tuple[Finding, ...]) -> str:
    categories = {f.category for f in found}
    return next((c for c in ABUSIVE if c in categories), "clean")


def meets(found: tuple[Finding, ...], expected: str) -> bool:
    """The most serious category is the expected one; undirected swearing stays low."""
    if primary(found) != expected:
        return False
    return expected != "profanity" or all(
        f.severity == "low" for f in found if f.category == "profanity"
    )


SLANG = rows(GAME_SLANG)
CLEAN_SLANG = [r["text"] for r in SLANG if r["label"] == "clean"]


def test_the_slang_set_is_big_enough_to_measure() -> None:
    labels = [r["label"] for r in SLANG]
    assert labels.count("clean") >= 80
    assert len(labels) - labels.count("clean") >= 60
    assert set(labels) == {"clean", *ABUSIVE}


@pytest.mark.parametrize("ml", [False, True], ids=["without-ml", "whole-chain"])
def test_innocent_slang_flags_nothing(ml: bool) -> None:
    """Without the ML scorer first: a failure of the whole chain alone is the model's (trained
    on public chat where "noob" is always an insult), not the lexical detectors'."""
    flagged = [(t, [f.detector for f in findings(t, ml)]) for t in CLEAN_SLANG if findings(t, ml)]
    assert flagged == []


@pytest.mark.parametrize("expected", ["harassment", "profanity", "hate"])
@pytest.mark.parametrize("ml", [False, True], ids=["without-ml", "whole-chain"])
def test_abuse_lands_in_its_category(expected: str, ml: bool) -> None:
    chosen = [r["text"] for r in SLANG if r["label"] == expected]
    met = [t for t in chosen if meets(findings(t, ml), expected)]
    missed = sorted(set(chosen) - set(met))
    assert len(met) / len(chosen) >= FLOORS[expected], missed


def test_undirected_swearing_is_never_harassment_or_hate() -> None:
    swearing = [r["text"] for r in SLANG if r["label"] == "profanity"]
    worse = [t for t in swearing if {"harassment", "hate"} & {f.category for f in findings(t)}]
    assert worse == []


def test_poker_chat_set_clean_rows_flag_nothing_and_abuse_is_caught() -> None:
    poker = rows(POKER_CHAT)
    clean = [r["text"] for r in poker if r["label"] == "clean"]
    abusive = [r["text"] for r in poker if r["label"] in ABUSIVE]
    assert len(clean) >= 200 and len(abusive) >= 200
    assert [t for t in clean if findings(t)] == []
    assert [t for t in abusive if primary(findings(t)) == "clean"] == []


def test_poker_chat_set_abuse_keeps_its_category() -> None:
    poker = rows(POKER_CHAT)
    for expected in ("harassment", "hate"):
        chosen = [r["text"] for r in poker if r["label"] == expected]
        assert [t for t in chosen if primary(findings(t)) != expected] == [], expected
