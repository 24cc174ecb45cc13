"""Per-tournament counts behind bounty collusion, and the pair test that contrasts them.

For every preflop open a player faces we count (by opener, facer, and the facer's stack depth)
whether they re-raised. A pair's re-raises of each other are compared with what each re-raises
against everybody else at the same depth, so a maniac who 3-bets everyone, or a short stack
shoving over every open, is not suspicious of the player who happened to open in front of them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from railbird.detectors.collusion.hand_features import HandFeatures
from railbird.detectors.collusion.statistics import poisson_tail
from railbird.detectors.events import HandEvent

SHORT_BB = 15  # below this many big blinds a re-raise is usually a push-or-fold shove
PRIOR_RATE = 0.06  # population re-raise rate, a weak prior for players with few chances
CALL_PRIOR_RATE = 0.15  # population flat-call rate of an open, the same kind of prior
# The flat-call test runs only for pairs that faced each other's opens this often, fixed in
# advance whatever they did with them, so its Bonferroni family is those pairs alone: most
# pairs of a 500-player field meet a few times and could never reach significance.
ISOLATION_MIN_FACED = 12
PRIOR_WEIGHT = 10.0
MAX_HANDS_KEPT = 40
ENTRY_PRIOR_WEIGHT = 10.0  # decisions of the player's overall entry rate mixed into a baseline

Pair = tuple[str, str]


def _strength(guess: TargetGuess) -> tuple[float, float]:
    """Rank targets by the weaker member's evidence, then the stronger one's."""
    ps = sorted(c.p_value for c in guess.contrasts)
    return (-ps[-1], -ps[0])


def pair_of(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(frozen=True, slots=True)
class Support:
    checkdowns: int
    knockouts: int


@dataclass(frozen=True, slots=True)
class EntryContrast:
    """How much more often a player joins pots while `target` is still live than after the
    target has folded: the directed co-entry contrast for one (player, target)."""

    player_id: str
    target: str
    live_decisions: int
    live_entries: int
    expected_live_entries: float
    folded_decisions: int
    folded_entries: int
    p_value: float


@dataclass(frozen=True, slots=True)
class TargetGuess:
    target: str
    contrasts: tuple[EntryContrast, ...]  # one per pair member
    candidates: int  # seatmates both members played with: the family for this choice

    @property
    def p_value(self) -> float:
        """The weaker member's p-value, corrected for the number of candidate targets."""
        return min(1.0, max(c.p_value for c in self.contrasts) * self.candidates)


@dataclass(frozen=True, slots=True)
class PairTest:
    reraises: int
    opportunities: int
    expected: float
    p_value: float
    caught: dict[str, int]  # who was live between or behind the pair's raises, how often
    opener_folds: int
    hand_ids: tuple[str, ...]
    move: str = "re-raised"  # what the count is of: "re-raised" or "flat-called"


@dataclass(slots=True)
class _PairCounts:
    faced: int = 0
    expected: float = 0.0  # running sum of the facer's base rate, filled at test time
    reraises: int = 0
    calls: int = 0  # flat calls of the other's open: the isolating team keeps the target in
    call_hand_ids: list[str] = field(default_factory=list)
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
    called: Counter[tuple[str, bool]] = field(default_factory=Counter)  # flat calls of opens
    pair_called: Counter[tuple[str, str, bool]] = field(default_factory=Counter)
    pairs: dict[Pair, _PairCounts] = field(default_factory=dict)
    checkdowns: Counter[tuple[Pair, str]] = field(default_factory=Counter)
    knockouts: Counter[tuple[str, str]] = field(default_factory=Counter)  # (winner, busted)
    flagged: set[Pair] = field(default_factory=set)
    suspects: set[Pair] = field(default_factory=set)  # pairs whose re-raise contrast stands out
    # (player, other) -> [decisions with other live, entries then, decisions after other
    # folded, entries then]; (player,) totals in `decided`.
    entry: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    decided: dict[str, list[int]] = field(default_factory=dict)
    seatmates: dict[str, set[str]] = field(default_factory=dict)
    isolation_family: int = 0  # pairs with at least ISOLATION_MIN_FACED faced opens
    # Pairs whose co-entry contrast has once pointed both members at one seatmate (p below
    # `BountyCollusion.screen_p`): the family of the screened pair test, a few dozen pairs.
    screened: set[Pair] = field(default_factory=set)
    watched: dict[str, set[Pair]] = field(default_factory=dict)  # player -> pairs re-tested

    def add_hand(self, feats: HandFeatures, hand: HandEvent, big_blind: int) -> list[Pair]:
        """Count the hand; return the pairs whose re-raise or flat-call count just grew."""
        stacks = {s.player_id: s.stack for s in hand.seats}
        touched: list[Pair] = []
        for fo in feats.faced_opens:
            short = stacks.get(fo.player_id, 0) < SHORT_BB * big_blind
            self.faced[fo.player_id, short] += 1
            self.pair_faced[fo.player_id, fo.opener, short] += 1
            counts = self.pairs.setdefault(pair_of(fo.player_id, fo.opener), _PairCounts())
            counts.faced += 1
            if counts.faced == ISOLATION_MIN_FACED:
                self.isolation_family += 1
            counts.faced_by_depth[fo.player_id, short] += 1
            if fo.reraised:
                self.reraised[fo.player_id, short] += 1
                self.pair_reraised[fo.player_id, fo.opener, short] += 1
            elif not fo.folded:
                self.called[fo.player_id, short] += 1
                self.pair_called[fo.player_id, fo.opener, short] += 1
                counts.calls += 1
                counts.call_hand_ids.append(feats.hand_id)
                del counts.call_hand_ids[:-MAX_HANDS_KEPT]
                pair = pair_of(fo.player_id, fo.opener)
                if pair not in touched:
                    touched.append(pair)
        self._add_decisions(feats)
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

    def _add_decisions(self, feats: HandFeatures) -> None:
        for d in feats.decisions:
            me = d.player_id
            total = self.decided.setdefault(me, [0, 0])
            total[0] += 1
            total[1] += d.entered
            for other in feats.dealt:
                # "live" means still to act: a seatmate who already called or raised changes
                # the decision itself (facing action), whoever they are.
                if other == me or (other in d.acted_before and other not in d.folded_before):
                    continue
                c = self.entry.get((me, other))
                if c is None:
                    c = self.entry[me, other] = [0, 0, 0, 0]
                    self.seatmates.setdefault(me, set()).add(other)
                k = 2 if other in d.folded_before else 0
                c[k] += 1
                c[k + 1] += d.entered

    def entry_contrast(self, me: str, target: str) -> EntryContrast | None:
        """Entries while `target` was live against the same player's rate after `target`
        folded, shrunk towards the player's overall rate. Not stratified by position: the
        team sits with its target, so the only clean baseline is the hands the target left
        early (stratifying left most strata without one)."""
        c = self.entry.get((me, target))
        if c is None:
            return None
        n_all, e_all = self.decided[me]
        overall = (e_all + 1.0) / (n_all + 4.0)
        base = (c[3] + ENTRY_PRIOR_WEIGHT * overall) / (c[2] + ENTRY_PRIOR_WEIGHT)
        expected = c[0] * base
        return EntryContrast(
            me, target, c[0], c[1], expected, c[2], c[3], poisson_tail(c[1], expected)
        )

    def guess_target(self, pair: Pair, group: tuple[str, ...]) -> TargetGuess | None:
        """The seatmate both members join pots against far more than their own baseline."""
        a, b = pair
        best: TargetGuess | None = None
        candidates = 0
        for other in sorted(self.seatmates.get(a, set()) & self.seatmates.get(b, set())):
            if other in group:
                continue
            ca, cb = self.entry_contrast(a, other), self.entry_contrast(b, other)
            if ca is None or cb is None:
                continue
            candidates += 1
            guess = TargetGuess(other, (ca, cb), 1)
            if best is None or _strength(guess) > _strength(best):
                best = guess
        if best is None:
            return None
        return TargetGuess(best.target, best.contrasts, candidates)

    def pair_test(self, pair: Pair, target: str | None = None) -> PairTest:
        """The pair's re-raises of each other's opens against each member's own re-raises of
        everybody else's (the sandwich). With a `target`, its opens leave the baseline too:
        a team answers the target's opens as loosely as each other's, and that would hide the
        contrast."""
        counts = self.pairs[pair]
        expected = self._expected(pair, target, self.reraised, self.pair_reraised, PRIOR_RATE)
        return PairTest(
            reraises=counts.reraises,
            opportunities=counts.faced,
            expected=expected,
            p_value=poisson_tail(counts.reraises, expected),
            caught=dict(counts.caught),
            opener_folds=counts.opener_folds,
            hand_ids=tuple(counts.hand_ids),
        )

    def call_test(self, pair: Pair, target: str | None = None) -> PairTest:
        """The pair's flat calls of each other's opens against each member's own calls of
        everybody else's (the `target`'s left out, as in `pair_test`): how a team that
        isolates its target (one opens, the partner flats so the target is caught between)
        differs from players who merely share a table."""
        counts = self.pairs[pair]
        expected = self._expected(pair, target, self.called, self.pair_called, CALL_PRIOR_RATE)
        return PairTest(
            reraises=counts.calls,
            opportunities=counts.faced,
            expected=expected,
            p_value=poisson_tail(counts.calls, expected),
            caught={},
            opener_folds=0,
            hand_ids=tuple(counts.call_hand_ids),
            move="flat-called",
        )

    def _expected(
        self,
        pair: Pair,
        target: str | None,
        answered: Counter[tuple[str, bool]],
        pair_answered: Counter[tuple[str, str, bool]],
        prior: float,
    ) -> float:
        """How many of the pair's answers to each other's opens the members' own rate of that
        answer (`answered`: re-raises or flat calls) to everybody else's opens expects, at each
        depth; the partner's opens (and the `target`'s, when given) leave the baseline."""
        expected = 0.0
        for (facer, short), n in self.pairs[pair].faced_by_depth.items():
            opener = pair[1] if facer == pair[0] else pair[0]
            left_out = (opener,) if target is None else (opener, target)
            faced = self.faced[facer, short] - sum(
                self.pair_faced[facer, o, short] for o in left_out
            )
            done = answered[facer, short] - sum(pair_answered[facer, o, short] for o in left_out)
            expected += n * (done + prior * PRIOR_WEIGHT) / (faced + PRIOR_WEIGHT)
        return expected

    def watch(self, pair: Pair) -> None:
        """Re-test `pair` on every later hand of either member."""
        for player in pair:
            self.watched.setdefault(player, set()).add(pair)

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
