"""The group test behind bounty collusion: teams of three or four spread their sandwich re-raises
over several pairs, so no single pair stands out, while every member's co-entry contrast points
at the same target.

A group is grown from the pair that just re-raised: the pair's target guess fixes the target,
and every seatmate whose own co-entry contrast against that target is strong joins (at most
`MAX_GROUP` members). Membership uses the entry contrast only, never the re-raises, so the sum of
re-raises over the group's pairs is not inflated by how the group was picked. The group is a
deterministic function of the seed pair, so the family for Bonferroni stays the set of pairs
that faced each other's opens, as for the pair test.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from railbird.detectors.collusion.bounty_ledger import (
    BountyTournament,
    EntryContrast,
    Pair,
    Support,
    pair_of,
)
from railbird.detectors.collusion.planning_chat import group_key
from railbird.detectors.collusion.statistics import poisson_tail
from railbird.detectors.events import HandEvent
from railbird.detectors.findings import Evidence, Finding, Severity

MAX_GROUP = 4


@dataclass(frozen=True, slots=True)
class GroupTest:
    members: tuple[str, ...]  # sorted; each one's re-raises with the rest stand out
    target: str
    reraises: int
    opportunities: int
    expected: float
    p_value: float
    contrasts: tuple[EntryContrast, ...]  # one per member, sorted by player id
    linked_pairs: tuple[Pair, ...]  # group pairs with at least one sandwich re-raise
    caught: int  # the target live between or behind the group's re-raises
    hand_ids: tuple[str, ...]


def group_members(
    trn: BountyTournament, pair: Pair, target: str, member_p: float
) -> list[EntryContrast]:
    """The pair plus the seatmates of the target whose co-entry contrast against it is strong."""
    found: list[EntryContrast] = []
    for pid in pair:
        c = trn.entry_contrast(pid, target)
        if c is None:
            return []
        found.append(c)
    extra = []
    for other in sorted(trn.seatmates.get(target, set())):
        if other in pair:
            continue
        c = trn.entry_contrast(other, target)
        if c is not None and c.p_value < member_p:
            extra.append(c)
    extra.sort(key=lambda c: (c.p_value, c.player_id))
    found += extra[: MAX_GROUP - 2]
    return sorted(found, key=lambda c: c.player_id)


def group_test(
    trn: BountyTournament, contrasts: list[EntryContrast], target: str, member_p: float
) -> GroupTest | None:
    """Re-raises summed over every pair inside the group, against the members' own baselines.

    A member stays only while their own re-raises with the rest stand out (p < `member_p`):
    otherwise one strong pair would carry any seatmate who hunts the same target into a flag.
    """
    members = [c.player_id for c in contrasts]
    tests = {
        pair: trn.pair_test(pair)
        for a, b in itertools.combinations(members, 2)
        if (pair := pair_of(a, b)) in trn.pairs
    }
    while len(members) >= 3:
        worst, worst_p = "", 0.0
        for m in members:
            own = [t for (a, b), t in tests.items() if m in (a, b) and {a, b} <= set(members)]
            p = poisson_tail(sum(t.reraises for t in own), sum(t.expected for t in own))
            if p >= worst_p:
                worst, worst_p = m, p
        if worst_p < member_p:
            break
        members.remove(worst)
    if len(members) < 3:
        return None  # a pair's own test already covers two players
    inside = {pair: t for pair, t in tests.items() if set(pair) <= set(members)}
    linked = tuple(pair for pair, t in inside.items() if t.reraises)
    hand_ids = {h for t in inside.values() for h in t.hand_ids}
    reraises = sum(t.reraises for t in inside.values())
    expected = sum(t.expected for t in inside.values())
    return GroupTest(
        members=tuple(sorted(members)),
        target=target,
        reraises=reraises,
        opportunities=sum(t.opportunities for t in inside.values()),
        expected=expected,
        p_value=poisson_tail(reraises, expected),
        contrasts=tuple(c for c in contrasts if c.player_id in members),
        linked_pairs=linked,
        caught=sum(t.caught.get(target, 0) for t in inside.values()),
        hand_ids=tuple(sorted(hand_ids)),
    )


def group_finding(
    detector: str,
    hand: HandEvent,
    group: tuple[str, ...],
    test: GroupTest,
    target_p: float,
    adjusted: float,
    tests: int,
    severity: Severity,
    support: Support,
) -> Finding:
    target = test.target
    named = test.contrasts
    entries = "; ".join(
        f"{c.player_id} joined {c.live_entries} of {c.live_decisions} pots while {target} was "
        f"live (expected {c.expected_live_entries:.1f})"
        for c in named
    )
    summary = (
        f"{', '.join(test.members)} converge on {target} as a group: {test.reraises} re-raises "
        f"of each other's opens over {len(test.linked_pairs)} pairs in {test.opportunities} "
        f"chances (expected {test.expected:.1f}); {entries}; p={adjusted:.2g} after {tests} "
        f"seed pairs; {support.checkdowns} check-down(s) with {target} all-in, "
        f"{support.knockouts} knockout(s) of {target} by the group"
    )
    return Finding(
        detector=detector,
        category="bounty_collusion",
        severity=severity,
        score=round(min(0.99, 0.75 + 0.015 * test.reraises), 3),
        ts=hand.ended_at,
        player_ids=group,
        tournament_id=hand.tournament_id,
        table_id=hand.table_id,
        hand_id=hand.hand_id,
        dedupe_key=group_key(hand.tournament_id, group),
        evidence=Evidence(
            kind="bounty_targeting",
            summary=summary,
            event_ids=test.hand_ids,
            measures={
                "reraises": test.reraises,
                "opportunities": test.opportunities,
                "expected_reraises": round(test.expected, 4),
                "p_value_reraises": test.p_value,
                "linked_pairs": [f"{a},{b}" for a, b in test.linked_pairs],
                # co-entry contrast, one entry per named member (in `members` order)
                "live_decisions": [c.live_decisions for c in named],
                "live_entries": [c.live_entries for c in named],
                "expected_live_entries": [round(c.expected_live_entries, 2) for c in named],
                "p_values_entries": [c.p_value for c in named],
                "p_value_target": target_p,
                "candidate_pairs": tests,
                "p_value_bonferroni": adjusted,
                "target_caught_in_reraises": test.caught,
                "checkdowns_with_target_all_in": support.checkdowns,
                "knockouts_of_target": support.knockouts,
            },
            details={"target": target, "group": list(test.members)},
        ),
    )
