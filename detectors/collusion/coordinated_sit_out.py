"""Flags players who go away together, again and again, more often than their own habits allow.

House policy lets one player sit out but forbids two or more agreeing to be away at the same
time, at one table or several. What is paired is each player's away *onsets* (sitting out,
disconnecting or timing out; `away_onsets`): crowds (breaks, network waves, a table dropping)
and onsets of eliminated or departed players are dropped before any pairing.

A pair is tested when one of its onsets lands near the other's, so the work per event stays
small however large the field. The null keeps each player's own count of lone onsets over the
time both were present and places them independently; where the whole field was away more than
usual (a wave too thin to be a crowd) the expected count rises with it. The coincidences are
counted in each of several windows (a team that leaves "together" may be seconds or half a
minute apart), each window with its own Poisson null, and the best window pays for the scan
(Bonferroni over the windows). A pair needs at least `min_coincidences` in that window. The
p-values are adjusted by Benjamini-Hochberg over the pairs at risk: present players with enough
lone onsets to form such a pair. Planning chat between the two lowers the bar; on its own (a
private message) it gives a low-severity flag with the same identity as the later flag from
play (`planning_chat.group_key`).

State is keyed by tournament id (chat plans by sender id), so every table of a tournament is
seen together; the verdicts depend only on event times, never the wall clock.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar

from railbird.detectors.collusion.away_onsets import AwayLedger, AwayRules, Onset
from railbird.detectors.collusion.planning_chat import (
    group_key,
    is_sitout_plan,
    planning_finding,
    remember_chat_tournament,
    remember_tournament,
)
from railbird.detectors.collusion.statistics import (
    benjamini_hochberg,
    candidate_pairs,
    matched_coincidences,
    poisson_tail,
)
from railbird.detectors.detector import Keying
from railbird.detectors.events import AnyEvent, ChatEvent, HandEvent, TableEvent
from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.detectors.state import State

Pair = tuple[str, str]


@dataclass(slots=True)
class _Tournament:
    ledger: AwayLedger
    p_values: dict[Pair, float] = field(default_factory=dict)  # last scan p per tested pair
    flagged: set[Pair] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class _Test:
    """A pair's best window: what the flag reports."""

    window: float
    matches: tuple[tuple[Onset, Onset], ...]
    expected: float
    p_value: float
    p_scan: float
    onsets: tuple[int, int]
    exposure: float


@dataclass(frozen=True, slots=True)
class CoordinatedSitOut:
    name: ClassVar[str] = "coordinated_sit_out"
    keyed_by: ClassVar[Keying] = "tournament"
    windows: tuple[float, ...] = (2.0, 5.0, 15.0, 45.0)  # +- seconds: onsets this close coincide
    min_coincidences: int = 2
    alpha: float = 0.05  # false-discovery rate, Benjamini-Hochberg over the pairs at risk
    alpha_with_plan: float = 0.1
    profile_window: float = 60.0  # +- seconds over which the field's own away rate is read
    profile_prior: float = 5.0  # onsets: a thin field's few onsets around a time are noise
    min_exposure: float = 600.0  # seconds; a floor on the time both were present
    rules: AwayRules = field(default_factory=AwayRules)
    tournament_ttl: timedelta = timedelta(hours=6)
    plan_ttl: timedelta = timedelta(hours=4)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if isinstance(event, ChatEvent):
            remember_chat_tournament(event, state)
            if event.kind != "text" or not is_sitout_plan(event.text):
                return []
            return self._chat(event, state)
        return self._on_play(event, state)

    def _on_play(self, event: TableEvent | HandEvent, state: State) -> list[Finding]:
        remember_tournament(event, state)
        tid = event.tournament_id
        if tid is None:
            return []
        key = (tid, "sit_out")
        trn: _Tournament | None = state.get(key)
        if trn is None:
            trn = _Tournament(AwayLedger(start=event.time))
        ledger = trn.ledger
        self.rules.see(ledger, event)
        findings: list[Finding] = []
        for onset in self.rules.settle(ledger, ledger.clock(event.time)):
            findings.extend(self._pair_up(trn, tid, onset, state))
        state.put(key, trn, self.tournament_ttl)
        return findings

    def _pair_up(self, trn: _Tournament, tid: str, onset: Onset, state: State) -> list[Finding]:
        """Test the pairs this lone onset forms with earlier lone onsets close to it."""
        reach = max(self.windows)
        partners = {
            o.player_id
            for o in trn.ledger.judged
            if o.verdict == "lone" and o.player_id != onset.player_id and onset.t - o.t <= reach
        }
        findings: list[Finding] = []
        for other in sorted(partners):
            pair = (min(other, onset.player_id), max(other, onset.player_id))
            found = self._test(trn, tid, pair, onset, state)
            if found is not None:
                findings.append(found)
        return findings

    def _test(
        self, trn: _Tournament, tid: str, pair: Pair, onset: Onset, state: State
    ) -> Finding | None:
        best = self._scan(trn.ledger, pair, onset.t)
        if best is None:
            return None
        trn.p_values[pair] = best.p_scan
        at_risk = candidate_pairs(self.rules.at_risk(trn.ledger, *pair))
        plans = self._plans(pair, state)
        alpha = self.alpha_with_plan if plans else self.alpha
        if best.p_scan * at_risk >= alpha * max(1, len(trn.p_values)):
            return None  # not even the most generous rank could pass: skip counting it
        players = trn.ledger.players
        rank = sum(  # among the pairs still at risk, as the family counts them
            1
            for (a, b), q in trn.p_values.items()
            if q <= best.p_scan and players[a].gone is None and players[b].gone is None
        )
        adjusted = benjamini_hochberg(best.p_scan, at_risk, max(1, rank))
        if adjusted >= alpha:
            return None
        trn.flagged.add(pair)
        return self._finding(trn, tid, pair, best, at_risk, rank, adjusted, plans)

    def _scan(self, ledger: AwayLedger, pair: Pair, now: float) -> _Test | None:
        """The pair's coincidences in each window against its own null; the best window."""
        a, b = (ledger.players[p] for p in pair)
        lo = max(a.first, b.first)
        hi = min(now if a.gone is None else a.gone, now if b.gone is None else b.gone)
        ons_a = [o for o in a.lone if lo <= o.t <= hi]
        ons_b = [o for o in b.lone if lo <= o.t <= hi]
        if min(len(ons_a), len(ons_b)) < self.min_coincidences:
            return None
        exposure = max(hi - lo, self.min_exposure)
        times_a, times_b = [o.t for o in ons_a], [o.t for o in ons_b]
        lift_a = self._lifts(ledger, times_a, times_a, times_b, lo, hi, exposure)
        lift_b = self._lifts(ledger, times_b, times_a, times_b, lo, hi, exposure)
        best: _Test | None = None
        for window in self.windows:
            matches = matched_coincidences(times_a, times_b, window)
            if len(matches) < self.min_coincidences:
                continue
            share = 2 * window / exposure
            expected = max(len(ons_b) * share * sum(lift_a), len(ons_a) * share * sum(lift_b))
            p_value = poisson_tail(len(matches), expected)
            if best is None or p_value < best.p_value:
                best = _Test(
                    window=window,
                    matches=tuple((ons_a[i], ons_b[j]) for i, j in matches),
                    expected=expected,
                    p_value=p_value,
                    p_scan=min(1.0, p_value * len(self.windows)),
                    onsets=(len(ons_a), len(ons_b)),
                    exposure=exposure,
                )
        return best

    def _lifts(
        self,
        ledger: AwayLedger,
        anchors: list[float],
        own_a: list[float],
        own_b: list[float],
        lo: float,
        hi: float,
        exposure: float,
    ) -> list[float]:
        """How much more the rest of the field was going away around each anchor than on
        average over the pair's time together (never below 1): the time-varying part of the
        null, which a wave too thin to be a crowd still raises."""
        rules, h = self.rules, self.profile_window
        others = rules.field_count(ledger, lo, hi) - len(own_a) - len(own_b)
        if others <= 0:
            return [1.0] * len(anchors)
        usual = others / exposure * 2 * h  # the field's lone onsets in a window, on average
        prior = self.profile_prior
        lifts = []
        for t in anchors:
            near = rules.field_count(ledger, t - h, t + h)
            near -= _within(own_a, t - h, t + h) + _within(own_b, t - h, t + h)
            lifts.append(max(1.0, (near + prior) / (usual + prior)))
        return lifts

    def _finding(
        self,
        trn: _Tournament,
        tid: str,
        pair: Pair,
        best: _Test,
        at_risk: int,
        rank: int,
        adjusted: float,
        plans: list[tuple[str, datetime]],
    ) -> Finding:
        group = self._group(trn, pair)
        start = trn.ledger.start
        c = len(best.matches)
        last = max(o.t for m in best.matches for o in m)
        tables = sorted({o.table_id for m in best.matches for o in m})
        kinds = sorted({o.action for m in best.matches for o in m})
        severity: Severity = "high" if plans or adjusted < 1e-6 else "medium"
        summary = (
            f"{' and '.join(pair)} went away ({', '.join(kinds)}) within "
            f"{best.window:g}s of each other {c} times in {tid} ({len(tables)} table(s)); "
            f"their own onsets ({best.onsets[0]} and {best.onsets[1]}) expect {best.expected:.3f}"
            f" (p={best.p_value:.2g}, {best.p_scan:.2g} over {len(self.windows)} windows, "
            f"q={adjusted:.2g} ranked {rank} of {at_risk} pairs at risk)"
            + (f"; planned in chat {', '.join(m for m, _ in plans)}" if plans else "")
        )
        return Finding(
            detector=self.name,
            category="coordinated_sit_out",
            severity=severity,
            score=round(min(0.99, 0.7 + 0.05 * c + (0.1 if plans else 0.0)), 3),
            ts=start + timedelta(seconds=last),
            player_ids=group,
            tournament_id=tid,
            table_id=tables[0] if len(tables) == 1 else None,
            message_ids=tuple(m for m, _ in plans),
            dedupe_key=group_key(tid, group),
            evidence=Evidence(
                kind="coinciding_sit_outs",
                summary=summary,
                event_ids=tuple(o.event_id for m in best.matches for o in m),
                measures={
                    "onsets_a": best.onsets[0],
                    "onsets_b": best.onsets[1],
                    "coincidences": c,
                    "window_s": best.window,
                    "windows_s": list(self.windows),
                    "lags_s": [round(abs(x.t - y.t), 1) for x, y in best.matches],
                    "away_actions": kinds,
                    "exposure_s": round(best.exposure, 1),
                    "expected_coincidences": round(best.expected, 6),
                    "p_value": best.p_value,
                    "p_value_scan": best.p_scan,
                    "pairs_at_risk": at_risk,
                    "q_value": adjusted,
                    "p_rank": rank,
                    "crowd_onsets_ignored": trn.ledger.crowd_onsets,
                    "break_onsets_ignored": trn.ledger.break_onsets,
                    "coincidence_times": [
                        f"{start + timedelta(seconds=x.t):%H:%M:%S}/"
                        f"{start + timedelta(seconds=y.t):%H:%M:%S}"
                        for x, y in best.matches
                    ],
                    "tables": tables,
                    "planning_messages": [m for m, _ in plans],
                },
                details={"pair": list(pair)},
            ),
        )

    @staticmethod
    def _group(trn: _Tournament, pair: Pair) -> tuple[str, ...]:
        """The players linked to this pair through flagged pairs: a team of three shows as one."""
        group = set(pair)
        grew = True
        while grew:
            grew = False
            for a, b in trn.flagged:
                if (a in group) != (b in group):
                    group |= {a, b}
                    grew = True
        return tuple(sorted(group))

    def _chat(self, event: ChatEvent, state: State) -> list[Finding]:
        """A sit-out plan (`detect` has checked the text): remember it, flag it if private."""
        key = (event.player_id, "sit_out_plan")
        plans: list[tuple[str | None, str, datetime]] = list(state.get(key, []))
        plans.append((event.recipient_id, event.message_id, event.ts))
        state.put(key, plans[-20:], self.plan_ttl)
        return planning_finding(
            detector=self.name,
            category="coordinated_sit_out",
            event=event,
            state=state,
            kind="sit_out_planning_chat",
            score=0.5,
            summary=(
                f"{event.player_id} privately asked {event.recipient_id} to sit out "
                f"together ({event.message_id}); no coinciding sit-outs yet"
            ),
        )

    def _plans(self, pair: Pair, state: State) -> list[tuple[str, datetime]]:
        """Planning messages between the two (or broadcast by one of them)."""
        found: list[tuple[str, datetime]] = []
        for me, other in (pair, pair[::-1]):
            for recipient, message_id, ts in state.get((me, "sit_out_plan"), []):
                if recipient in (other, None):
                    found.append((message_id, ts))
        return sorted(found, key=lambda x: x[1])


def _within(times: list[float], lo: float, hi: float) -> int:
    return bisect.bisect_right(times, hi) - bisect.bisect_left(times, lo)
