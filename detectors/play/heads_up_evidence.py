"""How two players at a cash table play against each other, beyond the honest-decision model:
the evidence behind chip dumping and soft play.

At a cash table chips become money, and a pair moves them where the two meet alone. Every
decision taken heads-up (exactly one opponent still in) is directed: player i against j. Three
residuals per direction, each against i's own average in the same kind of spot against anyone:
- **aggression toward**: bets and raises beyond the model (a donor betting off chips, a
  receiver raising them in) or short of it (a soft pair checking strong hands to each other);
- **continuation**: calls beyond the model (paying off) or folds beyond it (giving up);
- **against the cards**: the operator sees both hands, so each heads-up decision after the flop
  can be signed by whether i was ahead or behind j at that moment. An honest player does not
  know, so their residuals are uncorrelated with it given what they can see; a player who bets
  or calls while behind and checks or folds while ahead, against one opponent, plays as if they
  knew that opponent's cards and wanted them to win.

Plus the co-deviation of the two players' aggression over the hands they were dealt together
(both off the model in the same hands), and the chips that went from one to the other in the
hands they met heads-up, which says who gave and who took (never evidence by itself: the
best players win honestly).

State is one ledger per table (a Kafka partition's key), idle players pruned.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from railbird.detectors.events import HandEvent
from railbird.detectors.play.hand_rank import evaluate_cards
from railbird.detectors.play.honest_model import HonestModel
from railbird.detectors.play.pair_evidence import Move, Pair, pair_of
from railbird.detectors.play.residuals import (
    RunningMeans,
    learn_styles,
    score_hand,
    withholds_cards,
)
from railbird.detectors.play.style import Style

Z_CLIP = 6.0  # one direction's spot z is bounded
KEEP_HANDS = 20
KEEP_MOVES = 6
_AGGRESSION, _CONTINUATION, _CARDS = range(3)
SPOTS = ("aggression", "continuation", "against_cards")
_BOARD_CARDS = (0, 3, 4, 5)


@dataclass(slots=True)
class HeadsUpRecord:
    dealt: int = 0  # hands dealt together
    heads_up: int = 0  # hands in which they met heads-up (a decision with only the other in)
    heads_up_flops: int = 0  # ... of which past the flop
    # Flat: (direction * 3 + spot) * 3 + (0 residual sum, 1 variance sum, 2 decisions);
    # direction 0 is the pair's first player acting against the second.
    spots: list[float] = field(default_factory=lambda: [0.0] * 18)
    aa: float = 0.0  # hand-level products of centred aggression residuals
    vaa: float = 0.0
    flow: int = 0  # chips from the first player to the second in the hands they met heads-up
    hands: list[str] = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class HeadsUpScore:
    pair: Pair
    toward: float  # pooled aggression toward each other, both directions
    against_cards: float  # the stronger direction's play against the other's cards
    against_cards_by: str  # ... whose it is
    co_aggression: float  # both off the model in the same hands (reported, not tested)
    donor: str  # who lost chips to the other in their heads-up hands
    dumping: float  # the donor's bets, raises and calls toward the other, and against the cards
    soft: float  # passivity toward each other, and play against the cards
    spot_z: tuple[tuple[float, ...], tuple[float, ...]]


@dataclass(slots=True)
class HeadsUpLedger:
    styles: dict[str, Style] = field(default_factory=dict)
    public: bool = False  # the stream has withheld hole cards (`withholds_cards`)
    means: RunningMeans = field(default_factory=RunningMeans)
    pairs: dict[Pair, HeadsUpRecord] = field(default_factory=dict)
    last_seen: dict[str, datetime] = field(default_factory=dict)

    def read(self, hand: HandEvent, model: HonestModel) -> list[Pair]:
        """Add one finished hand; returns the pairs that met heads-up in it."""
        self.public = self.public or withholds_cards(hand)
        scored = score_hand(hand, self.styles, model, complete_history=not self.public)
        holes = {s.player_id: s.hole_cards for s in hand.seats}
        per_player: dict[str, list[float]] = {}  # pid -> [A, VA]
        updates: list[tuple[str, str, float]] = []
        met: set[Pair] = set()
        for r in scored.residuals:
            d = r.decision
            i = d.player_id
            cell = "a1" if d.street > 0 else "a0"
            updates.append((i, cell, r.aggression))
            own = per_player.setdefault(i, [0.0, 0.0])
            own[0] += r.aggression - self.means.mean(i, cell)
            own[1] += r.aggression_var
            if len(d.live) != 1:
                continue
            j = d.live[0]
            pair = pair_of(i, j)
            met.add(pair)
            record = self.pairs.setdefault(pair, HeadsUpRecord())
            base = 0 if i == pair[0] else 9
            _add(record.spots, base + _AGGRESSION * 3, r.aggression, r.aggression_var)
            updates.append((i, "hu_a", r.aggression))
            residual = r.aggression
            variance = r.aggression_var
            if r.continuation is not None:
                _add(
                    record.spots,
                    base + _CONTINUATION * 3,
                    r.continuation,
                    r.continuation_var,
                )
                updates.append((i, "hu_c", r.continuation))
                residual += r.continuation
                variance += r.continuation_var
            standing = _standing(hand, holes, i, j, d.street)
            if standing != 0:
                signed = residual * standing
                _add(record.spots, base + _CARDS * 3, signed, variance)
                updates.append((i, "hu_ev", signed))
            if r.expected < 0.2:
                cards = "".join(holes.get(i) or ())
                _keep_move(record, Move(hand.hand_id, i, d.street, d.choice, r.expected, cards))
        for player, cell, value in updates:
            self.means.add(player, cell, value)
        dealt = sorted({s.player_id for s in hand.seats})
        for x, a in enumerate(dealt):
            for b in dealt[x + 1 :]:
                record = self.pairs.setdefault((a, b), HeadsUpRecord())
                record.dealt += 1
                ra, rb = per_player.get(a), per_player.get(b)
                if ra is not None and rb is not None:
                    record.aa += ra[0] * rb[0]
                    record.vaa += ra[1] * rb[1]
        for pair in met:
            record = self.pairs[pair]
            record.heads_up += 1
            if hand.board:
                record.heads_up_flops += 1
            record.flow += _flow(hand, pair)
            if hand.hand_id not in record.hands:
                record.hands.append(hand.hand_id)
                del record.hands[:-KEEP_HANDS]
        for pid in dealt:
            self.last_seen[pid] = hand.ended_at
        learn_styles(self.styles, scored.reading)
        return sorted(met)

    def score(self, pair: Pair) -> HeadsUpScore:
        record = self.pairs[pair]
        directions: list[tuple[float, ...]] = []
        for direction, actor in enumerate(pair):
            zs = []
            for k, cell in enumerate(("hu_a", "hu_c", "hu_ev")):
                at = (direction * 3 + k) * 3
                total, var, n = record.spots[at : at + 3]
                baseline = self.means.mean_without(actor, cell, total, n)
                z = (total - n * baseline) / math.sqrt(var) if var > 0 else 0.0
                zs.append(max(-Z_CLIP, min(Z_CLIP, z)))
            directions.append(tuple(zs))
        toward = (directions[0][_AGGRESSION] + directions[1][_AGGRESSION]) / math.sqrt(2.0)
        by = 0 if directions[0][_CARDS] >= directions[1][_CARDS] else 1
        cards = directions[by][_CARDS]
        co = record.aa / math.sqrt(record.vaa) if record.vaa > 0 else 0.0
        co = max(-Z_CLIP, min(Z_CLIP, co))
        # A donor plays off chips (bets and raises into the receiver, or calls it down) where
        # the model expects otherwise, and against the receiver's cards; an honest player
        # exploiting one opponent is aggressive toward them too, but wins the chips: the donor
        # is whoever lost them.
        giver = 0 if record.flow >= 0 else 1
        given = directions[giver]
        return HeadsUpScore(
            pair=pair,
            toward=toward,
            against_cards=cards,
            against_cards_by=pair[by],
            co_aggression=co,
            donor=pair[giver],
            dumping=_alone_or_with(max(given[_AGGRESSION], given[_CONTINUATION]), given[_CARDS]),
            soft=_alone_or_with(-toward, cards),
            spot_z=(directions[0], directions[1]),
        )

    def prune(self, now: datetime, idle: timedelta) -> frozenset[str]:
        """Forget players gone longer than `idle`, and every pair they were part of; returns
        who was forgotten (a detector drops what it keeps about their pairs too)."""
        gone = frozenset(p for p, seen in self.last_seen.items() if now - seen > idle)
        if not gone:
            return gone
        for pair in [p for p in self.pairs if gone.intersection(p)]:
            del self.pairs[pair]
        self.means.forget(gone)
        for pid in gone:
            self.styles.pop(pid, None)
            del self.last_seen[pid]
        return gone


def _alone_or_with(play: float, cards: float) -> float:
    """The play toward the other on its own, or with the play against the cards when that
    adds to it (a dumping by folds leaves no trace in the cards; one by calls does)."""
    return max(play, (play + cards) / math.sqrt(2.0))


def _add(sums: list[float], at: int, residual: float, variance: float) -> None:
    sums[at] += residual
    sums[at + 1] += variance
    sums[at + 2] += 1


def _keep_move(record: HeadsUpRecord, move: Move) -> None:
    record.moves.append(move)
    if len(record.moves) > KEEP_MOVES:
        record.moves.sort(key=lambda m: (m.expected, m.hand_id, m.player_id))
        del record.moves[KEEP_MOVES:]


def _standing(
    hand: HandEvent, holes: dict[str, tuple[str, ...] | None], i: str, j: str, street: int
) -> int:
    """+1 when i's hand is behind j's on the board as it stood, -1 ahead, 0 tied or unknown
    (preflop, or a hand the history does not show)."""
    mine, theirs = holes.get(i), holes.get(j)
    if street == 0 or not mine or not theirs or len(mine) != 2 or len(theirs) != 2:
        return 0
    board = list(hand.board[: _BOARD_CARDS[min(street, 3)]])
    if len(board) < 3:
        return 0
    a = evaluate_cards([*mine, *board])
    b = evaluate_cards([*theirs, *board])
    return 0 if a == b else (1 if a < b else -1)


def _flow(hand: HandEvent, pair: Pair) -> int:
    """Chips from the pair's first player to the second in a hand they met heads-up: what the
    loser had put in, when the other took the pot (negative when they went the other way)."""
    a, b = pair
    winners = {w.player_id for w in hand.winners}
    if (a in winners) == (b in winners):
        return 0
    put = 0
    loser = a if b in winners else b
    for act in hand.actions:
        if act.player_id == loser:
            put += act.amount
    return put if loser == a else -put
