"""What a player's own cards are worth at a decision: the hand-strength inputs of the honest
decision model.

The operator sees every hole card, so the model conditions each decision on the hand it was
made with: a fold with nothing is not held against anyone, a check with a set can be. Preflop
that is the starting hand's all-in equity against one random hand (a fixed table of the 169
classes, `preflop_equity.json`, written by `scripts/preflop_equity.py`), plus pair and suited
marks. Postflop it is what the hand has made *with* the hole cards (a board pair is everyone's),
how that ranks against the board (overpair, top pair, ...), the draws, and how scary the board
is. Categorical on purpose: the model learns what each is worth, and no number here is tuned to
any simulator's idea of strength.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

RANKS = "23456789TJQKA"
_RANK = {r: i for i, r in enumerate(RANKS)}
_SUIT = {s: i for i, s in enumerate("cdhs")}
_WHEEL = (1 << 12) | 0b1111

# Made-hand classes, weakest first. A pair only counts when a hole card makes it.
NOTHING, BOARD_PAIR_ONLY, UNDERPAIR, LOW_PAIR, MIDDLE_PAIR, TOP_PAIR, OVERPAIR = range(7)
TWO_PAIR, TRIPS, SET, STRAIGHT, FLUSH, FULL_HOUSE, QUADS_PLUS = range(7, 14)
MADE_CLASSES = 14


@lru_cache(maxsize=1)
def _preflop_table() -> dict[str, float]:
    package = resources.files("railbird.detectors.play")
    data: dict[str, float] = json.loads((package / "preflop_equity.json").read_text())
    return data


def hand_class(hole: tuple[str, str]) -> str:
    """The starting hand's class, high card first: "AA", "AKs", "72o"."""
    a, b = hole[0][0], hole[1][0]
    if _RANK[a] < _RANK[b]:
        a, b = b, a
    if a == b:
        return a + b
    return a + b + ("s" if hole[0][1] == hole[1][1] else "o")


@dataclass(frozen=True, slots=True)
class Preflop:
    equity: float  # all-in equity against one random hand, 0.29 (72o) .. 0.85 (AA)
    pair: bool
    suited: bool
    high: float  # the higher rank, 0 (deuce) .. 1 (ace)
    gap: int  # ranks between the two cards (0 connected), 12 for a pair


@lru_cache(maxsize=2048)
def preflop(hole: tuple[str, str]) -> Preflop:
    a, b = _RANK[hole[0][0]], _RANK[hole[1][0]]
    hi, lo = max(a, b), min(a, b)
    return Preflop(
        equity=_preflop_table()[hand_class(hole)],
        pair=a == b,
        suited=hole[0][1] == hole[1][1],
        high=hi / 12,
        gap=12 if a == b else hi - lo - 1,
    )


@dataclass(frozen=True, slots=True)
class Postflop:
    made: int  # one of the made-hand classes above
    kicker: float  # the hole card beside a pair, 0..1 (top pair's kicker matters)
    flush_draw: bool  # four to a suit, a hole card among them (not on the river)
    nut_flush_draw: bool  # ... holding that suit's ace
    straight_draw: int  # 2 open-ended (8 outs), 1 gutshot, 0 none (not on the river)
    overcards: int  # hole cards above every board card (0-2), when nothing is made
    board_paired: bool
    board_suited: int  # most cards of one suit on the board
    board_connected: bool  # three board cards within a five-rank window: a straight is out
    board_high: float  # the board's top rank, 0..1


def _best_straight(mask: int) -> int:
    """The top rank of the best straight in a rank mask, -1 for none."""
    for high in range(12, 3, -1):
        run = 0b11111 << (high - 4)
        if mask & run == run:
            return high
    return 3 if mask & _WHEEL == _WHEEL else -1


_STRAIGHT_HIGH: tuple[int, ...] = tuple(_best_straight(m) for m in range(1 << 13))


def _straight_outs_of(mask: int) -> int:
    completing = 0
    for rank in range(13):
        if not mask >> rank & 1 and _STRAIGHT_HIGH[mask | 1 << rank] >= 0:
            completing += 1
    return min(2, completing)


# 2 for an open-ended draw (or a double gutshot), 1 for a gutshot, 0 otherwise, per rank mask.
_STRAIGHT_OUTS: tuple[int, ...] = tuple(_straight_outs_of(m) for m in range(1 << 13))


def _straight_mask_high(mask: int) -> int:
    return _STRAIGHT_HIGH[mask]


def _straight_outs(mask: int) -> int:
    return _STRAIGHT_OUTS[mask]


def postflop(hole: tuple[str, str], board: tuple[str, ...]) -> Postflop:
    """The hand with the board (three to five cards)."""
    hole_ranks = [_RANK[c[0]] for c in hole]
    board_ranks = [_RANK[c[0]] for c in board]
    cards = [*hole, *board]
    counts = [0] * 13
    for c in cards:
        counts[_RANK[c[0]]] += 1
    board_counts = [0] * 13
    for r in board_ranks:
        board_counts[r] += 1
    suit_cards = [0, 0, 0, 0]
    hole_suits = {_SUIT[c[1]] for c in hole}
    for c in cards:
        suit_cards[_SUIT[c[1]]] += 1
    board_suits = [0, 0, 0, 0]
    for c in board:
        board_suits[_SUIT[c[1]]] += 1
    mask = 0
    for r in set(hole_ranks) | set(board_ranks):
        mask |= 1 << r
    board_mask = 0
    for r in board_ranks:
        board_mask |= 1 << r
    top = max(board_ranks)
    river = len(board) >= 5

    flush_suit = next(
        (s for s in range(4) if suit_cards[s] >= 5 and s in hole_suits and board_suits[s] < 5),
        None,
    )
    made = NOTHING
    kicker = 0.0
    # Quads, full houses, flushes and straights: only when the hole cards take part.
    hole_in_quads = any(counts[r] == 4 and board_counts[r] < 4 for r in set(hole_ranks))
    trips_ranks = [r for r in range(13) if counts[r] >= 3]
    pair_ranks = [r for r in range(13) if counts[r] >= 2]
    full = bool(trips_ranks) and len(pair_ranks) >= 2
    full_uses_hole = full and any(
        counts[r] > board_counts[r] for r in set(hole_ranks) if counts[r] >= 2
    )
    straight_high = _straight_mask_high(mask)
    board_straight = _straight_mask_high(board_mask)
    if hole_in_quads:
        made = QUADS_PLUS
    elif full_uses_hole:
        made = FULL_HOUSE
    elif flush_suit is not None:
        made = FLUSH
    elif straight_high >= 0 and straight_high > board_straight:
        made = STRAIGHT
    else:
        pocket = hole_ranks[0] == hole_ranks[1]
        if pocket and counts[hole_ranks[0]] >= 3:
            made = SET
        elif any(counts[r] >= 3 and board_counts[r] == 2 for r in hole_ranks):
            made = TRIPS
        else:
            paired_hole = sorted(
                {r for r in hole_ranks if board_counts[r] >= 1 and not pocket}, reverse=True
            )
            if len(paired_hole) == 2:
                made = TWO_PAIR
            elif pocket:
                made = OVERPAIR if hole_ranks[0] > top else UNDERPAIR
                kicker = hole_ranks[0] / 12
            elif paired_hole:
                rank = paired_hole[0]
                distinct = sorted(set(board_ranks), reverse=True)
                if rank == distinct[0]:
                    made = TOP_PAIR
                elif len(distinct) > 1 and rank == distinct[1]:
                    made = MIDDLE_PAIR
                else:
                    made = LOW_PAIR
                other = hole_ranks[1] if hole_ranks[0] == rank else hole_ranks[0]
                kicker = other / 12
            elif any(board_counts[r] >= 2 for r in range(13)):
                made = BOARD_PAIR_ONLY
    flush_draw = not river and any(
        suit_cards[s] == 4 and s in hole_suits and made < FLUSH for s in range(4)
    )
    nut_flush_draw = flush_draw and any(c[0] == "A" and suit_cards[_SUIT[c[1]]] == 4 for c in hole)
    straight_draw = 0 if river or made >= STRAIGHT else _straight_outs(mask)
    if straight_draw and _straight_outs(board_mask) >= straight_draw:
        straight_draw = 0  # the board's own draw: everyone has it
    overcards = sum(1 for r in hole_ranks if r > top) if made == NOTHING else 0
    connected = (
        any(bin(board_mask & (0b11111 << low)).count("1") >= 3 for low in range(0, 9))
        or bin(board_mask & _WHEEL).count("1") >= 3
    )
    return Postflop(
        made=made,
        kicker=kicker,
        flush_draw=flush_draw,
        nut_flush_draw=nut_flush_draw,
        straight_draw=straight_draw,
        overcards=overcards,
        board_paired=any(n >= 2 for n in board_counts),
        board_suited=max(board_suits),
        board_connected=connected,
        board_high=top / 12,
    )
