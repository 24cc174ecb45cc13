"""Finds legitimate check-downs of a dry side pot: a hard negative for bounty-collusion detectors.

When one player is all-in and two others are left with nothing in the side pot, both usually
check to the end to raise the chance of knocking the short stack out. That is allowed ("implicit
collusion") and looks exactly like a team's check-down, so the simulator labels it.
"""

from __future__ import annotations

from typing import Any


def dry_side_pot_checkers(hand: dict[str, Any]) -> list[str] | None:
    """Players who checked down a dry side pot against an all-in player, or None."""
    showdown = [s["player_id"] for s in hand["showdown"]]
    if len(showdown) < 3:
        return None
    start = {s["player_id"]: s["stack"] for s in hand["seats"]}
    put: dict[str, int] = dict.fromkeys(start, 0)
    all_in_street: str | None = None
    for action in hand["actions"]:
        pid = action["player_id"]
        put[pid] += action["amount"]
        if all_in_street is None and put[pid] >= start[pid] and action["amount"]:
            all_in_street = action["street"]
    if all_in_street is None:
        return None
    shoved = {pid for pid in showdown if put[pid] >= start[pid]}
    checkers = sorted(pid for pid in showdown if pid not in shoved)
    if len(checkers) < 2 or not shoved:
        return None
    streets = ("preflop", "flop", "turn", "river")
    later = streets[streets.index(all_in_street) + 1 :]
    moves = [a for a in hand["actions"] if a["street"] in later and a["player_id"] in checkers]
    if not moves or any(a["action"] != "check" for a in moves):
        return None
    return checkers
