"""Flags cash-table pairs who play each other unlike they play anyone else: one handing the
other chips (chip dumping) or the two sparing each other (soft play).

Read against the honest-decision model (`detectors.play`), heads-up decisions between the two
are compared with each player's heads-up decisions against everyone else (`heads_up_evidence`):
aggression toward each other beyond the model (bets into the partner, raises of the partner),
or short of it (strong hands checked to the partner); play against the other's cards (betting
and calling while behind the partner, checking and folding while ahead of them, which only a
player who knows those cards does); and the two off the model in the same hands. Position,
stacks, prices and cards are in the model, so a player to someone's left is not a colluder for
re-raising him, and a short stack's shoves into a big one are what short stacks do.

Aggression toward each other makes it chip dumping, passivity soft play; the chips that went
between them in the hands they met heads-up say who gave and who took. A pair is flagged once
its score has stayed over the threshold for `confirm_meetings` more heads-up meetings: the test
is looked at after every meeting, and an honest pair's walk would otherwise cross any line.

State: one ledger per table (the table's Kafka partition), players idle for `idle` pruned.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import ClassVar

from railbird.detectors.collusion_categories import INNOCENT_READINGS
from railbird.detectors.events import AnyEvent, HandEvent
from railbird.detectors.findings import Category, Evidence, Finding, Severity
from railbird.detectors.play.heads_up_evidence import SPOTS, HeadsUpLedger, HeadsUpScore
from railbird.detectors.play.honest_model import model_at
from railbird.detectors.play.pair_evidence import Pair, describe_move
from railbird.detectors.state import State


@dataclass(slots=True)
class CashTable:
    ledger: HeadsUpLedger
    flagged: dict[Pair, str]  # pair -> category flagged
    above_since: dict[Pair, int]  # pair -> heads-up meetings when it first crossed


@dataclass(frozen=True, slots=True)
class CashCollusion:
    name: ClassVar[str] = "cash_collusion"
    consumes: ClassVar[frozenset[str]] = frozenset({"hand"})
    operator_settings: ClassVar[tuple[str, ...]] = ("model_dir",)
    # Stouffer z of the donor's play toward the receiver (dumping) or of the pair's passivity
    # toward each other (soft play), each with play against the other's cards; set on the
    # simulator's varied cash days (docs/quality-cash-collusion.md).
    threshold: float = 5.0  # chip dumping
    soft_threshold: float = 4.5
    min_meetings: int = 6  # heads-up meetings before a pair is judged
    confirm_meetings: int = 5
    high_margin: float = 3.0
    # The honest-decision model (`railbird train-play --out DIR`); empty: the one shipped with
    # railbird. The operator's own histories teach it the site's players.
    model_dir: str = ""
    table_ttl: timedelta = timedelta(hours=8)
    idle: timedelta = timedelta(hours=2)

    def __post_init__(self) -> None:
        """A model directory that cannot be loaded is refused when the detector is built
        (at start, or by a policy reload naming the line), never at the first hand."""
        if self.model_dir:
            model_at(self.model_dir)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, HandEvent) or event.tournament_id is not None:
            return []
        key = (event.table_id, "cash_play")
        table: CashTable = state.get(key) or CashTable(HeadsUpLedger(), {}, {})
        gone = table.ledger.prune(event.ended_at, self.idle)
        if gone:  # a pair that meets again starts again, its confirmation and flag included
            for kept in (table.above_since, table.flagged):
                for pair in [p for p in kept if gone.intersection(p)]:
                    del kept[pair]
        met = table.ledger.read(event, model_at(self.model_dir))
        findings: list[Finding] = []
        for pair in met:
            record = table.ledger.pairs[pair]
            if pair in table.flagged or record.heads_up < self.min_meetings:
                continue
            scored = table.ledger.score(pair)
            if scored.dumping < self.threshold and scored.soft < self.soft_threshold:
                table.above_since.pop(pair, None)
                continue
            since = table.above_since.setdefault(pair, record.heads_up)
            if record.heads_up - since < self.confirm_meetings:
                continue
            table.above_since.pop(pair, None)
            findings.append(self._finding(table, scored, event))
        state.put(key, table, self.table_ttl)
        return findings

    def _finding(self, table: CashTable, scored: HeadsUpScore, hand: HandEvent) -> Finding:
        pair = scored.pair
        record = table.ledger.pairs[pair]
        dumping = scored.dumping - self.threshold >= scored.soft - self.soft_threshold
        z = scored.dumping if dumping else scored.soft
        line = self.threshold if dumping else self.soft_threshold
        category: Category = "chip_dumping" if dumping else "soft_play"
        table.flagged[pair] = category
        donor = scored.donor
        receiver = pair[1] if donor == pair[0] else pair[0]
        spots = "; ".join(
            f"{actor} against {other}: "
            + ", ".join(f"{name} {z_:+.1f}" for name, z_ in zip(SPOTS, zs, strict=True))
            for actor, other, zs in (
                (pair[0], pair[1], scored.spot_z[0]),
                (pair[1], pair[0], scored.spot_z[1]),
            )
        )
        moves = [describe_move(m) for m in record.moves]
        if dumping:
            what = (
                f"{donor} and {receiver} play each other unlike anyone else: aggression toward "
                f"each other {scored.toward:+.1f} beyond the model"
            )
        else:
            what = (
                f"{pair[0]} and {pair[1]} spare each other heads-up: aggression toward each "
                f"other {scored.toward:+.1f} against the model"
            )
        summary = (
            f"{what}, play against the other's cards {scored.against_cards:+.1f} (by "
            f"{scored.against_cards_by}), off the model in the same hands "
            f"{scored.co_aggression:+.1f}; z={z:.1f} (flag at {line:g}) over "
            f"{record.heads_up} heads-up "
            f"meetings in {record.dealt} hands together ({spots}); {abs(record.flow)} chips "
            f"from {donor} to {receiver} in the hands they met heads-up"
            + (f". E.g. {moves[0]}" if moves else "")
        )
        severity: Severity = "high" if z >= line + self.high_margin else "medium"
        return Finding(
            detector=self.name,
            category=category,
            severity=severity,
            score=round(min(0.99, 0.6 + 0.04 * z), 3),
            ts=hand.ended_at,
            player_ids=pair,
            table_id=hand.table_id,
            hand_id=hand.hand_id,
            dedupe_key=f"{hand.table_id}:{category}:{pair[0]},{pair[1]}",
            evidence=Evidence(
                kind="chip_dumping_pair" if dumping else "soft_play_pair",
                summary=summary,
                event_ids=tuple(record.hands),
                measures={
                    "heads_up_meetings": record.heads_up,
                    "heads_up_flops": record.heads_up_flops,
                    "hands_dealt_together": record.dealt,
                    "aggression_toward_z": round(scored.toward, 3),
                    "against_cards_z": round(scored.against_cards, 3),
                    "co_aggression_z": round(scored.co_aggression, 3),
                    "combined_z": round(z, 3),
                    "threshold": line,
                    "chips_transferred": abs(record.flow),
                    "spot_z_first_acting": [round(v, 2) for v in scored.spot_z[0]],
                    "spot_z_second_acting": [round(v, 2) for v in scored.spot_z[1]],
                    "model_version": model_at(self.model_dir).version,
                },
                details={
                    "donor": donor if dumping else None,
                    "receiver": receiver if dumping else None,
                    "pair": list(pair),
                    "surprising_moves": moves,
                    "innocent_reading": INNOCENT_READINGS[category],
                },
            ),
        )
