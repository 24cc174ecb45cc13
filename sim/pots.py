"""Settling a hold'em pot: uncalled bets, main and side pots, splits with odd chips, bust-outs.

Kept apart from the betting engine because this is the part with the exact rules (checked
against pokerkit in tests/sim) and it is easiest to trust when it reads as plain arithmetic.
Players are indices in position order (first seat after the button first), so "first winner
clockwise from the button" is simply the lowest index.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from railbird.detectors.play.hand_rank import CARD_CODE, evaluate

PotLevels = list[tuple[int, list[int]]]  # (amount, eligible indices)
PotWinners = list[tuple[list[int], list[int]]]  # (eligible, winners) per level


def return_uncalled(contrib: list[int], stack: list[int]) -> None:
    """The part of the biggest bet nobody called goes back; it is returned, not won."""
    n = len(contrib)
    top = max(range(n), key=contrib.__getitem__)
    uncalled = contrib[top] - max(contrib[j] for j in range(n) if j != top)
    if uncalled > 0:
        contrib[top] -= uncalled
        stack[top] += uncalled


def pot_levels(contrib: Sequence[int], live: Sequence[int]) -> PotLevels:
    """Main pot then side pots as (amount, eligible); equal-eligibility levels merge."""
    pots: PotLevels = []
    previous = 0
    for level in sorted({contrib[i] for i in live}):
        amount = sum(min(c, level) - min(c, previous) for c in contrib)
        eligible = [i for i in live if contrib[i] >= level]
        if pots and pots[-1][1] == eligible:
            pots[-1] = (pots[-1][0] + amount, eligible)
        elif amount:
            pots.append((amount, eligible))
        previous = level
    return pots


def award(
    levels: PotLevels, values: dict[int, int], ids: Sequence[str], stack: list[int]
) -> tuple[list[dict[str, Any]], PotWinners]:
    """Pay each pot to its best hands; returns the contract `winners` and who won each level."""
    pot_winners: PotWinners = []
    for _, eligible in levels:
        best = max(values[i] for i in eligible)
        pot_winners.append((eligible, [i for i in eligible if values[i] == best]))
    # Levels that the same surviving hands contest are pushed as one pot (as pokerkit does),
    # so a split pays one odd chip, not one per level.
    alive = {i for _, won in pot_winners for i in won}
    awarded: list[tuple[int, list[int], list[int]]] = []  # (amount, contenders, winners)
    for (amount, _), (eligible, won) in zip(levels, pot_winners, strict=True):
        contenders = [i for i in eligible if i in alive]
        if awarded and awarded[-1][1] == contenders:
            awarded[-1] = (awarded[-1][0] + amount, contenders, won)
        else:
            awarded.append((amount, contenders, won))
    winners: list[dict[str, Any]] = []
    for k, (amount, _, won) in enumerate(awarded):
        share, odd = divmod(amount, len(won))  # odd chips: first winner left of the button
        for rank, i in enumerate(won):
            chips = share + (odd if rank == 0 else 0)
            stack[i] += chips
            pot = "main" if k == 0 else f"side-{k}"
            winners.append({"player_id": ids[i], "amount": chips, "pot": pot})
    return winners, pot_winners


def eliminations(
    stack: Sequence[int],
    pot_winners: PotWinners,
    ids: Sequence[str],
    bounties: Sequence[int | None],
) -> list[dict[str, Any]]:
    """Busted players, with every winner of a pot they were in (a split bust names all)."""
    eliminated: list[dict[str, Any]] = []
    for i, chips in enumerate(stack):
        if chips:
            continue
        by: list[str] = []
        for eligible, won in pot_winners:
            if i in eligible:
                by.extend(ids[w] for w in won if ids[w] not in by)
        eliminated.append({"player_id": ids[i], "by": by, "bounty_awarded": bounties[i]})
    return eliminated


def settle(
    contrib: list[int],
    stack: list[int],
    live: Sequence[int],
    cards: Sequence[Sequence[str]],
    ids: Sequence[str],
    bounties: Sequence[int | None] | None,
    hand_id: str,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """End a hand: uncalled bets back, each pot paid (`stack` updated), the busted listed.

    `cards[i]` is player i's seven cards (hole cards and board), read only at a showdown;
    `bounties` is None outside tournaments, where nobody is eliminated. Returns the contract's
    `winners` and `eliminated`."""
    chips_before = sum(stack) + sum(contrib)
    return_uncalled(contrib, stack)
    values = dict.fromkeys(live, 0)
    if len(live) > 1:
        for i in live:
            values[i] = evaluate([CARD_CODE[c] for c in cards[i]])
    winners, pot_winners = award(pot_levels(contrib, live), values, ids, stack)
    if sum(stack) != chips_before:
        raise AssertionError(f"chips not conserved in hand {hand_id}")
    eliminated = [] if bounties is None else eliminations(stack, pot_winners, ids, bounties)
    return winners, eliminated
