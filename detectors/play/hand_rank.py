"""Seven-card hold'em hand strength as one comparable integer.

Pure Python on purpose: the simulator deals with it and the collusion detectors sign heads-up
decisions by who was ahead with it, anywhere the project runs; a bit-mask evaluator is quick
enough for both (showdowns and heads-up streets are a fraction of all decisions).

A value is ``category << 20 | kickers``: category 0 (high card) .. 8 (straight flush), kickers
packed four bits each, most significant first, so plain integer comparison ranks hands and equal
values are exact ties.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK: tuple[str, ...] = tuple(r + s for r in RANKS for s in SUITS)
CARD_CODE: dict[str, int] = {card: i for i, card in enumerate(DECK)}  # rank * 4 + suit

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)


def _straight_high(mask: int) -> int:
    for high in range(12, 3, -1):
        run = 0b11111 << (high - 4)
        if mask & run == run:
            return high
    wheel = (1 << 12) | 0b1111
    return 3 if mask & wheel == wheel else -1


def _top_ranks(mask: int, count: int) -> int:
    packed = 0
    taken = 0
    for rank in range(12, -1, -1):
        if mask >> rank & 1:
            packed = packed << 4 | rank
            taken += 1
            if taken == count:
                break
    return packed << 4 * (5 - taken)


_STRAIGHT_HIGH: tuple[int, ...] = tuple(_straight_high(m) for m in range(1 << 13))
_TOP5: tuple[int, ...] = tuple(_top_ranks(m, 5) for m in range(1 << 13))


def evaluate(codes: Iterable[int]) -> int:
    """Strength of the best five-card hand among 5 to 7 card codes (higher is better)."""
    counts = [0] * 13
    suit_masks = [0, 0, 0, 0]
    for code in codes:
        rank = code >> 2
        counts[rank] += 1
        suit_masks[code & 3] |= 1 << rank
    for suited in suit_masks:
        if suited.bit_count() >= 5:
            # With at most seven cards a flush excludes quads and full houses.
            high = _STRAIGHT_HIGH[suited]
            if high >= 0:
                return STRAIGHT_FLUSH << 20 | high << 16
            return FLUSH << 20 | _TOP5[suited]
    rank_mask = suit_masks[0] | suit_masks[1] | suit_masks[2] | suit_masks[3]
    quads = trips = pair1 = pair2 = -1
    for rank in range(12, -1, -1):
        n = counts[rank]
        if n == 4:
            quads = rank
        elif n == 3:
            if trips < 0:
                trips = rank
            elif pair1 < rank:  # a second set plays as the pair of a full house
                pair2, pair1 = pair1, rank
        elif n == 2:
            if pair1 < 0:
                pair1 = rank
            elif pair2 < 0:
                pair2 = rank
    if quads >= 0:
        kicker = _TOP5[rank_mask & ~(1 << quads)] >> 16
        return QUADS << 20 | quads << 16 | kicker << 12
    if trips >= 0 and pair1 >= 0:
        return FULL_HOUSE << 20 | trips << 16 | pair1 << 12
    high = _STRAIGHT_HIGH[rank_mask]
    if high >= 0:
        return STRAIGHT << 20 | high << 16
    if trips >= 0:
        return TRIPS << 20 | trips << 16 | _TOP5[rank_mask & ~(1 << trips)] >> 4 & 0xFF00
    if pair2 >= 0:
        rest = rank_mask & ~(1 << pair1) & ~(1 << pair2)
        return TWO_PAIR << 20 | pair1 << 16 | pair2 << 12 | _TOP5[rest] >> 8 & 0xF00
    if pair1 >= 0:
        return PAIR << 20 | pair1 << 16 | _TOP5[rank_mask & ~(1 << pair1)] >> 4 & 0xFFF0
    return _TOP5[rank_mask]


def evaluate_cards(cards: Sequence[str]) -> int:
    """`evaluate` for card strings such as ``["As", "Kd", ...]``."""
    return evaluate(CARD_CODE[c] for c in cards)


def category(value: int) -> str:
    """Human name of a value's hand category, e.g. ``"full house"``."""
    return CATEGORY_NAMES[value >> 20]
