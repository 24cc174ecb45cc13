"""Cheap hand-strength estimates for simulated players: no equity runs, just rules of thumb.

Players decide thousands of times a second, so preflop strength is a lookup into a ranking of
the 169 starting hands (Chen score, weighted by combinations) and postflop strength maps the
made-hand category plus draws onto [0, 1]. Good enough for believable play; not a solver.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from railbird.detectors.play.hand_rank import CARD_CODE, evaluate

_RANK = {r: i for i, r in enumerate("23456789TJQKA")}


def _chen(high: int, low: int, suited: bool) -> float:
    base = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}.get(high, (high + 2) / 2)
    if high == low:
        return max(5.0, base * 2)
    score = base + (2.0 if suited else 0.0)
    gap = high - low - 1
    score -= (0, 1, 2, 4, 5)[min(gap, 4)]
    if gap <= 1 and high < 10:
        score += 1
    return score


def percentile_table(
    score: Callable[[int, int, bool], float],
) -> dict[tuple[int, int, bool], float]:
    """Each starting-hand class (high rank, low rank, suited) -> the share of the 1,326
    holdings that `score` ranks at or below it: one ranking, whichever family of players
    scores hands its own way."""
    classes: list[tuple[float, int, tuple[int, int, bool]]] = []
    for high in range(13):
        for low in range(high + 1):
            for suited in (False, True) if high != low else (False,):
                combos = 6 if high == low else (4 if suited else 12)
                classes.append((score(high, low, suited), combos, (high, low, suited)))
    classes.sort()
    table: dict[tuple[int, int, bool], float] = {}
    seen = 0
    for _, combos, key in classes:
        seen += combos
        table[key] = seen / 1326
    return table


_PREFLOP = percentile_table(_chen)


def preflop(hole: tuple[str, str]) -> float:
    """Share of starting hands this one beats or ties (1.0 for aces)."""
    a, b = _RANK[hole[0][0]], _RANK[hole[1][0]]
    high, low = (a, b) if a >= b else (b, a)
    return _PREFLOP[(high, low, hole[0][1] == hole[1][1])]


def _draw_bonus(hole: tuple[str, str], board: tuple[str, ...]) -> float:
    if len(board) >= 5:
        return 0.0
    cards = hole + board
    bonus = 0.0
    for suit in "cdhs":
        if sum(1 for c in cards if c[1] == suit) == 4 and any(c[1] == suit for c in hole):
            bonus = 0.18
    ranks = {_RANK[c[0]] for c in cards}
    for low in range(-1, 9):
        window = sum(1 for r in range(low, low + 5) if (r if r >= 0 else 12) in ranks)
        if window == 4:
            bonus = max(bonus, 0.12)
    return bonus


def postflop(hole: tuple[str, str], board: tuple[str, ...]) -> float:
    """Rough showdown strength in [0, 1] from the made hand, pair quality and draws."""
    value = evaluate(CARD_CODE[c] for c in itertools.chain(hole, board))
    category = value >> 20
    if category >= 2:
        board_pairs = len(board) - len({c[0] for c in board})
        if category == 2 and board_pairs >= 1:
            category = 1  # the board's pair is everyone's
        else:
            return min(0.99, 0.72 + 0.04 * category)
    top_board = max(_RANK[c[0]] for c in board)
    h0, h1 = _RANK[hole[0][0]], _RANK[hole[1][0]]
    if category == 1:
        if h0 == h1:
            strength = 0.7 if h0 > top_board else 0.45
        elif top_board in (h0, h1):
            strength = 0.58 + 0.01 * max(h0, h1)
        elif any(_RANK[c[0]] in (h0, h1) for c in board):
            strength = 0.42
        else:
            strength = 0.25 + 0.01 * max(h0, h1)
    else:
        strength = 0.08 + 0.012 * max(h0, h1)
    return min(0.95, strength + _draw_bonus(hole, board))
