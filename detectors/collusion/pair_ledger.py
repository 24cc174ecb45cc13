"""Per-table pair statistics for the cash-game collusion detectors (chip dumping, soft play).

Everything counted here happens *heads-up*: a decision taken when exactly one opponent is still
live. That is where a pair can pass chips or spare each other without a third player's money in
the way, and it makes the opponent of every decision unambiguous, so each count is directed
(player i against opponent j). A detector then contrasts i-against-j with i-against-everyone-else
at the same table, which cancels personal style (notes: directed contrast).

Hand strength comes from the operator's hole cards (`holding_strength`), so a correct fold with a
weak hand is never held against anyone and a check with a monster can be. Seats without known
cards (imported real hands) give no strength and are never counted as strong.

State is one `PairLedger` per table (routing key = table id), pruned of players not seen for a
while, so memory stays bounded on an endless stream.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from railbird.detectors.events import HandEvent

_RANKS = {r: i for i, r in enumerate("23456789TJQKA", start=2)}
_POSTS = frozenset({"post_sb", "post_bb", "post_ante", "post_dead"})
_STREET_CARDS = {"preflop": 0, "flop": 3, "turn": 4, "river": 5}
STRONG = 0.7  # holding_strength at or above this is a hand nobody folds or slow-plays for free


def preflop_strength(hole: tuple[str, ...]) -> float:
    """A rough [0, 1] preflop score: pairs by rank, then high cards, suitedness, connectedness.
    0.7 and up is roughly the top 12% of starting hands (88+, AQ+, AJs, KQs)."""
    a, b = sorted((_RANKS[hole[0][0]], _RANKS[hole[1][0]]), reverse=True)
    if a == b:
        return min(1.0, 0.5 + 0.04 * (a - 2)) if a >= 8 else 0.35 + 0.02 * (a - 2)
    score = (a - 2) / 12 * 0.5 + (b - 2) / 12 * 0.35
    score += 0.04 if hole[0][1] == hole[1][1] else 0.0
    score -= 0.03 * min(4, a - b - 1)
    return max(0.0, min(0.95, score))


def postflop_strength(hole: tuple[str, ...], board: tuple[str, ...]) -> float:
    """Made-hand class using at least one hole card: 0.9 sets and better, 0.8 two pair, 0.72
    top pair or overpair, 0.5 weaker pairs, 0.1 nothing. Draws are not strong hands."""
    ranks = [_RANKS[c[0]] for c in board]
    mine = [_RANKS[c[0]] for c in hole]
    cards = list(hole) + list(board)
    suits = [c[1] for c in cards]
    if any(suits.count(s) >= 5 and any(h[1] == s for h in hole) for s in "cdhs"):
        return 0.95
    allr = {_RANKS[c[0]] for c in cards} | ({1} if any(c[0] == "A" for c in cards) else set())
    for low in range(1, 11):
        run = set(range(low, low + 5))
        uses_mine = any(r in run or (r == 14 and low == 1) for r in mine)
        on_board = run <= (set(ranks) | ({1} if 14 in ranks else set()))
        if run <= allr and uses_mine and not on_board:
            return 0.92
    counts = {r: ranks.count(r) + mine.count(r) for r in set(ranks) | set(mine)}
    hit = sorted((counts[r] for r in set(mine)), reverse=True)
    if hit and hit[0] >= 3:
        return 0.9
    paired = [r for r in set(mine) if counts[r] >= 2]
    if len(paired) == 2 or (paired and any(ranks.count(r) >= 2 for r in ranks if r not in mine)):
        return 0.8 if len(paired) == 2 else 0.6
    if paired:
        top = max(ranks) if ranks else 0
        return 0.72 if max(paired) >= top else 0.5
    return 0.1


def holding_strength(hole: tuple[str, ...] | None, board: tuple[str, ...]) -> float | None:
    if hole is None or len(hole) != 2:
        return None  # unknown cards, or not hold'em: never strong, never weak
    return preflop_strength(hole) if not board else postflop_strength(hole, board)


@dataclass(frozen=True, slots=True)
class HeadsUp:
    """What player `actor` did in one hand while alone with `opponent`."""

    actor: str
    opponent: str
    aggressive_before: bool  # actor had bet or raised voluntarily earlier in the hand
    folded_to_opponent: bool  # actor folded facing the opponent's bet or raise
    fold_strength: float | None
    strong_spots: int  # heads-up decisions with a strong hand
    strong_aggressive: int  # ... of which the actor bet or raised
    aggressive: int  # heads-up decisions where the actor bet or raised
    postflop: int  # heads-up decisions after the flop
    put_in: int  # chips the actor had put in when the hand ended for them


# The last hand read and what was found in it: chip dumping and soft play both read every
# cash hand in turn, and this walk over its actions is most of their cost.
_last_read: tuple[HandEvent | None, tuple[HeadsUp, ...]] = (None, ())


def heads_up_play(hand: HandEvent) -> tuple[HeadsUp, ...]:
    """One record per player who took a decision heads-up, with that opponent."""
    global _last_read
    if _last_read[0] is hand:
        return _last_read[1]
    found = tuple(_heads_up_play(hand))
    _last_read = (hand, found)
    return found


def _heads_up_play(hand: HandEvent) -> list[HeadsUp]:
    holes = {s.player_id: s.hole_cards for s in hand.seats}
    live = {s.player_id for s in hand.seats}
    committed: dict[str, int] = {}
    put_in: dict[str, int] = {}
    street, max_bet, last_aggressor = "preflop", 0, ""
    aggressive: set[str] = set()
    records: dict[str, dict[str, object]] = {}
    for act in hand.actions:
        pid = act.player_id
        if act.street != street:
            street, max_bet, committed, last_aggressor = act.street, 0, {}, ""
        mine = committed.get(pid, 0)
        put_in[pid] = put_in.get(pid, 0) + act.amount
        total = act.to if act.to is not None and act.action in ("bet", "raise", "all_in") else None
        new_commit = total if total is not None else mine + act.amount
        raised = act.action in ("bet", "raise") or (act.action == "all_in" and new_commit > max_bet)
        if act.action in _POSTS:
            committed[pid] = new_commit
            max_bet = max(max_bet, new_commit)
            continue
        opponents = live - {pid}
        if len(opponents) == 1 and pid in live:
            rec = records.setdefault(
                pid, {"opp": next(iter(opponents)), "spots": 0, "aggr": 0, "all": 0, "post": 0}
            )
            rec["all"] = int(str(rec["all"])) + int(raised)
            rec["post"] = int(str(rec["post"])) + int(street != "preflop")
            board = hand.board[: _STREET_CARDS.get(street, 5)]
            s = holding_strength(holes.get(pid), tuple(board))
            if s is not None and s >= STRONG:
                rec["spots"] = int(str(rec["spots"])) + 1
                rec["aggr"] = int(str(rec["aggr"])) + int(raised)
            facing = max_bet > mine
            if act.action == "fold" and facing and last_aggressor == rec["opp"]:
                rec["fold"] = s
                rec["aggr_before"] = pid in aggressive
        if act.action == "fold":
            live.discard(pid)
        committed[pid] = new_commit
        if raised:
            max_bet, last_aggressor = new_commit, pid
            aggressive.add(pid)
    out = []
    for pid, rec in records.items():
        folded = "fold" in rec
        fold_s = rec.get("fold")
        out.append(
            HeadsUp(
                actor=pid,
                opponent=str(rec["opp"]),
                aggressive_before=bool(rec.get("aggr_before", False)),
                folded_to_opponent=folded,
                fold_strength=fold_s if isinstance(fold_s, float) else None,
                strong_spots=int(str(rec["spots"])),
                strong_aggressive=int(str(rec["aggr"])),
                aggressive=int(str(rec["all"])),
                postflop=int(str(rec["post"])),
                put_in=put_in.get(pid, 0),
            )
        )
    return out


@dataclass(slots=True)
class Counts:
    """Directed counts for actor -> opponent (or summed over opponents for baselines)."""

    hands: int = 0  # hands with a heads-up decision
    raise_folds: int = 0  # bet or raised, then folded to this opponent's aggression
    strong_folds: int = 0  # folded a strong hand to this opponent's aggression
    strong_hands: int = 0  # hands with a strong heads-up decision
    strong_passive: int = 0  # ... where the actor never bet or raised with it
    chips_folded: int = 0  # chips the actor gave up in raise-folds
    passive_hands: int = 0  # hands where the actor never bet or raised heads-up
    postflop_hands: int = 0  # hands with a heads-up decision after the flop
    postflop_passive: int = 0  # ... where the actor never bet or raised heads-up

    def add(self, other: Counts, sign: int = 1) -> None:
        self.hands += sign * other.hands
        self.raise_folds += sign * other.raise_folds
        self.strong_folds += sign * other.strong_folds
        self.strong_hands += sign * other.strong_hands
        self.strong_passive += sign * other.strong_passive
        self.chips_folded += sign * other.chips_folded
        self.passive_hands += sign * other.passive_hands
        self.postflop_hands += sign * other.postflop_hands
        self.postflop_passive += sign * other.postflop_passive

    def minus(self, other: Counts) -> Counts:
        out = Counts()
        out.add(self)
        out.add(other, -1)
        return out


def counts_of(play: HeadsUp) -> Counts:
    strong = play.strong_spots > 0
    raise_fold = play.folded_to_opponent and play.aggressive_before
    return Counts(
        hands=1,
        raise_folds=int(raise_fold),
        strong_folds=int(play.folded_to_opponent and (play.fold_strength or 0.0) >= STRONG),
        strong_hands=int(strong),
        strong_passive=int(strong and play.strong_aggressive == 0),
        chips_folded=play.put_in if raise_fold else 0,
        passive_hands=int(play.aggressive == 0),
        postflop_hands=int(play.postflop > 0),
        postflop_passive=int(play.postflop > 0 and play.aggressive == 0),
    )


@dataclass(slots=True)
class PairLedger:
    """One table's directed heads-up counts, with per-player baselines kept in step."""

    pairs: dict[tuple[str, str], Counts] = field(default_factory=dict)
    as_actor: dict[str, Counts] = field(default_factory=dict)
    as_opponent: dict[str, Counts] = field(default_factory=dict)
    table: Counts = field(default_factory=Counts)
    hands: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # notable hand ids
    shared: dict[frozenset[str], int] = field(default_factory=dict)  # hands dealt together
    first_hand: dict[frozenset[str], str] = field(default_factory=dict)
    last_seen: dict[str, datetime] = field(default_factory=dict)
    flagged: set[tuple[str, str]] = field(default_factory=set)

    def add_hand(self, hand: HandEvent) -> list[tuple[HeadsUp, Counts]]:
        dealt = sorted({s.player_id for s in hand.seats})
        for pid in dealt:
            self.last_seen[pid] = hand.ended_at
        for i, a in enumerate(dealt):
            for b in dealt[i + 1 :]:
                key = frozenset((a, b))
                self.shared[key] = self.shared.get(key, 0) + 1
        added = []
        for play in heads_up_play(hand):
            c = counts_of(play)
            pair = (play.actor, play.opponent)
            self.pairs.setdefault(pair, Counts()).add(c)
            self.as_actor.setdefault(play.actor, Counts()).add(c)
            self.as_opponent.setdefault(play.opponent, Counts()).add(c)
            self.table.add(c)
            added.append((play, c))
        return added

    def note(self, pair: tuple[str, str], hand_id: str, keep: int = 30) -> None:
        ids = self.hands.setdefault(pair, [])
        if hand_id not in ids:
            ids.append(hand_id)
            del ids[:-keep]

    def prune(self, now: datetime, idle: timedelta) -> None:
        """Forget players gone longer than `idle`, and every pair they were part of."""
        gone = {p for p, seen in self.last_seen.items() if now - seen > idle}
        if not gone:
            return
        for pair in [p for p in self.pairs if gone.intersection(p)]:
            c = self.pairs.pop(pair)
            self.as_actor[pair[0]].add(c, -1)
            self.as_opponent[pair[1]].add(c, -1)
            self.table.add(c, -1)
            self.hands.pop(pair, None)
            self.flagged.discard(pair)
        for key in [k for k in self.shared if gone.intersection(k)]:
            del self.shared[key]
            self.first_hand.pop(key, None)
        for p in gone:
            del self.last_seen[p]
            self.as_actor.pop(p, None)
            self.as_opponent.pop(p, None)
