"""Flags players whose sit-out onsets in one tournament coincide more often than chance allows.

House policy lets one player sit out but forbids two or more agreeing to sit out together, at
one table or several. Each onset waits `mass_window` before it counts, so we know whether it
was part of a mass event (a scheduled break, a network incident): those are dropped, because
many players leaving at once is not a pair agreeing to. A pair is tested (see `statistics`)
only when one of its onsets coincides with the other's, so the work per event stays small
however many players the tournament has; the pairs' p-values are adjusted by Benjamini-Hochberg
over every pair the field could form (false-discovery control: a team beside other teams is not
asked to beat every pair alone, as Bonferroni asked). Planning chat between the two lowers
nothing statistically; it raises the severity, and on its own (a private message) gives a
low-severity flag.

State is keyed by tournament id (chat plans by sender id). Caveat for Kafka: table events are
partitioned by table, and a tournament's tables span partitions, so a worker only sees the
coincidences among its own tables unless table events are re-keyed by tournament first.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar

from railbird.detectors.collusion.planning_chat import (
    group_key,
    is_sitout_plan,
    planning_finding,
    remember_chat_tournament,
    remember_tournament,
)
from railbird.detectors.collusion.statistics import (
    benjamini_hochberg,
    bonferroni,
    candidate_pairs,
    expected_coincidences,
    poisson_tail,
)
from railbird.detectors.events import AnyEvent, ChatEvent, TableEvent
from railbird.detectors.findings import Evidence, Finding, Severity
from railbird.detectors.state import State

_AWAY = frozenset({"sit_out", "disconnect"})


@dataclass(slots=True)
class _Onset:
    ts: datetime
    player_id: str
    event_id: str
    table_id: str
    action: str
    mass: bool | None = None  # None until mass_window has passed


@dataclass(slots=True)
class _Tournament:
    start: datetime
    pending: list[_Onset] = field(default_factory=list)  # onsets still within mass_window
    recent: list[_Onset] = field(default_factory=list)  # settled onsets, last mass_window
    counts: dict[str, int] = field(default_factory=dict)  # settled non-mass sit-outs per player
    first_seen: dict[str, datetime] = field(default_factory=dict)
    mass_onsets: int = 0
    lone_disconnects: int = 0
    pairs: dict[tuple[str, str], list[tuple[_Onset, _Onset]]] = field(default_factory=dict)
    p_values: dict[tuple[str, str], float] = field(default_factory=dict)  # last p per tested pair
    flagged: set[tuple[str, str]] = field(default_factory=set)


@dataclass(frozen=True, slots=True)
class CoordinatedSitOut:
    name: ClassVar[str] = "coordinated_sit_out"
    scope: ClassVar[str] = "site"  # state keyed by tournament or player: sees every table
    window: timedelta = timedelta(seconds=5)  # onsets this close coincide
    mass_window: timedelta = timedelta(seconds=10)  # +- this, more than the limit away = mass
    mass_players: int = 5
    min_coincidences: int = 3
    alpha: float = 0.01  # false-discovery rate, Benjamini-Hochberg over candidate pairs
    alpha_with_plan: float = 0.05
    min_exposure: timedelta = timedelta(minutes=10)  # floor on T so early onsets aren't magic
    max_coincidences_kept: int = 30
    tournament_ttl: timedelta = timedelta(hours=6)
    plan_ttl: timedelta = timedelta(hours=4)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if isinstance(event, ChatEvent):
            remember_chat_tournament(event, state)
            if event.kind != "text" or not is_sitout_plan(event.text):
                return []
            return self._chat(event, state)
        remember_tournament(event, state)
        if not isinstance(event, TableEvent) or event.tournament_id is None:
            return []
        key = (event.tournament_id, "sit_out")
        trn: _Tournament | None = state.get(key)
        if trn is None:
            trn = _Tournament(start=event.ts)
        self._see_players(trn, event)
        if event.action in _AWAY and event.player_id is not None:
            trn.pending.append(
                _Onset(event.ts, event.player_id, event.event_id, event.table_id, event.action)
            )
        findings = self._settle(trn, event.tournament_id, event.ts, state)
        state.put(key, trn, self.tournament_ttl)
        return findings

    def _see_players(self, trn: _Tournament, event: TableEvent) -> None:
        for pid in (event.player_id, *(event.players or ())):
            if pid is not None and pid not in trn.first_seen:
                trn.first_seen[pid] = event.ts

    def _settle(
        self, trn: _Tournament, tournament_id: str, now: datetime, state: State
    ) -> list[Finding]:
        """Decide onsets whose mass window has passed; test pairs their coincidences touch."""
        findings: list[Finding] = []
        while trn.pending and trn.pending[0].ts + self.mass_window < now:
            onset = trn.pending.pop(0)
            lo, hi = onset.ts - self.mass_window, onset.ts + self.mass_window
            away = {o.player_id for o in trn.pending if o.ts <= hi}
            away |= {o.player_id for o in trn.recent if o.ts >= lo}
            away.add(onset.player_id)
            onset.mass = len(away) > self._mass_limit(trn, onset.ts)
            trn.recent = [o for o in trn.recent if o.ts >= lo]
            trn.recent.append(onset)
            if onset.mass:
                trn.mass_onsets += 1
                continue
            if onset.action != "sit_out":
                trn.lone_disconnects += 1
                continue
            trn.counts[onset.player_id] = trn.counts.get(onset.player_id, 0) + 1
            for other in trn.recent:
                if (
                    other.action == "sit_out"
                    and other.mass is False
                    and other.player_id != onset.player_id
                    and onset.ts - other.ts <= self.window
                ):
                    found = self._coincide(trn, tournament_id, other, onset, state)
                    if found is not None:
                        findings.append(found)
        # A mass event found late (more onsets arrived) retracts nothing already settled; the
        # pending list is short because onsets leave it after mass_window.
        return findings

    def _mass_limit(self, trn: _Tournament, now: datetime) -> float:
        """How many players away at once is still ordinary traffic for this tournament.

        A 500-player field has a few lone onsets in any half minute; a mass event is far above
        that background (estimated from the settled non-mass onsets so far), never just above it.
        """
        elapsed = max((now - trn.start).total_seconds(), self.min_exposure.total_seconds())
        settled = sum(trn.counts.values()) + trn.lone_disconnects
        background = settled / elapsed * 2 * self.mass_window.total_seconds()
        return max(float(self.mass_players), background + 4 * math.sqrt(background) + 3)

    def _coincide(
        self, trn: _Tournament, tournament_id: str, a: _Onset, b: _Onset, state: State
    ) -> Finding | None:
        pair = (min(a.player_id, b.player_id), max(a.player_id, b.player_id))
        hits = trn.pairs.setdefault(pair, [])
        if any(x is a or y is a or x is b or y is b for x, y in hits):
            return None  # each onset coincides with a partner's at most once
        hits.append((a, b))
        del hits[: -self.max_coincidences_kept]
        c = len(hits)
        if c < self.min_coincidences:
            return None
        start = max(trn.start, *(trn.first_seen.get(p, trn.start) for p in pair))
        exposure = max((b.ts - start).total_seconds(), self.min_exposure.total_seconds())
        n_a, n_b = trn.counts.get(pair[0], c), trn.counts.get(pair[1], c)
        mean = expected_coincidences(n_a, n_b, self.window.total_seconds(), exposure)
        p_value = poisson_tail(c, mean)
        trn.p_values[pair] = p_value
        tests = candidate_pairs(len(trn.counts))
        rank = sum(1 for q in trn.p_values.values() if q <= p_value)
        adjusted = benjamini_hochberg(p_value, tests, rank)
        plans = self._plans(pair, state)
        if adjusted >= (self.alpha_with_plan if plans else self.alpha):
            return None
        trn.flagged.add(pair)
        group = self._group(trn, pair)
        severity: Severity = "high" if plans or adjusted < 1e-6 else "medium"
        times = [f"{x.ts:%H:%M:%S}/{y.ts:%H:%M:%S}" for x, y in hits]
        tables = sorted({o.table_id for h in hits for o in h})
        summary = (
            f"{' and '.join(pair)} sat out within {self.window.total_seconds():g}s of each other "
            f"{c} times in {tournament_id} ({len(tables)} table(s)); chance expects {mean:.3f} "
            f"(p={p_value:.2g}, q={adjusted:.2g} ranked {rank} of {tests} pairs)"
            + (f"; planned in chat {', '.join(m for m, _ in plans)}" if plans else "")
        )
        return Finding(
            detector=self.name,
            category="coordinated_sit_out",
            severity=severity,
            score=round(min(0.99, 0.7 + 0.05 * c + (0.1 if plans else 0.0)), 3),
            ts=b.ts,
            player_ids=group,
            tournament_id=tournament_id,
            table_id=b.table_id if len(tables) == 1 else None,
            message_ids=tuple(m for m, _ in plans),
            dedupe_key=group_key(tournament_id, group),
            evidence=Evidence(
                kind="coinciding_sit_outs",
                summary=summary,
                event_ids=tuple(o.event_id for h in hits for o in h),
                measures={
                    "onsets_a": n_a,
                    "onsets_b": n_b,
                    "coincidences": c,
                    "window_s": self.window.total_seconds(),
                    "exposure_s": round(exposure, 1),
                    "expected_coincidences": round(mean, 6),
                    "p_value": p_value,
                    "candidate_pairs": tests,
                    "p_value_bonferroni": bonferroni(p_value, tests),
                    "q_value": adjusted,
                    "p_rank": rank,
                    "mass_onsets_ignored": trn.mass_onsets,
                    "coincidence_times": times,
                    "tables": tables,
                    "planning_messages": [m for m, _ in plans],
                },
                details={"pair": list(pair)},
            ),
        )

    @staticmethod
    def _group(trn: _Tournament, pair: tuple[str, str]) -> tuple[str, ...]:
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

    def _plans(self, pair: tuple[str, str], state: State) -> list[tuple[str, datetime]]:
        """Planning messages between the two (or broadcast by one of them)."""
        found: list[tuple[str, datetime]] = []
        for me, other in (pair, pair[::-1]):
            for recipient, message_id, ts in state.get((me, "sit_out_plan"), []):
                if recipient in (other, None):
                    found.append((message_id, ts))
        return sorted(found, key=lambda x: x[1])
