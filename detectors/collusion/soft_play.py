"""Flags a cash-table pair that will not fight each other: heads-up they check strong hands
down and never bet, while against everyone else the same players bet their strong hands.

Never a win rate. Two directed contrasts per member, summed over both directions of the pair:
(1) hands where the member held a strong hand heads-up against the partner (hole cards known to
the operator) and never bet or raised, against that member's rate of the same with strong hands
against everyone else; (2) heads-up postflop pots against the partner without a single bet or
raise, against the member's own rate against others. Tight correct play and friends who simply
sit together do not move either number; the strong-hand contrast must stand out on its own, and
the combination is corrected for the number of pairs tested at the table.

State: one `PairLedger` per table (routing key = table id), idle players pruned.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import ClassVar

from railbird.detectors.collusion.pair_ledger import Counts, PairLedger
from railbird.detectors.collusion.statistics import (
    binomial_sum_tail,
    bonferroni,
    fisher_two,
    shrunk_rate,
)
from railbird.detectors.events import AnyEvent, HandEvent
from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.detectors.state import State


@dataclass(frozen=True, slots=True)
class SoftTest:
    pair: tuple[str, str]
    strong_hands: int
    strong_passive: int
    expected_strong_passive: float
    p_strong: float
    postflop_hands: int
    postflop_passive: int
    expected_postflop_passive: float
    p_postflop: float
    p_adjusted: float
    tests: int
    baseline_rates: list[float]  # each member's strong-passive rate against others


@dataclass(frozen=True, slots=True)
class SoftPlay:
    name: ClassVar[str] = "soft_play"
    consumes: ClassVar[frozenset[str]] = frozenset({"hand"})
    alpha: float = 1e-3  # family-wise over the table's pairs
    max_strong_p: float = 0.01  # the strong-hand contrast must stand out on its own
    min_strong_passive: int = 5
    prior_weight: float = 5.0
    table_ttl: timedelta = timedelta(hours=8)
    idle: timedelta = timedelta(hours=2)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, HandEvent) or event.table_id is None:
            return []
        key = (event.table_id, "pair_ledger")
        ledger: PairLedger = state.get(key) or PairLedger()
        ledger.prune(event.ended_at, self.idle)
        findings = []
        for play, counts in ledger.add_hand(event):
            pair = tuple(sorted((play.actor, play.opponent)))
            assert len(pair) == 2
            if not counts.strong_passive:
                continue
            ledger.note(pair, event.hand_id)
            if pair in ledger.flagged:
                continue
            test = self.test(ledger, pair)
            if test is not None and test.p_adjusted < self.alpha:
                ledger.flagged.add(pair)
                findings.append(self._finding(event, ledger, test))
        state.put(key, ledger, self.table_ttl)
        return findings

    def test(self, ledger: PairLedger, pair: tuple[str, str]) -> SoftTest | None:
        a, b = pair
        directed = [(x, ledger.pairs.get((x, y))) for x, y in ((a, b), (b, a))]
        total = Counts()
        for _, c in directed:
            if c is not None:
                total.add(c)
        if total.strong_passive < self.min_strong_passive:
            return None
        table = ledger.table
        strong_base = shrunk_rate(table.strong_passive, table.strong_hands, 0.3, 10.0)
        post_base = shrunk_rate(table.postflop_passive, table.postflop_hands, 0.5, 10.0)
        strong_ps: list[float] = []
        post_ps: list[float] = []
        rates: list[float] = []
        for member, c in directed:
            if c is None:
                rates.append(strong_base)
                continue
            others = ledger.as_actor[member].minus(c)
            q = shrunk_rate(
                others.strong_passive, others.strong_hands, strong_base, self.prior_weight
            )
            r = shrunk_rate(
                others.postflop_passive, others.postflop_hands, post_base, self.prior_weight
            )
            rates.append(q)
            strong_ps += [q] * c.strong_hands
            post_ps += [r] * c.postflop_hands
        p_strong = binomial_sum_tail(total.strong_passive, strong_ps)
        if p_strong >= self.max_strong_p:
            return None
        p_post = binomial_sum_tail(total.postflop_passive, post_ps)
        tests = max(1, len({frozenset(p) for p, k in ledger.pairs.items() if k.strong_passive}))
        adjusted = bonferroni(fisher_two(p_strong, p_post), tests)
        return SoftTest(
            pair,
            total.strong_hands,
            total.strong_passive,
            sum(strong_ps),
            p_strong,
            total.postflop_hands,
            total.postflop_passive,
            sum(post_ps),
            p_post,
            adjusted,
            tests,
            rates,
        )

    def _finding(self, hand: HandEvent, ledger: PairLedger, test: SoftTest) -> Finding:
        a, b = test.pair
        summary = (
            f"{a} and {b} spare each other heads-up: {test.strong_passive} of "
            f"{test.strong_hands} strong hands against the partner were never bet or raised "
            f"(expected {test.expected_strong_passive:.1f} from their play against others), and "
            f"{test.postflop_passive} of {test.postflop_hands} heads-up postflop pots between "
            f"them saw no bet (expected {test.expected_postflop_passive:.1f}); "
            f"p={test.p_adjusted:.2g} after {test.tests} pairs. Benign reading: slow-playing "
            f"or pot control - check the hands."
        )
        severity: Severity = "high" if test.p_adjusted < 1e-6 else "medium"
        return Finding(
            detector=self.name,
            category="soft_play",
            severity=severity,
            score=round(min(0.99, 0.7 + 0.02 * test.strong_passive), 3),
            ts=hand.ended_at,
            player_ids=test.pair,
            table_id=hand.table_id,
            hand_id=hand.hand_id,
            dedupe_key=f"{hand.table_id}:{a},{b}",
            evidence=Evidence(
                kind="soft_play_pair",
                summary=summary,
                event_ids=tuple(ledger.hands.get(test.pair, [])),
                measures={
                    "strong_hands": test.strong_hands,
                    "strong_passive": test.strong_passive,
                    "expected_strong_passive": round(test.expected_strong_passive, 3),
                    "baseline_strong_passive_rates": [round(r, 4) for r in test.baseline_rates],
                    "p_value_strong": test.p_strong,
                    "postflop_hands": test.postflop_hands,
                    "postflop_passive": test.postflop_passive,
                    "expected_postflop_passive": round(test.expected_postflop_passive, 3),
                    "p_value_postflop": test.p_postflop,
                    "hands_dealt_together": ledger.shared.get(frozenset(test.pair), 0),
                    "pairs_tested": test.tests,
                    "p_value_bonferroni": test.p_adjusted,
                },
            ),
        )
