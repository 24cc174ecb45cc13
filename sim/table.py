"""One table: seats, the button, and playing a hand with everything a real table emits around it.

Tournament and cash-game code own who sits where and when; this module turns "deal a hand now"
into `hand_start`, the engine's hand history, `hand_end`, timeouts, and the chat around the hand.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from railbird.sim import table_chat
from railbird.sim.config import SimConfig
from railbird.sim.holdem import play_hand
from railbird.sim.players import Player, TimeoutPolicy
from railbird.sim.positional_players import honest_policy
from railbird.sim.stream import Outbox, from_ms, to_ms
from railbird.sim.table_view import HandResult, Policy, SeatState
from railbird.sim.teams import Team

# (ms, action, player, token): the owner's agenda for sit-outs and drops that outlive a hand.
Schedule = Callable[[int, str, Player, int], None]


@dataclass(slots=True)
class TableRun:
    table_id: str
    tournament_id: str | None
    size: int
    out: Outbox
    cfg: SimConfig
    rng: random.Random
    schedule: Schedule
    clock: int
    seats: dict[int, Player] = field(default_factory=dict)
    railbirds: list[Player] = field(default_factory=list)
    policies: dict[str, Policy] = field(default_factory=dict)
    button: int = 0
    hands: int = 0
    last_ended: int = 0
    # Table-channel messages that may land in a later hand: (ms, message_id, violation truth).
    carried: list[tuple[int, str, dict[str, Any] | None]] = field(default_factory=list)
    # Sent on `join` and `hand_start`: a cash table's level and format (contract, optional).
    extra: dict[str, Any] = field(default_factory=dict)
    # Hands each seated player was dealt since their join (the refusal rule counts them).
    session_hands: dict[str, int] = field(default_factory=dict)

    def free_seats(self) -> list[int]:
        return [s for s in range(1, self.size + 1) if s not in self.seats]

    def seat(self, player: Player, seat: int, ms: int, policy: Policy | None = None) -> None:
        self.seats[seat] = player
        player.table_id, player.seat, player.available_ms = self.table_id, seat, ms
        self.policies[player.pid] = policy or self.policies.get(player.pid) or honest_policy(player)
        self.session_hands[player.pid] = 0
        self.out.table(
            ms, self.table_id, self.tournament_id, "join", player.pid, seat, extra=self.extra
        )

    def unseat(self, player: Player, ms: int) -> None:
        if player.seat is not None and self.seats.get(player.seat) is player:
            del self.seats[player.seat]
            self.session_hands.pop(player.pid, None)
            self.out.table(ms, self.table_id, self.tournament_id, "leave", player.pid, player.seat)
        player.table_id = player.seat = None

    def play(self, small_blind: int, big_blind: int, ante: int) -> HandResult | None:
        """Deal one hand at `clock`; returns None when fewer than two players can be dealt in."""
        start = self.clock
        # A cash table deals no one sitting out; a tournament deals them in to be blinded off.
        cash = self.tournament_id is None
        dealt = [
            p
            for _, p in sorted(self.seats.items())
            if p.available_ms <= start and p.stack and not (cash and p.out_token)
        ]
        if len(dealt) < 2:
            return None
        seats_in = [p.seat or 0 for p in dealt]
        self.button = next((s for s in seats_in if s > self.button), seats_in[0])
        out, rng = self.out, self.rng
        hand_id = out.ids.hand()
        out.table(
            start,
            self.table_id,
            self.tournament_id,
            "hand_start",
            hand_id=hand_id,
            players=[p.pid for p in dealt],
            extra=self.extra,
        )
        for p in dealt:
            self.session_hands[p.pid] = self.session_hands.get(p.pid, 0) + 1
        policies: dict[str, Policy] = {}
        timed_out: list[Player] = []
        for p in dealt:
            if not p.away and p.timeout_per_hand and rng.random() < p.timeout_per_hand:
                policies[p.pid] = TimeoutPolicy()
                timed_out.append(p)
            else:
                policies[p.pid] = self.policies[p.pid]
        result = play_hand(
            hand_id=hand_id,
            table_id=self.table_id,
            tournament_id=self.tournament_id,
            started_at=from_ms(start),
            button_seat=self.button,
            seats=[SeatState(p.seat or 0, p.pid, p.stack, p.bounty, p.away) for p in dealt],
            small_blind=small_blind,
            big_blind=big_blind,
            ante=ante,
            policies=policies,
            rng=rng,
        )
        end = to_ms(result.ended_at)
        out.table(end, self.table_id, self.tournament_id, "hand_end", hand_id=hand_id)
        out.put(end, result.hand)
        for p in timed_out:
            fold = result.fold_times.get(p.pid)
            if fold is not None:
                out.table(to_ms(fold), self.table_id, self.tournament_id, "timeout", p.pid, p.seat)
                if rng.random() < 0.5:  # the site sits out a player who timed out
                    token = rng.randrange(1, 1 << 30)
                    self.schedule(end + 200, "sit_out", p, token)
                    self.schedule(end + rng.randint(20_000, 240_000), "sit_in", p, token)
        self._settle(dealt, result, start, big_blind)
        self.hands += 1
        self.last_ended = end
        gap = table_chat.around_hand(self, dealt, result, start, end, big_blind)
        self._overlap(hand_id, start, end)
        self.clock = end + max(gap, rng.randint(2_500, 6_000))
        return result

    def carry(self, ms: int, message_id: str, truth: dict[str, Any] | None) -> None:
        """Remember a table message whose hand, if any, is only known once it is dealt."""
        self.carried.append((ms, message_id, truth))

    def _overlap(self, hand_id: str, start: int, end: int) -> None:
        """Label the carried messages said while `hand_id` was in play. Their truth records are
        still in the outbox (nothing after this table's clock has been released), so a
        violation's record gains the hand and, per the house rule, `in_hand_influence` as an
        accepted category; honest ones become `in_hand_small_talk` hard negatives."""
        keep: list[tuple[int, str, dict[str, Any] | None]] = []
        for ms, message_id, truth in self.carried:
            if ms <= start:
                continue
            if ms >= end:
                keep.append((ms, message_id, truth))
            elif truth is not None:
                truth["hand_id"] = hand_id
                truth["table_id"] = self.table_id
                if "in_hand_influence" not in truth["accept"]:
                    truth["accept"] = [*truth["accept"], "in_hand_influence"]
            elif self.cfg.hard_negatives:
                self.out.truth(
                    ms,
                    {
                        "hard_negative": "in_hand_small_talk",
                        "message_id": message_id,
                        "hand_id": hand_id,
                        "table_id": self.table_id,
                    },
                )
        self.carried = keep

    def _settle(self, dealt: list[Player], result: HandResult, start: int, bb: int) -> None:
        stacks = result.final_stacks
        teams: set[int] = set()
        dealt_ids = {p.pid for p in dealt}
        for p in dealt:
            before = p.stack
            p.stack = stacks[p.pid]
            if p.tilt_hands:
                p.tilt_hands -= 1
            if p.tilter and before - p.stack > 25 * bb:
                p.tilt_hands = self.rng.randint(5, 25)
            team = p.team
            if isinstance(team, Team) and id(team) not in teams:
                teams.add(id(team))
                team.settle(result.hand["hand_id"], start, dealt_ids)
