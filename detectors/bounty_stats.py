"""Per-tournament counts behind bounty collusion, and the pair test that contrasts them.

For every preflop open a player faces we count (by opener, facer, and the facer's stack depth)
whether they re-raised. A pair's re-raises of each other are compared with what each re-raises
against everybody else at the same depth, so a maniac who 3-bets everyone, or a short stack
shoving over every open, is not suspicious of the player who happened to open in front of them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from detectors.events import HandEvent
from detectors.hand_features import HandFeatures
from detectors.sit_out_stats import poisson_tail

SHORT_BB = 15  # below this many big blinds a re-raise is usually a push-or-fold shove
PRIOR_RATE = 0.06  # population re-raise rate, a weak prior for players with few chances
PRIOR_WEIGHT = 10.0
MAX_HANDS_KEPT = 40

Pair = tuple[str, str]


def pair_of(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class Support:
    checkdowns: int
    knockouts: int


@dataclass(frozen=True, slots=True)
class PairTest:
    reraises: int
    opportunities: int
    expected: float
    p_value: float
    target: str | None
    target_hits: int
    target_share: float
    opener_folds: int
    hand_ids: tuple[str, ...]


@dataclass(slots=True)
class _PairCounts:
    faced: int = 0
    expected: float = 0.0  # running sum of the facer's base rate, filled at test time
    reraises: int = 0
    opener_folds: int = 0
    faced_by_depth: Counter[tuple[str, bool]] = field(default_factory=Counter)  # (facer, short)
    caught: Counter[str] = field(default_factory=Counter)
    hand_ids: list[str] = field(default_factory=list)


@dataclass(slots=True)
class BountyTournament:
    faced: Counter[tuple[str, bool]] = field(default_factory=Counter)  # (facer, short) -> n
    reraised: Counter[tuple[str, bool]] = field(default_factory=Counter)
    pair_reraised: Counter[tuple[str, str, bool]] = field(default_factory=Counter)  # (facer,
    # opener, short) -> re-raises, so the partner's share can be taken out of the baseline
    pair_faced: Counter[tuple[str, str, bool]] = field(default_factory=Counter)
    pairs: dict[Pair, _PairCounts] = field(default_factory=dict)
    checkdowns: Counter[tuple[Pair, str]] = field(default_factory=Counter)
    knockouts: Counter[tuple[str, str]] = field(default_factory=Counter)  # (winner, busted)
    flagged: set[Pair] = field(default_factory=set)

    def add_hand(self, feats: HandFeatures, hand: HandEvent, big_blind: int) -> list[Pair]:
        """Count the hand; return the pairs whose re-raise count just grew."""
        stacks = {s.player_id: s.stack for s in hand.seats}
        touched: list[Pair] = []
        for fo in feats.faced_opens:
            short = stacks.get(fo.player_id, 0) < SHORT_BB * big_blind
            self.faced[fo.player_id, short] += 1
            self.pair_faced[fo.player_id, fo.opener, short] += 1
            counts = self.pairs.setdefault(pair_of(fo.player_id, fo.opener), _PairCounts())
            counts.faced += 1
            counts.faced_by_depth[fo.player_id, short] += 1
            if fo.reraised:
                self.reraised[fo.player_id, short] += 1
                self.pair_reraised[fo.player_id, fo.opener, short] += 1
        sq = feats.squeeze
        if sq is not None:
            counts = self.pairs.setdefault(pair_of(sq.opener, sq.reraiser), _PairCounts())
            counts.reraises += 1
            counts.opener_folds += int(sq.opener_folded)
            counts.caught.update(sq.caught)
            counts.hand_ids.append(feats.hand_id)
            del counts.hand_ids[:-MAX_HANDS_KEPT]
            touched.append(pair_of(sq.opener, sq.reraiser))
        for cd in feats.checkdowns:
            for i, a in enumerate(cd.others):
                for b in cd.others[i + 1 :]:
                    self.checkdowns[pair_of(a, b), cd.all_in] += 1
        for busted, by in feats.knockouts.items():
            for winner in by:
                self.knockouts[winner, busted] += 1
        return touched

    def _base_rate(self, facer: str, opener: str, short: bool) -> float:
        """The facer's re-raise rate against everyone but `opener`, at this depth."""
        faced = self.faced[facer, short] - self.pair_faced[facer, opener, short]
        raised = self.reraised[facer, short] - self.pair_reraised[facer, opener, short]
        return (raised + PRIOR_RATE * PRIOR_WEIGHT) / (faced + PRIOR_WEIGHT)

    def pair_test(self, pair: Pair) -> PairTest:
        counts = self.pairs[pair]
        expected = 0.0
        for (facer, short), n in counts.faced_by_depth.items():
            opener = pair[1] if facer == pair[0] else pair[0]
            expected += n * self._base_rate(facer, opener, short)
        top = counts.caught.most_common(1)
        target, hits = (top[0][0], top[0][1]) if top else (None, 0)
        return PairTest(
            reraises=counts.reraises,
            opportunities=counts.faced,
            expected=expected,
            p_value=poisson_tail(counts.reraises, expected),
            target=target,
            target_hits=hits,
            target_share=hits / counts.reraises if counts.reraises else 0.0,
            opener_folds=counts.opener_folds,
            hand_ids=tuple(counts.hand_ids),
        )

    def candidate_pairs(self) -> int:
        """Pairs that ever had a chance to re-raise each other: the Bonferroni family."""
        return max(1, len(self.pairs))

    def group(self, pair: Pair) -> tuple[str, ...]:
        members = set(pair)
        grew = True
        while grew:
            grew = False
            for a, b in self.flagged:
                if (a in members) != (b in members):
                    members |= {a, b}
                    grew = True
        return tuple(sorted(members))

    def support(self, group: tuple[str, ...], target: str | None) -> Support:
        if target is None:
            return Support(0, 0)
        checkdowns = sum(
            n
            for (pair, busted), n in self.checkdowns.items()
            if busted == target and pair[0] in group and pair[1] in group
        )
        knockouts = sum(self.knockouts[m, target] for m in group)
        return Support(checkdowns, knockouts)
