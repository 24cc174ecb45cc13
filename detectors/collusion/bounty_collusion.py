"""Flags groups in a bounty tournament that play together against a target: their decisions
depart from honest play in the same hands, around each other, and mostly with one player in the
pot; planning in chat raises the severity, and on its own (a private message naming a target)
gives a low-severity flag.

The evidence is a learned model of honest decisions (`detectors.play`): every decision of the
tournament is compared with what an honest player would do with those cards, in that spot, at
that price, with that running style. A quiet team makes only a handful of moves that differ
from honest play; raw counts drown them, residuals against the model do not. Two statistics
per pair (`pair_evidence`): co-deviation (both depart from the model in the same hands) and
directed spots (raising into, coming along into and behind each other's pots, passivity when
only they have chips), each z-scored over the tournament's own pairs with enough shared hands,
combined, and flagged above `threshold`. The threshold and the statistics were set on simulated
tuning days; docs/quality-collusion.md has the measurements on days and tactics not used.

The target is the player most often in the pot in the hands where the pair deviated together.
A pair made of a flagged team's member and that team's target is not a new team: a target
answers a team's pressure off the model too. State is keyed by tournament id (chat plans by
sender id).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar

from railbird.detectors.collusion.name_directory import named_player, see_name
from railbird.detectors.collusion.planning_chat import (
    chat_tournament,
    group_key,
    is_bounty_plan,
    mentioned_names,
    planning_finding,
    remember_chat_tournament,
    remember_tournament,
)
from railbird.detectors.collusion_categories import INNOCENT_READINGS
from railbird.detectors.detector import Keying
from railbird.detectors.events import AnyEvent, ChatEvent, HandEvent, TableEvent
from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.detectors.play.honest_model import model_at
from railbird.detectors.play.pair_evidence import (
    SPOTS,
    Pair,
    PairScore,
    PlayLedger,
    describe_move,
    pair_of,
)
from railbird.detectors.state import State

_Plan = tuple[str | None, str, datetime, str | None]  # recipient, message id, ts, target


@dataclass(slots=True)
class TournamentPlay:
    """One bounty tournament's play ledger and what has been flagged from it."""

    ledger: PlayLedger = field(default_factory=PlayLedger)
    flagged: dict[Pair, str] = field(default_factory=dict)  # pair -> its target
    # pair -> shared hands when its score first went over the threshold (and stayed)
    above_since: dict[Pair, int] = field(default_factory=dict)
    knockouts: dict[str, list[str]] = field(default_factory=dict)  # busted player -> by whom
    busted: set[str] = field(default_factory=set)  # eliminated since the ledger last forgot
    bounty_seen: dict[str, int] = field(default_factory=dict)  # last bounty per player

    def group(self, pair: Pair) -> tuple[str, ...]:
        """The players linked to `pair` through flagged pairs."""
        group = set(pair)
        grew = True
        while grew:
            grew = False
            for a, b in self.flagged:
                if (a in group) != (b in group):
                    group |= {a, b}
                    grew = True
        return tuple(sorted(group))

    def explained(self, pair: Pair) -> bool:
        """A flagged team's member with that team's target: the target's answers to the team."""
        a, b = pair
        for (x, y), target in self.flagged.items():
            if (target == a and b in (x, y)) or (target == b and a in (x, y)):
                return True
        return False


@dataclass(frozen=True, slots=True)
class BountyCollusion:
    name: ClassVar[str] = "bounty_collusion"
    keyed_by: ClassVar[Keying] = "tournament"
    operator_settings: ClassVar[tuple[str, ...]] = ("model_dir",)
    threshold: float = 8.0  # combined robust z of a pair's play
    # The score is looked at after every shared hand, so an honest pair's random walk would
    # cross any fixed line sooner or later: a pair must stay over it for this many more shared
    # hands before it is flagged (a team's evidence keeps growing; a walk falls back).
    confirm_hands: int = 10
    min_shared_hands: int = 50
    min_reference_pairs: int = 100  # pairs with enough shared hands before anyone is judged
    refresh_every: int = 200  # hands between re-estimates of the honest pairs' spread
    min_co_deviation: float = 2.0  # robust z below which a pair is not scored in full
    # A team plays around each other (into pots the other is in, behind the other's raises);
    # a target answering a team co-deviates with each member but plays no spots around them.
    min_spots: float = 1.0
    # A team of three spreads its moves over three pairs: three pairs each over `trio_pair`
    # (with their spots) whose Stouffer sum passes `trio_threshold` flag the three.
    trio_pair: float = 5.0
    trio_threshold: float = 10.0
    high_margin: float = 4.0  # this far above the threshold, the flag is high severity
    # The honest-decision model (`railbird train-play --out DIR`); empty: the one shipped with
    # railbird. The operator's own histories teach it the site's players.
    model_dir: str = ""
    tournament_ttl: timedelta = timedelta(hours=8)
    plan_ttl: timedelta = timedelta(hours=6)
    names_ttl: timedelta = timedelta(hours=12)

    def __post_init__(self) -> None:
        """A model directory that cannot be loaded is refused when the detector is built
        (at start, or by a policy reload naming the line), never at the first hand."""
        if self.model_dir:
            model_at(self.model_dir)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if isinstance(event, ChatEvent):  # nearly every event of the site: kept short
            remember_chat_tournament(event, state)
            # Names are known per tournament: a plan's target plays where the plan is made.
            where = event.tournament_id or state.get((event.player_id, "tournament"))
            if where is not None:
                see_name(state, event.screen_name, event.player_id, self.names_ttl, where)
            if event.kind != "text" or not is_bounty_plan(event.text):
                return []
            return self._plan(event, state)
        return self._on_play(event, state)

    def _on_play(self, event: HandEvent | TableEvent, state: State) -> list[Finding]:
        remember_tournament(event, state)
        if not isinstance(event, HandEvent) or event.tournament_id is None:
            return []
        if not any(s.bounty for s in event.seats):
            return []
        key = (event.tournament_id, "bounty_play")
        trn: TournamentPlay = state.get(key) or TournamentPlay()
        ledger = trn.ledger
        touched = ledger.read(event, model_at(self.model_dir))
        for seat in event.seats:
            if seat.bounty:
                trn.bounty_seen[seat.player_id] = seat.bounty
        for out in event.eliminated:
            trn.knockouts[out.player_id] = list(out.by)
        if ledger.hands_seen - ledger.refreshed_at >= self.refresh_every:
            # (a player dealt in this hand has re-entered: kept until busted again)
            gone = trn.busted - {seat.player_id for seat in event.seats}
            if gone:
                ledger.forget(gone)
                for pair in [p for p in trn.above_since if gone.intersection(p)]:
                    del trn.above_since[pair]
            trn.busted.clear()
            ledger.refresh(self.min_shared_hands, self.min_reference_pairs)
        findings: list[Finding] = []
        ready = ledger.reference.pairs >= self.min_reference_pairs
        if not ready:
            self._forget_eliminated(trn, event)
            state.put(key, trn, self.tournament_ttl)
            return findings
        for pair in touched:
            if ledger.pairs[pair].shared < self.min_shared_hands or pair in trn.flagged:
                continue
            # The combined score needs the co-deviation well above the honest pairs' spread
            # (the spots alone are bounded), so most pairs stop at this cheap look.
            if ledger.co_deviation(pair) < self.min_co_deviation:
                trn.above_since.pop(pair, None)
                continue
            scored = ledger.score(pair)
            if scored.robust_spots < self.min_spots or trn.explained(pair):
                trn.above_since.pop(pair, None)
                continue
            if scored.score < self.threshold:
                trn.above_since.pop(pair, None)
                third = self._third(trn, pair, scored)
                if third is not None:
                    findings.append(self._flag(trn, scored, event, state, third))
                continue
            since = trn.above_since.setdefault(pair, ledger.pairs[pair].shared)
            if ledger.pairs[pair].shared - since < self.confirm_hands:
                continue
            trn.above_since.pop(pair, None)
            findings.append(self._flag(trn, scored, event, state))
        self._forget_eliminated(trn, event)
        state.put(key, trn, self.tournament_ttl)
        return findings

    @staticmethod
    def _forget_eliminated(trn: TournamentPlay, hand: HandEvent) -> None:
        """A busted player plays no more hands: their pairs, style and averages go at the next
        refresh (one sweep of the pairs for many players), so a tournament's state shrinks as
        its field does. Who knocked out whom is kept."""
        trn.busted.update(out.player_id for out in hand.eliminated)

    def _third(self, trn: TournamentPlay, pair: Pair, scored: PairScore) -> str | None:
        """A third player whose pairs with both of `pair` stand out too, enough together."""
        if scored.score < self.trio_pair:
            return None
        a, b = pair
        pairs = trn.ledger.pairs
        best: tuple[float, str] | None = None
        for other in sorted({p for key in pairs if a in key for p in key} - {a, b}):
            with_a, with_b = pairs.get(pair_of(a, other)), pairs.get(pair_of(b, other))
            if with_a is None or with_b is None:
                continue
            # The records' last scores pick the candidates; both pairs are scored afresh
            # against the current reference before they count.
            if any(
                r.shared < self.min_shared_hands or r.combined < self.trio_pair
                for r in (with_a, with_b)
            ):
                continue
            fresh = [trn.ledger.score(pair_of(m, other)) for m in (a, b)]
            if any(f.score < self.trio_pair or f.robust_spots < self.min_spots for f in fresh):
                continue
            total = (scored.score + fresh[0].score + fresh[1].score) / math.sqrt(3.0)
            if total >= self.trio_threshold and (best is None or total > best[0]):
                best = (total, other)
        return None if best is None else best[1]

    def _flag(
        self,
        trn: TournamentPlay,
        scored: PairScore,
        hand: HandEvent,
        state: State,
        third: str | None = None,
    ) -> Finding:
        pair = scored.pair
        record = trn.ledger.pairs[pair]
        ranked = sorted((record.targets or {}).items(), key=lambda kv: (-kv[1], kv[0]))
        ranked = [(t, w) for t, w in ranked if t != third]
        target = ranked[0][0] if ranked else None
        trn.flagged[pair] = target or ""
        if third is not None:
            for member in pair:
                trn.flagged[pair_of(member, third)] = target or ""
        group = trn.group(pair)
        plans = self._plans(group, state)
        knockouts = sum(
            1 for by in ([] if target is None else trn.knockouts.get(target, [])) if by in group
        )
        strong = bool(plans) or knockouts > 0
        severity: Severity = (
            "high" if strong or scored.score >= self.threshold + self.high_margin else "medium"
        )
        plan_ids = [m for _, m, _, _ in plans]
        moves = [describe_move(m) for m in record.moves or ()]
        weight = sum(v for _, v in ranked)
        share = round(ranked[0][1] / weight, 2) if ranked and weight > 0 else 0.0
        spots = ", ".join(
            f"{name} {max(scored.spot_z[0][k], scored.spot_z[1][k]):+.1f}"
            for k, name in enumerate(SPOTS)
        )
        summary = (
            f"{' and '.join(pair)} depart from honest play together: in {record.shared} shared "
            f"hands their decisions to continue or fold co-deviate (z={scored.co_deviation:.1f}) "
            f"and their moves around each other stand out ({spots}); combined "
            f"z={scored.score:.1f} against the tournament's {trn.ledger.reference.pairs} "
            f"pairs (flag at {self.threshold:g})"
            + (f"; with {third}, whose play with each of them stands out too" if third else "")
            + (f"; most often against {target}" if target else "")
            + (f"; {knockouts} knockout(s) of {target} by the group" if knockouts else "")
            + (f"; planned in chat {', '.join(plan_ids)}" if plan_ids else "")
            + (f". E.g. {moves[0]}" if moves else "")
        )
        return Finding(
            detector=self.name,
            category="bounty_collusion",
            severity=severity,
            score=round(min(0.99, 0.6 + 0.02 * scored.score + (0.1 if plans else 0.0)), 3),
            ts=hand.ended_at,
            player_ids=group,
            tournament_id=hand.tournament_id,
            table_id=hand.table_id,
            hand_id=hand.hand_id,
            message_ids=tuple(plan_ids),
            dedupe_key=group_key(hand.tournament_id, group),
            evidence=Evidence(
                kind="play_against_model",
                summary=summary,
                event_ids=tuple(record.hands or ()),
                measures={
                    "shared_hands": record.shared,
                    "co_deviation_z": round(scored.co_deviation, 3),
                    "spots_z": round(scored.spots, 3),
                    "robust_co_deviation_z": round(scored.robust_co, 3),
                    "robust_spots_z": round(scored.robust_spots, 3),
                    "combined_z": round(scored.score, 3),
                    "threshold": self.threshold,
                    "reference_pairs": trn.ledger.reference.pairs,
                    "spot_z_first_acting": [round(z, 2) for z in scored.spot_z[0]],
                    "spot_z_second_acting": [round(z, 2) for z in scored.spot_z[1]],
                    "target_share": share,
                    "knockouts_of_target": knockouts,
                    "planning_messages": plan_ids,
                    "model_version": model_at(self.model_dir).version,
                },
                details={
                    "target": target,
                    "target_bounty": trn.bounty_seen.get(target or "", None),
                    "pair": list(pair),
                    "group": list(group),
                    "surprising_moves": moves,
                    "innocent_reading": INNOCENT_READINGS["bounty_collusion"],
                },
            ),
        )

    def _plan(self, event: ChatEvent, state: State) -> list[Finding]:
        """A bounty plan (`detect` has checked the text): remember it, flag it if private."""
        target = self._resolve(event, state)
        key = (event.player_id, "bounty_plan")
        plans: list[_Plan] = list(state.get(key, []))
        plans.append((event.recipient_id, event.message_id, event.ts, target))
        state.put(key, plans[-20:], self.plan_ttl)
        return planning_finding(
            detector=self.name,
            category="bounty_collusion",
            event=event,
            state=state,
            kind="bounty_planning_chat",
            score=0.55,
            summary=(
                f"{event.player_id} privately proposed to {event.recipient_id} ganging "
                f"up on {target or 'a player'} ({event.message_id}); no supporting hands"
            ),
            details={"target": target},
        )

    def _resolve(self, event: ChatEvent, state: State) -> str | None:
        """The player a plan names, from screen names seen in chat (never the two planners)."""
        planners = {event.player_id, event.recipient_id}
        where = chat_tournament(event, state)
        if where is None:
            return None
        for word in sorted(mentioned_names(event.text), key=len, reverse=True):
            player = named_player(state, word, self.names_ttl, where)
            if player is not None and player not in planners:
                return player
        return None

    @staticmethod
    def _plans(group: tuple[str, ...], state: State) -> list[_Plan]:
        """Planning messages between members of the group (or broadcast by one of them)."""
        found: list[_Plan] = []
        for me in group:
            for plan in state.get((me, "bounty_plan"), []):
                if plan[0] is None or (plan[0] in group and plan[0] != me):
                    found.append(plan)
        return sorted(found, key=lambda p: p[2])
