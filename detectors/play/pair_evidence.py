"""How far two players' decisions depart from honest play *together*: the evidence behind the
collusion detectors that read play.

Every decision gets two residuals against the honest-decision model (`residuals`): aggression
and, when facing a bet, continuation. They are centred on the player's own running average in
the same kind of spot (street group x facing a bet), so a loose or aggressive style is nobody's
evidence.

Two statistics per pair, chosen on simulated tuning days (docs/quality-collusion.md):
- **Co-deviation**: per hand, each player's summed centred continuation residual; the pair's
  products summed over their shared hands, against the products' variance under independence.
  Honest players deviate from the model independently of each other; a team deviates in the
  same hands, whichever way its tactic bends play (both come along into a pot, both stand
  aside). This is what finds teams whatever they do.
- **Directed spots**: the pair's residuals where collusion predicts them (i raising into a pot
  someone else entered while j is in; i continuing into such a pot; i continuing behind j's
  raise; i passive when only i and j have chips), against i's own average in the same spot
  against anyone. The two directions are pooled with the stronger capped at the weaker plus 2,
  so one player's moves do not light up every seatmate.

Each statistic is then z-scored robustly over the same key's pairs (median and MAD over pairs
with enough shared hands): the day's own pairs, nearly all honest, say how far honest pairs
stray under this model, whatever the players' styles. The pair's score is the Stouffer sum of
the two robust z's. State is plain dataclasses of builtins (the state codec snapshots it).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from dataclasses import dataclass, field

from railbird.detectors.events import HandEvent
from railbird.detectors.play.decisions import AGGRESSIVE, FOLD, Decision, bounty_heads
from railbird.detectors.play.honest_model import HonestModel
from railbird.detectors.play.residuals import (
    Residual,
    RunningMeans,
    learn_styles,
    score_hand,
    withholds_cards,
)
from railbird.detectors.play.style import Style

SPOT_CLIP = 4.0  # a spot's z is bounded: no single spot carries a pair
SPOTS = ("attack", "join", "back", "soft")
_ATTACK, _JOIN, _BACK, _SOFT = range(4)
KEEP_HANDS = 12  # co-deviating hands kept per pair as evidence
KEEP_MOVES = 6  # most surprising moves kept per pair
KEEP_TARGETS = 6
HEAD_WEIGHT = 3.0  # a bounty head in a co-deviating hand counts this much more as target

Pair = tuple[str, str]


def pair_of(a: str, b: str) -> Pair:
    return (a, b) if a < b else (b, a)


@dataclass(slots=True)
class Move:
    """One decision an analyst should look at: what was done where the model expected else."""

    hand_id: str
    player_id: str
    street: int
    choice: int
    expected: float  # the model's probability of what was done
    cards: str


@dataclass(slots=True)
class PairRecord:
    shared: int = 0  # hands dealt together
    cc: float = 0.0  # sum over hands of the product of centred continuation residuals
    vcc: float = 0.0  # ... and of the product of their variances
    # Directed spot sums, flat: (direction * 4 + spot) * 3 + (0 residual sum, 1 variance sum,
    # 2 decisions); direction 0 is the pair's first player acting, 1 the other way round.
    spots: list[float] = field(default_factory=lambda: [0.0] * (2 * len(SPOTS) * 3))
    # Evidence, made only for the pairs that have some (most pairs never do: fewer objects
    # for the collector to walk): hands where both deviated together, the third players in
    # them, the most surprising moves.
    hands: list[str] | None = None
    targets: dict[str, float] | None = None
    moves: list[Move] | None = None
    co_z: float = 0.0  # last computed statistics
    spot_z: float = 0.0
    combined: float = 0.0  # last full score (robust z's, Stouffer), and its spots part
    robust_spots: float = 0.0


@dataclass(frozen=True, slots=True)
class PairScore:
    pair: Pair
    co_deviation: float  # raw z of the co-deviation
    spots: float  # raw pooled spot statistic
    robust_co: float
    robust_spots: float
    score: float  # Stouffer of the two robust z's
    spot_z: tuple[tuple[float, ...], tuple[float, ...]]  # per direction, per spot


@dataclass(slots=True)
class Reference:
    """Median and scale of honest pairs' statistics, refreshed as the stream goes on."""

    pairs: int = 0
    co_median: float = 0.0
    co_scale: float = 1.0
    spot_median: float = 0.0
    spot_scale: float = 1.0


@dataclass(slots=True)
class PlayLedger:
    """One tournament's play: styles, spot averages, pairs."""

    styles: dict[str, Style] = field(default_factory=dict)
    public: bool = False  # the stream has withheld hole cards (`withholds_cards`)
    # Cells "a0"/"a1" aggression pre/postflop, "c0"/"c1" continuation, and the spot names.
    means: RunningMeans = field(default_factory=RunningMeans)
    pairs: dict[Pair, PairRecord] = field(default_factory=dict)
    reference: Reference = field(default_factory=Reference)
    hands_seen: int = 0
    refreshed_at: int = 0

    def mean(self, player: str, cell: str) -> float:
        return self.means.mean(player, cell)

    def read(self, hand: HandEvent, model: HonestModel) -> list[Pair]:
        """Add one finished hand; returns the pairs dealt together in it."""
        self.public = self.public or withholds_cards(hand)
        scored = score_hand(hand, self.styles, model, complete_history=not self.public)
        per_player: dict[str, list[float]] = {}  # pid -> [C, VC]
        updates: list[tuple[str, str, float]] = []
        holes = {s.player_id: "".join(s.hole_cards or ()) for s in hand.seats}
        for residual in scored.residuals:
            self._decision(hand.hand_id, residual, per_player, updates, holes)
        for player, cell, value in updates:
            self.means.add(player, cell, value)
        dealt = sorted({s.player_id for s in hand.seats})
        entered = {d.player_id for d in scored.reading.decisions if _entered(d)}
        heads = bounty_heads(hand)
        touched: list[Pair] = []
        for x, a in enumerate(dealt):
            for b in dealt[x + 1 :]:
                pair = (a, b)
                record = self.pairs.get(pair)
                if record is None:
                    record = self.pairs[pair] = PairRecord()
                record.shared += 1
                touched.append(pair)
                ra, rb = per_player.get(a), per_player.get(b)
                if ra is None or rb is None:
                    continue
                product = ra[0] * rb[0]
                record.cc += product
                record.vcc += ra[1] * rb[1]
                if product > 0.25:  # both well off their honest play, the same way
                    _keep_hand(record, hand.hand_id, product, entered - {a, b}, heads)
        learn_styles(self.styles, scored.reading)
        self.hands_seen += 1
        return touched

    def _decision(
        self,
        hand_id: str,
        r: Residual,
        per_player: dict[str, list[float]],
        updates: list[tuple[str, str, float]],
        holes: dict[str, str],
    ) -> None:
        d = r.decision
        i = d.player_id
        post = "1" if d.street > 0 else "0"
        a, va = r.aggression, r.aggression_var
        c, vc = r.continuation, r.continuation_var
        updates.append((i, "a" + post, a))
        if c is not None:
            updates.append((i, "c" + post, c))
            own = per_player.setdefault(i, [0.0, 0.0])
            own[0] += c - self.means.mean(i, "c" + post)
            own[1] += vc
        able = [o for o in d.live if o not in d.all_in]
        if len(able) == 1:
            updates.append((i, "soft", -a))
        if d.entered:
            updates.append((i, "attack", a))
            if c is not None:
                updates.append((i, "join", c))
        if d.aggressor is not None and c is not None and len(d.live) > 1:
            updates.append((i, "back", c))
        surprising = r.expected < 0.2
        for j in d.live:
            pair = pair_of(i, j)
            record = self.pairs.get(pair)
            if record is None:
                record = self.pairs[pair] = PairRecord()
            base = 0 if i < j else len(SPOTS) * 3
            sums = record.spots
            if able == [j]:
                _add(sums, base + _SOFT * 3, -a, va)
            if j != d.aggressor and d.entered - {j}:
                _add(sums, base + _ATTACK * 3, a, va)
                if c is not None:
                    _add(sums, base + _JOIN * 3, c, vc)
            if d.aggressor == j and c is not None and len(d.live) > 1:
                _add(sums, base + _BACK * 3, c, vc)
            if surprising and (j == d.aggressor or j in d.entered):
                move = Move(hand_id, i, d.street, d.choice, r.expected, holes.get(i, ""))
                _keep_move(record, move)

    def co_deviation(self, pair: Pair) -> float:
        """The pair's co-deviation, robust z against the current reference: cheap, so every
        pair dealt together is looked at after every hand, and only the promising ones are
        scored in full."""
        record = self.pairs[pair]
        co = record.cc / math.sqrt(record.vcc) if record.vcc > 0 else 0.0
        record.co_z = co
        return (co - self.reference.co_median) / self.reference.co_scale

    def score(self, pair: Pair) -> PairScore:
        """The pair's statistics now, robust z's against the current reference."""
        record = self.pairs[pair]
        co = record.cc / math.sqrt(record.vcc) if record.vcc > 0 else 0.0
        directions: list[tuple[float, ...]] = []
        for direction, actor in enumerate(pair):
            zs = []
            for k, spot in enumerate(SPOTS):
                at = (direction * len(SPOTS) + k) * 3
                total, var, n = record.spots[at : at + 3]
                baseline = self.means.mean_without(actor, spot, total, n)
                z = (total - n * baseline) / math.sqrt(var) if var > 0 else 0.0
                zs.append(max(-SPOT_CLIP, min(SPOT_CLIP, z)))
            directions.append(tuple(zs))
        stouffer = [sum(z) / 2.0 for z in directions]
        hi, lo = max(stouffer), min(stouffer)
        spots = (min(hi, lo + 2.0) + lo) / math.sqrt(2.0)
        record.co_z, record.spot_z = co, spots
        ref = self.reference
        robust_co = (co - ref.co_median) / ref.co_scale
        robust_spots = (spots - ref.spot_median) / ref.spot_scale
        combined = (robust_co + robust_spots) / math.sqrt(2.0)
        record.combined, record.robust_spots = combined, robust_spots
        return PairScore(
            pair=pair,
            co_deviation=co,
            spots=spots,
            robust_co=robust_co,
            robust_spots=robust_spots,
            score=combined,
            spot_z=(directions[0], directions[1]),
        )

    def refresh(self, min_shared: int, min_pairs: int, sample: int = 200) -> None:
        """Re-estimate the honest pairs' median and spread: over every pair with enough shared
        hands for the co-deviation, and over a fixed sample of them (the first by name) for
        the spots, which cost more to compute."""
        eligible = sorted(p for p, r in self.pairs.items() if r.shared >= min_shared and r.vcc > 0)
        self.refreshed_at = self.hands_seen
        if len(eligible) < min_pairs:
            self.reference = Reference(pairs=len(eligible))
            return
        co = []
        for pair in eligible:
            record = self.pairs[pair]
            record.co_z = record.cc / math.sqrt(record.vcc)
            co.append(record.co_z)
        step = max(1, len(eligible) // sample)
        sp = [self.score(pair).spots for pair in eligible[::step]]
        self.reference = Reference(
            pairs=len(eligible),
            co_median=statistics.median(co),
            co_scale=_mad(co),
            spot_median=statistics.median(sp),
            spot_scale=_mad(sp),
        )

    def forget(self, players: Iterable[str]) -> None:
        """Drop players who left (and their pairs), so an endless stream stays bounded."""
        gone = set(players)
        if not gone:
            return
        for pair in [p for p in self.pairs if gone.intersection(p)]:
            del self.pairs[pair]
        self.means.forget(gone)
        for pid in gone:
            self.styles.pop(pid, None)


def _entered(d: Decision) -> bool:
    return d.choice == AGGRESSIVE or (d.facing and d.choice != FOLD)


def _add(sums: list[float], at: int, residual: float, variance: float) -> None:
    sums[at] += residual
    sums[at + 1] += variance
    sums[at + 2] += 1


def _mad(values: list[float]) -> float:
    middle = statistics.median(values)
    spread = statistics.median(abs(v - middle) for v in values) * 1.4826
    return spread if spread > 1e-6 else 1.0


def _keep_hand(
    record: PairRecord, hand_id: str, weight: float, others: set[str], heads: frozenset[str]
) -> None:
    hands = record.hands if record.hands is not None else []
    targets = record.targets if record.targets is not None else {}
    if hand_id not in hands:
        hands.append(hand_id)
        del hands[:-KEEP_HANDS]
    for t in others:
        # The pair's deviations in a hand with a head in the pot point at the head.
        targets[t] = targets.get(t, 0.0) + (HEAD_WEIGHT * weight if t in heads else weight)
    if len(targets) > 2 * KEEP_TARGETS:
        targets = dict(sorted(targets.items(), key=lambda kv: (-kv[1], kv[0]))[:KEEP_TARGETS])
    record.hands, record.targets = hands, targets


def _keep_move(record: PairRecord, move: Move) -> None:
    moves = record.moves if record.moves is not None else []
    moves.append(move)
    if len(moves) > KEEP_MOVES:
        moves.sort(key=lambda m: (m.expected, m.hand_id, m.player_id))
        del moves[KEEP_MOVES:]
    record.moves = moves


def describe_move(move: Move) -> str:
    """ "p-7 checked or called with QsQd on the flop (honest play does that 8%) in h-12" """
    street = ("preflop", "on the flop", "on the turn", "on the river")[min(move.street, 3)]
    action = ("folded", "checked or called", "bet or raised")[move.choice]
    return (
        f"{move.player_id} {action} with {move.cards or 'unknown cards'} {street} "
        f"(honest play does that {move.expected:.0%}) in {move.hand_id}"
    )
