"""`could_be_poker` may wave social chat past the card-talk parser only when the parser would
find no poker talk in it: a wrong "no" would hide talk during a hand from in_hand_influence.

Every corpus we have is run through both and compared (the poker-chat set, the simulator's chat
with its in-hand talk, the Davidson and SMS corpora when the shared data is present), plus one
minimal line per pattern family and seeded random lines built from poker tokens.
"""

from __future__ import annotations

import random

import pytest

from railbird.detectors.in_hand.card_talk import could_be_poker, parse
from tests.corpora import mixed_chat

_SAMPLE = 4000
_TOKENS = (
    "a", "k", "A", "K", "T", "h", "s", "o", "7", "77", "AKs", "kq", "Ah", "Kd", "7h7c", "ahkd",
    "-", ",", "/", ":", "_", "'", "gg", "nh", "lol", "ty", "nice", "hand", "all", "in", "he",
    "pocket", "sevens", "ace", "king", "high", "pay", "him", "off", "3", "bet", "re", "raise",
    "open", "ended", "the", "nuts", "u", "are", "ahead", "x", "$", "%", "#", ".", "!",
    "10", "folded", "let", "go", "muck", "into", "gave", "up", "of",
)  # fmt: skip


def _corpus() -> list[str]:
    texts = mixed_chat(seed=8, sim_seed=6, shared_sample=_SAMPLE)
    rng = random.Random(8)
    for _ in range(4000):
        words = rng.choices(_TOKENS, k=rng.randint(1, 6))
        texts.append(rng.choice(["", " "]).join(words))
    return list(dict.fromkeys(texts))


def test_gate_never_hides_poker_talk() -> None:
    texts = _corpus()
    hidden = [t for t in texts if not could_be_poker(t) and parse(t).poker]
    assert hidden == []
    talk = sum(1 for t in texts if parse(t).poker)
    assert talk > 500  # the comparison covers plenty of real poker talk
    assert sum(1 for t in texts if not could_be_poker(t)) > 2000  # and the gate does its job


@pytest.mark.parametrize(
    "text",
    [
        "a-k",
        "AhKd",
        "Ah,Kd",
        "As Kd",
        "77",
        "kq",
        "AKs",
        "pocket 7s",
        "pocket sevens",
        "tens",
        "ace king",
        "the ace",
        "he's bluffing",
        "u are ahead",
        "pay him off",
        "allin",
        "all in",
        "3-bet",
        "re-raise",
        "open-ended",
        "ace high",
        "the nuts",
        "call_it",
        "bluff, villain is weak",
        "ｃａｌｌ",
        "folded 10 10",
        "let 10-10 go",
    ],
)
def test_gate_lets_each_pattern_family_through(text: str) -> None:
    assert could_be_poker(text)


@pytest.mark.parametrize("text", ["gg", "nh", "lol", "ty", "nice hand", "wp gl", "brb coffee", ""])
def test_gate_stops_social_chat(text: str) -> None:
    assert not could_be_poker(text)
    assert not parse(text).poker
