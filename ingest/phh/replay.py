"""Replays one PHH hand in pokerkit and reads the contract's `hand` fields off its operations.

Why replay: PHH records only raw actions; the chips each action puts in, who won which pot and
the final stacks follow from the rules, and the dataset's `winnings` are often wrong (all zeros
in most PokerStars hands). The amounts given here are already integers (see `phh_import`).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pokerkit import (
    AntePosting,
    BlindOrStraddlePosting,
    BoardDealing,
    CheckingOrCalling,
    ChipsPushing,
    CompletionBettingOrRaisingTo,
    Folding,
    HandHistory,
    HoleCardsShowingOrMucking,
    HoleDealing,
)

GAMES = {"NT": "NLHE", "PO": "PLO"}
STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}
_VOLUNTARY = Folding | CheckingOrCalling | CompletionBettingOrRaisingTo


def rfc3339(moment: datetime) -> str:
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def _card(card: Any) -> str | None:
    text = repr(card)
    return None if "?" in text else text


def _cards(cards: Any) -> list[str] | None:
    """All the cards, or None if any is unknown (`??`)."""
    known = [c for c in map(_card, cards) if c]
    return known if known and len(known) == len(cards) else None


class _Replay:
    """Walks the operation log once, keeping stacks and street bets as a dealer would."""

    def __init__(self, ids: list[str], stacks: list[int], start: datetime, step: Any) -> None:
        n = len(ids)
        self.ids, self.stacks, self.clock, self.step = ids, stacks, start, step
        self.street_bet = [0] * n
        self.holes: list[list[str] | None] = [None] * n
        self.board: list[str] = []
        self.actions: list[dict[str, Any]] = []
        self.showdown: list[dict[str, Any]] = []
        self.pushes: list[tuple[int, int, str]] = []  # (player index, amount, pot)
        self.small_posts: list[int] = []

    def act(self, i: int, kind: str, amount: int, to: int | None = None) -> None:
        self.stacks[i] -= amount
        if kind in {"call", "bet", "raise"} and self.stacks[i] == 0:
            kind = "all_in"
        record: dict[str, Any] = {"ts": rfc3339(self.clock), "street": STREETS[len(self.board)]}
        record |= {"player_id": self.ids[i], "action": kind, "amount": amount}
        if to is not None or kind == "all_in":
            record["to"] = self.street_bet[i]
        self.actions.append(record)

    def apply(self, op: Any, big_blind: int) -> None:
        if isinstance(op, _VOLUNTARY):
            self.clock += self.step
        if isinstance(op, AntePosting):
            self.act(op.player_index, "post_ante", op.amount)
        elif isinstance(op, BlindOrStraddlePosting):
            self.street_bet[op.player_index] += op.amount
            kind = "post_bb" if op.amount >= big_blind else "post_sb"
            if kind == "post_sb":
                self.small_posts.append(op.player_index)
            self.act(op.player_index, kind, op.amount)
        elif isinstance(op, HoleDealing):
            dealt = _cards(op.cards)
            if dealt:
                self.holes[op.player_index] = [*(self.holes[op.player_index] or []), *dealt]
        elif isinstance(op, BoardDealing):
            self.board.extend(c for c in map(_card, op.cards) if c)
            self.street_bet = [0] * len(self.ids)
        elif isinstance(op, Folding):
            self.act(op.player_index, "fold", 0)
        elif isinstance(op, CheckingOrCalling):
            self.street_bet[op.player_index] += op.amount
            self.act(op.player_index, "call" if op.amount else "check", op.amount)
        elif isinstance(op, CompletionBettingOrRaisingTo):
            i = op.player_index
            kind = "raise" if max(self.street_bet) > 0 else "bet"
            put_in, self.street_bet[i] = op.amount - self.street_bet[i], op.amount
            self.act(i, kind, put_in, op.amount)
        elif isinstance(op, HoleCardsShowingOrMucking):
            shown = _cards(op.hole_cards)
            if shown:
                self.holes[op.player_index] = shown
            player = self.ids[op.player_index]
            # pokerkit may first auto-show "nothing" then the recorded cards (runouts): keep one
            # entry per player, with the cards once known.
            self.showdown = [e for e in self.showdown if e["player_id"] != player]
            self.showdown.append({"player_id": player, "cards": shown})
        elif isinstance(op, ChipsPushing):
            pot = "main" if op.pot_index == 0 else f"side-{op.pot_index}"
            self.pushes.extend((i, a, pot) for i, a in enumerate(op.amounts) if a)


def uncalled_bets(actions: list[dict[str, Any]]) -> dict[str, int]:
    """Per street, the top bettor's excess over the next-highest bet goes back to them.

    Antes are dead money and never "called", so they are left out.
    """
    refunds: dict[str, int] = {}
    for street in STREETS.values():
        bets: dict[str, int] = {}
        for a in actions:
            if a["street"] == street and a["action"] != "post_ante":
                bets[a["player_id"]] = bets.get(a["player_id"], 0) + a["amount"]
        ranked = [*sorted(bets.values(), reverse=True), 0, 0]
        if ranked[0] > ranked[1]:
            top = max(bets, key=bets.__getitem__)
            refunds[top] = refunds.get(top, 0) + ranked[0] - ranked[1]
    return refunds


def winners_of(run: _Replay, final: list[int], start: list[int]) -> list[dict[str, Any]]:
    """Winner entries in the simulator's convention: pot shares, uncalled bets excluded.

    pokerkit leaves the bets of a player everyone folded to uncollected, so its pushes can
    undercount that pot; the final stacks cannot lie: what a player won is final - (start -
    put in) - their uncalled bets. The difference is added to their first pot.
    """
    refunds = uncalled_bets(run.actions)
    winners: list[dict[str, Any]] = []
    for i, player in enumerate(run.ids):
        put_in = sum(a["amount"] for a in run.actions if a["player_id"] == player)
        won = final[i] - start[i] + put_in - refunds.get(player, 0)
        mine: list[dict[str, Any]] = [
            {"player_id": player, "amount": a, "pot": pot} for j, a, pot in run.pushes if j == i
        ]
        extra = won - sum(int(w["amount"]) for w in mine)
        if extra < 0:
            raise ValueError(f"player {player}: pushes exceed what the final stack shows")
        if extra and not mine:
            mine = [{"player_id": player, "amount": 0, "pot": "main"}]
        if mine:
            mine[0]["amount"] += extra
        winners.extend(mine)
    return sorted(winners, key=lambda w: (w["pot"] != "main", w["pot"]))


def replay(
    history: HandHistory, hand_id: str, table_id: str, start: datetime, end: datetime
) -> dict[str, Any]:
    """One hand (all amounts already integers) as a contract `hand` record."""
    state = None
    for state in history:  # noqa: B007 — the replay mutates one state; we want the last
        pass
    assert state is not None
    starting = [int(v) for v in history.starting_stacks or ()]
    n = len(starting)
    ids = [str(p) for p in history.players] if history.players else []
    ids = ids or [f"{hand_id}-p{i + 1}" for i in range(n)]
    seats = [int(s) for s in history.seats] if history.seats else list(range(1, n + 1))
    blinds = [int(v) for v in history.blinds_or_straddles or ()]
    big_blind = max(blinds, default=0)
    voluntary = sum(1 for op in state.operations if isinstance(op, _VOLUNTARY))
    run = _Replay(ids, list(starting), start, (end - start) / (voluntary + 1))
    for op in state.operations:
        run.apply(op, big_blind)
    final = [int(v) for v in state.stacks]
    button = run.small_posts[0] if n == 2 and run.small_posts else n - 1
    return {
        "type": "hand",
        "hand_id": hand_id,
        "table_id": table_id,
        "tournament_id": None,
        "game": GAMES.get(str(history.variant), str(history.variant)),
        "started_at": rfc3339(start),
        "ended_at": rfc3339(end),
        "button_seat": seats[button],
        "small_blind": min((b for b in blinds if b > 0), default=0),
        "big_blind": big_blind,
        "ante": max((int(v) for v in history.antes or ()), default=0),
        "seats": [
            {"seat": seats[i], "player_id": ids[i], "stack": starting[i], "bounty": None}
            | {"hole_cards": run.holes[i]}
            for i in range(n)
        ],
        "actions": run.actions,
        "board": run.board,
        "showdown": run.showdown,
        "winners": winners_of(run, final, starting),
        "eliminated": [],
        # Extra field (the contract keeps unknown ones): where the hand came from.
        "phh": {"hand": history.hand, "venue": history.venue, "final_stacks": final},
    }
