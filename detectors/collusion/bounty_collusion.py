"""Flags groups in a bounty tournament that gang up on one target: raise and re-raise around them,
check it down once they are all-in, take the knockout, and plan it in chat.

The core statistic is a contrast, never a win rate: how often player j re-raises player i's open,
against how often j re-raises anybody else's open from a similar stack depth (see
`bounty_ledger`). Honest re-raises do not care who opened; a team's sandwich re-raises do. The
target is the player most often caught live between the pair's raises. Check-downs of a dry side
pot are legitimate and are only supporting evidence (named in the summary) once the re-raise
contrast has already singled out the pair. Planning chat raises the severity, and on its own
(a private message naming the target) gives a low-severity flag.

Three pair tests, each a Bonferroni family of its own: re-raises (every pair that met), flat
calls (pairs that faced each other's opens often), and the screened test (pairs whose members
both converge on one seatmate, tested on their answers to each other against the few pairs
that do). Quiet teams only pass the last: a field of 500 has thousands of pairs, and a team
whose answers stand out at p 1e-4 cannot beat that family, but it can beat twenty.

State is keyed by tournament id (chat plans by sender id). Kafka caveat: hands are partitioned
by table; a pair is almost always seated together, so partitioned state mostly suffices, but the
per-player baseline then only covers that worker's tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import ClassVar

from railbird.detectors.collusion.bounty_groups import group_finding, group_members, group_test
from railbird.detectors.collusion.bounty_ledger import (
    ISOLATION_MIN_FACED,
    BountyTournament,
    Pair,
    PairTest,
    Support,
    TargetGuess,
)
from railbird.detectors.collusion.hand_features import hand_features
from railbird.detectors.collusion.name_directory import named_player, see_name
from railbird.detectors.collusion.planning_chat import (
    group_key,
    is_bounty_plan,
    mentioned_names,
    planning_finding,
    remember_chat_tournament,
    remember_tournament,
)
from railbird.detectors.collusion.statistics import bonferroni, fisher_two
from railbird.detectors.events import AnyEvent, ChatEvent, HandEvent, TableEvent
from railbird.detectors.findings import Evidence, Finding, MeasureValue, Severity
from railbird.detectors.state import State

_Plan = tuple[str | None, str, datetime, str | None]  # recipient, message id, ts, target


@dataclass(frozen=True, slots=True)
class BountyCollusion:
    name: ClassVar[str] = "bounty_collusion"
    scope: ClassVar[str] = "site"  # state keyed by tournament or player: sees every table
    alpha: float = 0.01  # family-wise, after Bonferroni over pairs with opportunities
    alpha_with_plan: float = 0.01  # no Bonferroni: the plan named the pair beforehand
    max_pair_p: float = 0.01  # the pair's own re-raise contrast must stand out on its own
    max_target_p: float = 0.01  # both members' co-entry contrast against the named target
    target_p_floor: float = 1e-4  # co-hunting one target is never proof of a pair by itself
    # A pair whose re-raises (or flat calls) of each other alone survive Bonferroni by a wide
    # margin needs only weak target evidence: a team that switches targets splits its co-entry
    # evidence across them.
    strong_pair_p: float = 1e-4
    max_target_p_strong: float = 0.2
    min_reraises: int = 3
    min_reraises_with_plan: int = 2
    min_calls: int = 5  # flat calls of each other's opens before the isolation test runs
    # Screened pair test: a pair both of whose members join pots against one seatmate (co-entry
    # p below screen_p, corrected for the candidate targets) is tested on its answers to each
    # other's opens combined with the target evidence *given* the screen (p / screen_p is
    # uniform under the null once p < screen_p; floored like the other tests), each below
    # max_pair_p and max_target_p on its own, Bonferroni over the screened pairs only. The
    # family never drops below min_screened_family, so the first pairs screened in a stream
    # are not tested against a family of one. Its alpha is looser than the field-wide tests':
    # see docs/quality-collusion.md for the honest pairs' distribution behind it.
    screen_p: float = 0.05
    min_screened_family: int = 20
    alpha_screened: float = 0.05
    min_screened_moves: int = 3
    member_p: float = 0.01  # a third or fourth member's own co-entry contrast on the target
    member_reraise_p: float = 0.05  # each member's re-raises with the rest of the group
    min_group_reraises: int = 5
    tournament_ttl: timedelta = timedelta(hours=8)
    plan_ttl: timedelta = timedelta(hours=6)
    names_ttl: timedelta = timedelta(hours=12)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if isinstance(event, ChatEvent):  # nearly every event of the site: kept short
            remember_chat_tournament(event, state)
            see_name(state, event.screen_name, event.player_id, self.names_ttl)
            if event.kind != "text" or not is_bounty_plan(event.text):
                return []
            return self._plan(event, state)
        return self._on_play(event, state)

    def _on_play(self, event: HandEvent | TableEvent, state: State) -> list[Finding]:
        # Apart from `detect`: its comprehensions close over the event and the state, and a
        # closure's cells are made on every call of the function that holds them (every chat
        # message, if that were `detect`).
        remember_tournament(event, state)
        if not isinstance(event, HandEvent) or event.tournament_id is None:
            return []
        feats = hand_features(event)
        if not feats.is_bounty:
            return []
        key = (event.tournament_id, "bounty")
        trn: BountyTournament = state.get(key) or BountyTournament()
        touched = trn.add_hand(feats, event, max(1, event.big_blind))
        # A pair whose re-raise contrast already stands out is re-tested whenever both sit in a
        # hand, and one the screened test watches (`_screened`) whenever either does: the
        # co-entry evidence grows between their moves, at whichever table the target is. Few
        # pairs qualify (a few dozen per tournament), so it's cheap.
        dealt = set(feats.dealt)
        again = {p for p in trn.suspects if dealt.issuperset(p)} - trn.flagged | set(touched)
        watched: set[Pair] = set()
        for player in dealt:
            watched |= trn.watched.get(player, set())
        findings = [f for pair in sorted(again) if (f := self._test(trn, pair, event, state))]
        findings += [
            f
            for pair in sorted(watched - again - trn.flagged)
            if (f := self._screened(trn, pair, event, state))
        ]
        state.put(key, trn, self.tournament_ttl)
        return findings

    def _test(
        self, trn: BountyTournament, pair: Pair, hand: HandEvent, state: State
    ) -> Finding | None:
        found = self._sandwich(trn, pair, hand, state)
        if found is None and pair not in trn.flagged:
            found = self._isolation(trn, pair, hand, state)
        if found is None and pair not in trn.flagged:
            found = self._screened(trn, pair, hand, state)
        return found

    def _screened(
        self, trn: BountyTournament, pair: Pair, hand: HandEvent, state: State
    ) -> Finding | None:
        """A pair that converges on one seatmate, then answers each other's opens unlike it
        answers anybody else's: the quiet team whose few moves do not survive a test against
        every pair of the field, tested against the few pairs that converge on someone."""
        guess = trn.guess_target(pair, trn.group(pair))
        if guess is None:
            return None
        answers = (trn.pair_test(pair, guess.target), trn.call_test(pair, guess.target))
        test = min(answers, key=lambda t: t.p_value)
        answer_p = min(1.0, 2.0 * test.p_value)  # two answers tested, the better one kept
        if answer_p < self.screen_p and test.reraises >= self.min_screened_moves:
            trn.watch(pair)  # re-tested while the co-entry evidence grows
        if guess.p_value >= self.screen_p:
            return None
        trn.screened.add(pair)
        trn.watch(pair)
        if test.reraises < self.min_screened_moves:
            return None
        # Each piece must stand out on its own, as in the field-wide tests: honest hunters of
        # one big bounty converge on it strongly, and a whipsawing pair answers each other
        # strongly; neither is a team.
        if answer_p >= self.max_pair_p or guess.p_value >= self.max_target_p:
            return None
        target_p = max(guess.p_value, self.target_p_floor) / self.screen_p
        combined = fisher_two(answer_p, target_p)
        family = max(len(trn.screened), self.min_screened_family)
        adjusted = bonferroni(combined, family)
        if adjusted >= self.alpha_screened:
            return None
        plans = self._plans(pair, state)
        return self._flag_pair(trn, pair, hand, test, guess, adjusted, family, plans)

    def _isolation(
        self, trn: BountyTournament, pair: Pair, hand: HandEvent, state: State
    ) -> Finding | None:
        """A pair that flat-calls each other's opens far more than each calls anybody else's,
        and both join pots while one seatmate is live far more than after it folded: the team
        that keeps its target in the pot between them instead of re-raising it out. Found on
        play alone. Only pairs that faced each other's opens `ISOLATION_MIN_FACED` times are
        tested, so they alone are the Bonferroni family (see `bounty_ledger`)."""
        if trn.pairs[pair].faced < ISOLATION_MIN_FACED:
            return None
        test = trn.call_test(pair)
        plans = self._plans(pair, state)
        if test.reraises < (self.min_reraises_with_plan if plans else self.min_calls):
            return None
        if test.p_value >= self.max_pair_p:
            return None
        guess = trn.guess_target(pair, trn.group(pair))
        tests = 1 if plans else max(1, trn.isolation_family)
        # As on the re-raise path: flat calls that survive their family by a wide margin need
        # only weak target evidence (a team that switches targets splits its co-entry).
        strong_pair = bonferroni(test.p_value, max(1, trn.isolation_family)) < self.strong_pair_p
        max_target_p = self.max_target_p_strong if strong_pair else self.max_target_p
        if guess is None or guess.p_value >= max_target_p:
            return None
        combined = fisher_two(test.p_value, max(guess.p_value, self.target_p_floor))
        adjusted = bonferroni(combined, tests)
        if adjusted >= (self.alpha_with_plan if plans else self.alpha):
            return None
        return self._flag_pair(trn, pair, hand, test, guess, adjusted, tests, plans)

    def _sandwich(
        self, trn: BountyTournament, pair: Pair, hand: HandEvent, state: State
    ) -> Finding | None:
        test = trn.pair_test(pair)
        plans = self._plans(pair, state)
        if test.reraises < (self.min_reraises_with_plan if plans else self.min_reraises):
            return self._group(trn, pair, hand, plans)
        if test.p_value >= self.max_pair_p:
            trn.suspects.discard(pair)
            return self._group(trn, pair, hand, plans)
        trn.suspects.add(pair)
        group = trn.group(pair)
        guess = trn.guess_target(pair, group)
        strong_pair = bonferroni(test.p_value, trn.candidate_pairs()) < self.strong_pair_p
        max_target_p = self.max_target_p_strong if strong_pair else self.max_target_p
        if guess is None or guess.p_value >= max_target_p:
            return None
        # Two pieces of evidence, combined: the pair re-raises each other's opens more than
        # they re-raise others (sandwiches), and both join pots far more while one seatmate is
        # live than after that seatmate folded (they converge on the target). A plan in chat
        # names the pair beforehand: one pre-specified test instead of every pair at the table.
        combined = fisher_two(test.p_value, max(guess.p_value, self.target_p_floor))
        tests = 1 if plans else trn.candidate_pairs()
        adjusted = bonferroni(combined, tests)
        if adjusted >= (self.alpha_with_plan if plans else self.alpha):
            return self._group(trn, pair, hand, plans)
        return self._flag_pair(trn, pair, hand, test, guess, adjusted, tests, plans)

    def _flag_pair(
        self,
        trn: BountyTournament,
        pair: Pair,
        hand: HandEvent,
        test: PairTest,
        guess: TargetGuess,
        adjusted: float,
        tests: int,
        plans: list[_Plan],
    ) -> Finding:
        """Mark the pair flagged and build its finding, with the group it now links and the
        supporting evidence (check-downs, knockouts) that raises the severity."""
        trn.flagged.add(pair)
        group = trn.group(pair)
        support = trn.support(group, guess.target)
        strong = bool(plans) or support.knockouts > 0 or support.checkdowns >= 2
        severity: Severity = "high" if strong or adjusted < 1e-6 else "medium"
        return self._finding(
            hand, group, pair, test, guess, adjusted, tests, plans, severity, support
        )

    def _group(
        self, trn: BountyTournament, pair: Pair, hand: HandEvent, plans: list[_Plan]
    ) -> Finding | None:
        """Teams of three or four: the re-raises of every pair inside the group, summed, with
        the group picked by co-entry contrasts that point at the seed pair's target."""
        if trn.pairs[pair].reraises == 0:
            return None
        guess = trn.guess_target(pair, trn.group(pair))
        if guess is None or guess.p_value >= self.max_target_p:
            return None
        contrasts = group_members(trn, pair, guess.target, self.member_p)
        if len(contrasts) < 3:
            return None
        test = group_test(trn, contrasts, guess.target, self.member_reraise_p)
        if test is None or test.reraises < self.min_group_reraises:
            return None
        if test.p_value >= self.max_pair_p:
            return None
        target_p = min(1.0, max(c.p_value for c in test.contrasts) * guess.candidates)
        if target_p >= self.max_target_p:
            return None
        combined = fisher_two(test.p_value, max(target_p, self.target_p_floor))
        tests = trn.candidate_pairs()
        adjusted = bonferroni(combined, tests)
        if adjusted >= self.alpha:
            return None
        trn.flagged.update(test.linked_pairs)
        group = trn.group(pair)
        support = trn.support(group, guess.target)
        strong = bool(plans) or support.knockouts > 0 or support.checkdowns >= 2
        severity: Severity = "high" if strong or adjusted < 1e-6 else "medium"
        return group_finding(
            self.name, hand, group, test, target_p, adjusted, tests, severity, support
        )

    def _finding(
        self,
        hand: HandEvent,
        group: tuple[str, ...],
        pair: Pair,
        test: PairTest,
        guess: TargetGuess,
        adjusted: float,
        tests: int,
        plans: list[_Plan],
        severity: Severity,
        support: Support,
    ) -> Finding:
        tid = hand.tournament_id
        target = guess.target
        plan_ids = [m for _, m, _, _ in plans]
        entries = "; ".join(
            f"{c.player_id} joined {c.live_entries} of {c.live_decisions} pots while {target} "
            f"was live (expected {c.expected_live_entries:.1f}), {c.folded_entries} of "
            f"{c.folded_decisions} after {target} folded"
            for c in guess.contrasts
        )
        how = "re-raises" if test.move == "re-raised" else "flat calls"
        summary = (
            f"{' and '.join(pair)} converge on {target}: they {test.move} each other's opens "
            f"{test.reraises} times in {test.opportunities} chances (expected "
            f"{test.expected:.1f} from their {how} of others); {entries}; "
            f"p={adjusted:.2g} after {tests} pairs; {support.checkdowns} check-down(s) with "
            f"{target} all-in, {support.knockouts} knockout(s) of {target} by the group"
            + (f"; planned in chat {', '.join(plan_ids)}" if plan_ids else "")
        )
        return Finding(
            detector=self.name,
            category="bounty_collusion",
            severity=severity,
            score=round(min(0.99, 0.75 + 0.02 * test.reraises + (0.1 if plans else 0.0)), 3),
            ts=hand.ended_at,
            player_ids=group,
            tournament_id=tid,
            table_id=hand.table_id,
            hand_id=hand.hand_id,
            message_ids=tuple(plan_ids),
            dedupe_key=group_key(tid, group),
            evidence=Evidence(
                kind="bounty_targeting",
                summary=summary,
                event_ids=tuple(test.hand_ids),
                measures={
                    "pair_move": test.move,
                    **_pair_measures(test),
                    "opportunities": test.opportunities,
                    # co-entry contrast, one entry per pair member (in `pair` order)
                    "live_decisions": [c.live_decisions for c in guess.contrasts],
                    "live_entries": [c.live_entries for c in guess.contrasts],
                    "expected_live_entries": [
                        round(c.expected_live_entries, 2) for c in guess.contrasts
                    ],
                    "folded_decisions": [c.folded_decisions for c in guess.contrasts],
                    "folded_entries": [c.folded_entries for c in guess.contrasts],
                    "p_values_entries": [c.p_value for c in guess.contrasts],
                    "p_value_target": guess.p_value,
                    "candidate_targets": guess.candidates,
                    "candidate_pairs": tests,
                    "p_value_bonferroni": adjusted,
                    "target_caught_in_reraises": test.caught.get(target, 0),
                    "opener_folded_to_partner": test.opener_folds,
                    "checkdowns_with_target_all_in": support.checkdowns,
                    "knockouts_of_target": support.knockouts,
                    "planning_messages": plan_ids,
                },
                details={
                    "target": target,
                    "pair": list(pair),
                    "innocent_reading": _innocent_reading(test, target),
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
        for word in sorted(mentioned_names(event.text), key=len, reverse=True):
            player = named_player(state, word, self.names_ttl)
            if player is not None and player not in planners:
                return player
        return None

    @staticmethod
    def _plans(pair: Pair, state: State) -> list[_Plan]:
        found: list[_Plan] = []
        for me, other in (pair, pair[::-1]):
            for plan in state.get((me, "bounty_plan"), []):
                if plan[0] in (other, None):
                    found.append(plan)
        return sorted(found, key=lambda p: p[2])


def _innocent_reading(test: PairTest, target: str) -> str:
    """What an honest explanation of the same counts would be, for the analyst to rule out in
    the hands cited."""
    if test.move == "re-raised":
        return (
            f"two aggressive regulars who 3-bet light and happened to sit either side of "
            f"{target}; look for re-raises that stop when {target} has folded"
        )
    return (
        f"two loose players (or friends) who call each other's opens and both like playing "
        f"pots against {target}'s bounty; look for flat calls that trap {target} between them"
    )


def _pair_measures(test: PairTest) -> dict[str, MeasureValue]:
    """The pair test's count, expectation and p-value, named by the move counted."""
    name = "reraises" if test.move == "re-raised" else "flat_calls"
    return {
        name: test.reraises,
        f"expected_{name}": round(test.expected, 4),
        f"p_value_{name}": test.p_value,
    }
