"""Seven-card evaluator: textbook orderings, then agreement with pokerkit's evaluator."""

from __future__ import annotations

import random

import pytest
from pokerkit import StandardHighHand

from railbird.detectors.play.hand_rank import DECK, category, evaluate_cards

# strongest first; each line beats the next
LADDER = [
    ("AsKsQsJsTs2d3c", "straight flush"),
    ("5h4h3h2hAh9c9d", "straight flush"),  # steel wheel
    ("9c9d9h9sKd2c3c", "four of a kind"),
    ("9c9d9h9s8d2c3c", "four of a kind"),  # kicker decides
    ("QcQdQhAsAdAc2c", "full house"),  # aces full of queens
    ("KcKdKh2s2dQcJc", "full house"),
    ("QcQdQh3s3d2c2d", "full house"),
    ("AdJd9d6d2d3c4h", "flush"),
    ("AdJd9d5d2dKcKh", "flush"),  # fourth flush card decides
    ("AcKdQhJsTc2d2h", "straight"),
    ("6c5d4h3s2c9dKh", "straight"),
    ("5c4d3h2sAcKdQh", "straight"),  # the wheel is the lowest straight
    ("7c7d7hAsKd2c3h", "three of a kind"),
    ("7c7d7hAsQd2c3h", "three of a kind"),
    ("AcAdKhKs2c2d9h", "two pair"),  # third pair does not play
    ("AcAdKhKs8c2d3h", "two pair"),
    ("AcAdQhQsKc2d3h", "two pair"),
    ("AcAdKhQsJc9d8h", "pair"),
    ("AcAdKhQsTc7d6h", "pair"),
    ("AcKdQhJs9c7d6h", "high card"),
    ("AcKdQhJs8c7d6h", "high card"),
]


def _cards(text: str) -> list[str]:
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def test_ladder_is_strictly_ordered_with_named_categories() -> None:
    values = [evaluate_cards(_cards(hand)) for hand, _ in LADDER]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)
    assert [category(v) for v in values] == [name for _, name in LADDER]


@pytest.mark.parametrize(
    ("first", "second", "expected"),
    [
        ("AsKd5c6d7h8s9c", "2c3d5h6s7c8d9h", 0),  # the board's straight plays for both
        ("AsAdKcKd2h3h4s", "AhAcKhKs2d3c4c", 0),  # suits never matter outside flushes
        ("AsKdQcJh9s3c2d", "AsKdQcJh8s3c2d", 1),  # the fifth card decides high card
        ("AsKdQcJh9s3c2d", "AsKdQcJh9s4c2d", 0),  # ... but the sixth never does
        ("2c2dAsKsQsJd9h", "3c4dAsKsQsJd9h", 1),  # a pair of deuces beats ace-high
    ],
)
def test_ties_and_near_ties(first: str, second: str, expected: int) -> None:
    a, b = evaluate_cards(_cards(first)), evaluate_cards(_cards(second))
    assert (a > b) - (a < b) == expected


def test_agrees_with_pokerkit_on_random_showdowns() -> None:
    rng = random.Random(11)
    for _ in range(600):
        cards = rng.sample(DECK, 9)
        board = cards[4:]
        ours = [evaluate_cards([*hole, *board]) for hole in (cards[:2], cards[2:4])]
        theirs = [
            StandardHighHand.from_game("".join(hole), "".join(board))
            for hole in (cards[:2], cards[2:4])
        ]
        assert (ours[0] > ours[1]) == (theirs[0] > theirs[1]), cards
        assert (ours[0] == ours[1]) == (theirs[0] == theirs[1]), cards
