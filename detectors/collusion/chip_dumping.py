"""Flags a cash-table pair where one player keeps handing pots to the other: bets or raises into
the partner heads-up and then folds to the partner's raise, often with a hand worth keeping.

Never a win rate. The core statistic is a directed contrast: how often player i bet-then-folded
to j heads-up, against the rate expected from i's bet-folds against everyone else at the table
and j's power to make anyone else bet-fold (a maniac re-raises everybody; a weak player gives up
to everybody). A second, independent piece: i folding *strong* holdings (hole cards known to the
operator) to j, against i's strong folds to others. Both p-values are combined and corrected for
the number of ordered pairs tested at the table.

State: one `PairLedger` per table (routing key = table id), idle players pruned.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import ClassVar

from railbird.detectors.collusion.pair_ledger import Counts, PairLedger
from railbird.detectors.collusion.statistics import (
    bonferroni,
    fisher_two,
    poisson_tail,
    shrunk_rate,
)
from railbird.detectors.events import AnyEvent, HandEvent
from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.detectors.state import State


@dataclass(frozen=True, slots=True)
class DumpTest:
    pair: tuple[str, str]  # dumper, receiver
    counts: Counts
    expected_raise_folds: float
    p_raise_folds: float
    expected_strong_folds: float
    p_strong_folds: float
    p_adjusted: float
    tests: int
    baseline_rate: float  # the dumper's bet-folds per heads-up hand against others


@dataclass(frozen=True, slots=True)
class ChipDumping:
    name: ClassVar[str] = "chip_dumping"
    consumes: ClassVar[frozenset[str]] = frozenset({"hand"})
    alpha: float = 1e-3  # family-wise over the table's ordered pairs
    max_raise_fold_p: float = 0.01  # the bet-fold contrast must stand out on its own
    min_raise_folds: int = 4
    prior_weight: float = 10.0  # pseudo-hands pulling thin baselines to the table's rate
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
            pair = (play.actor, play.opponent)
            if counts.raise_folds:
                ledger.note(pair, event.hand_id)
            if counts.raise_folds and pair not in ledger.flagged:
                test = self.test(ledger, pair)
                if test is not None and test.p_adjusted < self.alpha:
                    ledger.flagged.add(pair)
                    findings.append(self._finding(event, ledger, test))
        state.put(key, ledger, self.table_ttl)
        return findings

    def test(self, ledger: PairLedger, pair: tuple[str, str]) -> DumpTest | None:
        c = ledger.pairs[pair]
        if c.raise_folds < self.min_raise_folds:
            return None
        dumper, receiver = pair
        others = ledger.as_actor[dumper].minus(c)
        induced = ledger.as_opponent[receiver].minus(c)
        table = ledger.table
        base = shrunk_rate(table.raise_folds, table.hands, 0.05, self.prior_weight)
        p_i = shrunk_rate(others.raise_folds, others.hands, base, self.prior_weight)
        p_j = shrunk_rate(induced.raise_folds, induced.hands, base, self.prior_weight)
        expected = c.hands * p_i * p_j / base
        p_rf = poisson_tail(c.raise_folds, expected)
        if p_rf >= self.max_raise_fold_p:
            return None
        strong_base = shrunk_rate(table.strong_folds, table.hands, 0.01, self.prior_weight)
        q_i = shrunk_rate(others.strong_folds, others.hands, strong_base, self.prior_weight)
        expected_strong = c.hands * q_i
        p_sf = poisson_tail(c.strong_folds, expected_strong)
        tests = max(1, sum(1 for k in ledger.pairs.values() if k.raise_folds))
        adjusted = bonferroni(fisher_two(p_rf, p_sf), tests)
        return DumpTest(pair, c, expected, p_rf, expected_strong, p_sf, adjusted, tests, p_i)

    def _finding(self, hand: HandEvent, ledger: PairLedger, test: DumpTest) -> Finding:
        dumper, receiver = test.pair
        c = test.counts
        hand_ids = tuple(ledger.hands.get(test.pair, []))
        summary = (
            f"{dumper} bet or raised into {receiver} heads-up and then folded to their raise "
            f"{c.raise_folds} times in {c.hands} heads-up hands (expected "
            f"{test.expected_raise_folds:.1f} from {dumper}'s play against others and "
            f"{receiver}'s against others), giving up {c.chips_folded} chips; {c.strong_folds} "
            f"of the folds with a strong hand (expected {test.expected_strong_folds:.1f}); "
            f"p={test.p_adjusted:.2g} after {test.tests} pairs. Benign reading: a timid player "
            f"against an aggressive regular - check the hands."
        )
        severity: Severity = "high" if test.p_adjusted < 1e-6 or c.strong_folds >= 3 else "medium"
        return Finding(
            detector=self.name,
            category="chip_dumping",
            severity=severity,
            score=round(min(0.99, 0.7 + 0.02 * c.raise_folds + 0.03 * c.strong_folds), 3),
            ts=hand.ended_at,
            player_ids=tuple(sorted(test.pair)),
            table_id=hand.table_id,
            hand_id=hand.hand_id,
            dedupe_key=f"{hand.table_id}:{dumper}>{receiver}",
            evidence=Evidence(
                kind="chip_dumping_pair",
                summary=summary,
                event_ids=hand_ids,
                measures={
                    "heads_up_hands": c.hands,
                    "raise_folds": c.raise_folds,
                    "expected_raise_folds": round(test.expected_raise_folds, 3),
                    "baseline_raise_fold_rate": round(test.baseline_rate, 4),
                    "p_value_raise_folds": test.p_raise_folds,
                    "strong_folds": c.strong_folds,
                    "expected_strong_folds": round(test.expected_strong_folds, 3),
                    "p_value_strong_folds": test.p_strong_folds,
                    "chips_transferred": c.chips_folded,
                    "hands_dealt_together": ledger.shared.get(frozenset(test.pair), 0),
                    "pairs_tested": test.tests,
                    "p_value_bonferroni": test.p_adjusted,
                },
                details={"dumper": dumper, "receiver": receiver},
            ),
        )
