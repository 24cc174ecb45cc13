"""What a finished hand says about who fought whom: the facts collusion detectors count.

One pass over the actions gives: each player's first preflop choice and who was still live
then, who opened preflop, who faced that open and how they answered
(fold, call, re-raise), who was still live when a re-raise came (the player squeezed between two
raisers), who went all-in, whether the players left behind an all-in player then bet at all
(the check-down), heads-up postflop pots and who bet in them, and who took each knockout.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from railbird.detectors.events import HandEvent

_POSTS = frozenset({"post_sb", "post_bb", "post_ante", "post_dead"})
_AGGRESSIVE = frozenset({"bet", "raise"})
_ENTERING = frozenset({"call", "bet", "raise", "all_in"})


@dataclass(frozen=True, slots=True)
class FacedOpen:
    """A player acting on the preflop open (exactly one raise so far): fold, call or re-raise."""

    player_id: str
    opener: str
    reraised: bool
    folded: bool


@dataclass(frozen=True, slots=True)
class Decision:
    """A player's first preflop choice, and who had already folded by then: the raw material
    of the co-entry contrast (does this player join pots more when a given opponent is live?)."""

    player_id: str
    entered: bool  # called, raised or went all-in (a big blind's check is not entering)
    folded_before: frozenset[str]
    acted_before: frozenset[str]  # everyone who had made a first choice by then


@dataclass(frozen=True, slots=True)
class Squeeze:
    """Opener and re-raiser with `caught` still live between or behind them."""

    opener: str
    reraiser: str
    caught: tuple[str, ...]
    opener_folded: bool  # the opener then gave up to the re-raise


@dataclass(frozen=True, slots=True)
class CheckDown:
    """Players left behind an all-in player who then never bet or raised each other."""

    all_in: str
    others: tuple[str, ...]
    streets_checked: int


@dataclass(slots=True)
class HandFeatures:
    hand_id: str
    dealt: tuple[str, ...]
    bounties: dict[str, int]
    faced_opens: list[FacedOpen] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    squeeze: Squeeze | None = None
    all_ins: list[str] = field(default_factory=list)
    checkdowns: list[CheckDown] = field(default_factory=list)
    knockouts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    heads_up: tuple[str, str] | None = None  # the two players who saw a flop alone
    heads_up_bets: dict[str, int] = field(default_factory=dict)  # bets/raises in that pot
    heads_up_checks: dict[str, int] = field(default_factory=dict)  # checks when free to bet

    @property
    def is_bounty(self) -> bool:
        return bool(self.bounties)


def hand_features(hand: HandEvent) -> HandFeatures:
    feats = HandFeatures(
        hand_id=hand.hand_id,
        dealt=tuple(s.player_id for s in hand.seats),
        bounties={s.player_id: s.bounty for s in hand.seats if s.bounty},
    )
    _preflop(hand, feats)
    _all_ins_and_checkdowns(hand, feats)
    _heads_up(hand, feats)
    feats.knockouts = {e.player_id: tuple(e.by) for e in hand.eliminated if e.by}
    return feats


def _is_raise(action: str, to: int | None, committed: int, amount: int, max_bet: int) -> bool:
    if action in _AGGRESSIVE:
        return True
    if action == "all_in":
        return (to if to is not None else committed + amount) > max_bet
    return False


def _preflop(hand: HandEvent, feats: HandFeatures) -> None:
    committed: dict[str, int] = {}
    max_bet = 0
    raises = 0
    opener: str | None = None
    folded: set[str] = set()
    decided: set[str] = set()
    squeeze: Squeeze | None = None
    for act in hand.actions:
        if act.street != "preflop":
            break
        pid = act.player_id
        put = committed.get(pid, 0)
        if act.action in _POSTS:
            if act.action != "post_ante":
                committed[pid] = put + act.amount
                max_bet = max(max_bet, committed[pid])
            continue
        raised = _is_raise(act.action, act.to, put, act.amount, max_bet)
        if pid not in decided:
            entered = act.action in _ENTERING
            feats.decisions.append(Decision(pid, entered, frozenset(folded), frozenset(decided)))
            decided.add(pid)
        if raises == 1 and opener is not None and pid != opener:
            feats.faced_opens.append(FacedOpen(pid, opener, raised, act.action == "fold"))
        if squeeze is not None and pid == squeeze.opener and not squeeze.opener_folded:
            squeeze = Squeeze(
                squeeze.opener, squeeze.reraiser, squeeze.caught, act.action == "fold"
            )
        if act.action == "fold":
            folded.add(pid)
        committed[pid] = act.to if act.to is not None and raised else put + act.amount
        if raised:
            raises += 1
            max_bet = committed[pid]
            if raises == 1:
                opener = pid
            elif raises == 2 and opener is not None and squeeze is None:
                caught = tuple(p for p in feats.dealt if p not in folded and p not in (opener, pid))
                squeeze = Squeeze(opener, pid, caught, False)
    feats.squeeze = squeeze


def _all_ins_and_checkdowns(hand: HandEvent, feats: HandFeatures) -> None:
    """After a player is all-in, did the players still able to bet ever bet each other?"""
    stacks = {s.player_id: s.stack for s in hand.seats}
    spent: dict[str, int] = {}
    folded: set[str] = set()
    all_in_at: dict[str, int] = {}  # player -> index of the action that put them all-in
    for idx, act in enumerate(hand.actions):
        if act.action == "fold":
            folded.add(act.player_id)
        spent[act.player_id] = spent.get(act.player_id, 0) + act.amount
        if act.player_id not in all_in_at and (
            act.action == "all_in" or spent[act.player_id] >= stacks.get(act.player_id, 1 << 62)
        ):
            all_in_at[act.player_id] = idx
    feats.all_ins = list(all_in_at)
    for target, idx in all_in_at.items():
        others = tuple(
            p for p in feats.dealt if p != target and p not in folded and p not in all_in_at
        )
        if len(others) < 2:
            continue
        later = hand.actions[idx + 1 :]
        streets = {a.street for a in later if a.street != hand.actions[idx].street}
        if not streets:
            continue
        if any(a.action in _AGGRESSIVE or a.action == "all_in" for a in later):
            continue
        feats.checkdowns.append(CheckDown(target, others, len(streets)))


def _heads_up(hand: HandEvent, feats: HandFeatures) -> None:
    """Two players alone on the flop, neither all-in: did either ever bet the other?"""
    pre = [a for a in hand.actions if a.street == "preflop"]
    post = [a for a in hand.actions if a.street != "preflop"]
    if not post:
        return
    folded = {a.player_id for a in pre if a.action == "fold"}
    live = [p for p in feats.dealt if p not in folded]
    if len(live) != 2 or any(p in feats.all_ins for p in live):
        return
    a, b = sorted(live)
    feats.heads_up = (a, b)
    feats.heads_up_bets = {a: 0, b: 0}
    feats.heads_up_checks = {a: 0, b: 0}
    street, facing = "", False
    for act in post:
        if act.street != street:
            street, facing = act.street, False
        if act.player_id not in feats.heads_up_bets:
            continue
        if act.action in _AGGRESSIVE or act.action == "all_in":
            if not facing:
                feats.heads_up_bets[act.player_id] += 1
            facing = True
        elif act.action == "check" and not facing:
            feats.heads_up_checks[act.player_id] += 1
