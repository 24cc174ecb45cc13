"""Who went away when in one tournament, and which of those absences were part of a crowd.

The coordinated sit-out test pairs *onsets*: the moment a present player stops playing, by
sitting out, disconnecting or timing out (a player away from the keyboard times out hand after
hand, and the site may then sit them out: one absence, one onset). A player already away makes
no new onset until they are back (sit-in, reconnect, or no timeout for `timeout_chain`); an
absence that never ends is forgotten after `max_away`, so a lost sit-in cannot silence a player
for the rest of the day.

Onsets of many players at once are not agreements between two: a scheduled break, a network
incident, a table's server hiccup. Each onset waits `settle_after` before it is judged, so that
the crowd around it (both sides) is known; it is a crowd onset when, within +-`short` of it, more
distinct players went away than the tournament's recent background of lone onsets explains
(Poisson tail below `crowd_p`, never fewer than `short_floor`), or within +-`wide` (a rolling
wave, table after table), or `table_floor` players at its own table within +-`short` (one
table's players dropping together). A break is also seen without anyone's onsets: the tables
stop dealing (once `min_deals` hand starts have shown that they deal). An onset shortly before
or during a pause of every table is a break onset.
Crowd and break onsets are dropped before any pairing. So are onsets of players who are gone
(eliminated, per the hands' `eliminated`, or left and not seen again): they are out of the test.
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime

from railbird.detectors.collusion.statistics import poisson_quantile
from railbird.detectors.events import HandEvent, TableEvent

_AWAY = frozenset({"sit_out", "disconnect", "timeout"})


@dataclass(slots=True)
class Onset:
    t: float  # seconds since the tournament's first event
    player_id: str
    event_id: str
    table_id: str
    action: str  # sit_out | disconnect | timeout
    verdict: str = ""  # "" until judged, then lone | crowd | break


@dataclass(slots=True)
class Presence:
    first: float
    gone: float | None = None  # when eliminated or seen leaving (and not back since)
    eliminated: bool = False
    sat_out: float | None = None  # since when; None while playing
    disconnected: float | None = None
    last_timeout: float | None = None
    lone: list[Onset] = field(default_factory=list)  # judged lone onsets, oldest first

    def away(self, t: float, timeout_chain: float, max_away: float) -> bool:
        if self.sat_out is not None and t - self.sat_out > max_away:
            self.sat_out = None
        if self.disconnected is not None and t - self.disconnected > max_away:
            self.disconnected = None
        timed_out = self.last_timeout is not None and t - self.last_timeout <= timeout_chain
        return self.sat_out is not None or self.disconnected is not None or timed_out


@dataclass(slots=True)
class AwayLedger:
    """One tournament's absences: fed every table event and hand, in event-time order."""

    start: datetime
    players: dict[str, Presence] = field(default_factory=dict)
    pending: deque[Onset] = field(default_factory=deque)  # not judged yet
    judged: deque[Onset] = field(default_factory=deque)  # judged, within the crowd look-back
    field_times: list[float] = field(default_factory=list)  # every lone onset's time, sorted
    recent_times: deque[float] = field(default_factory=deque)  # every onset, the last half hour
    eligible: set[str] = field(default_factory=set)  # present, with >= min_onsets lone onsets
    last_deal: float | None = None
    deals: int = 0
    deal_gap: float = 0.0  # running mean of the gaps between the tournament's hand starts
    pauses: deque[tuple[float, float]] = field(default_factory=lambda: deque(maxlen=64))
    crowd_onsets: int = 0
    break_onsets: int = 0
    gone_onsets: int = 0

    def clock(self, ts: datetime) -> float:
        return (ts - self.start).total_seconds()


@dataclass(frozen=True, slots=True)
class AwayRules:
    """How onsets are found and judged (see the module's docstring)."""

    timeout_chain: float = 180.0
    max_away: float = 1800.0
    short: float = 10.0
    wide: float = 60.0
    short_floor: int = 6
    wide_floor: int = 15
    table_floor: int = 5
    crowd_p: float = 1e-4
    background_span: float = 1800.0
    pause_floor: float = 90.0  # no hand started anywhere this long (or 5 usual gaps): a pause
    min_deals: int = 20  # ... once the tournament has shown that it deals
    pause_margin: float = 60.0  # onsets this long before a pause belong to it
    resume_margin: float = 30.0
    min_onsets: int = 2  # a player with fewer lone onsets cannot be in a flagged pair
    max_lone_kept: int = 300  # per player
    max_field_kept: int = 50_000

    @property
    def settle_after(self) -> float:
        return max(self.wide, self.short) + 5.0

    def see(self, ledger: AwayLedger, event: TableEvent | HandEvent) -> None:
        """Update presence and away state; a new absence becomes a pending onset."""
        t = ledger.clock(event.time)
        if isinstance(event, HandEvent):
            for out in event.eliminated:
                who = self._presence(ledger, out.player_id, t)
                who.gone, who.eliminated = t, True
                ledger.eligible.discard(out.player_id)
            return
        action, pid = event.action, event.player_id
        if action == "hand_start":
            self._deal(ledger, t)
            for p in event.players or ():
                self._back(ledger, p, t)
            return
        if pid is None:
            return
        who = self._presence(ledger, pid, t)
        if action == "leave":
            who.gone = t
            ledger.eligible.discard(pid)
        elif action == "join":
            self._back(ledger, pid, t)
        elif action == "sit_in":
            who.sat_out = None
        elif action == "reconnect":
            who.disconnected = None
        elif action in _AWAY:
            if who.gone is not None:
                ledger.gone_onsets += 1
                return
            was_away = who.away(t, self.timeout_chain, self.max_away)
            if action == "sit_out":
                who.sat_out = t if who.sat_out is None else who.sat_out
            elif action == "disconnect":
                who.disconnected = t if who.disconnected is None else who.disconnected
            else:
                who.last_timeout = t
            if not was_away:
                ledger.pending.append(Onset(t, pid, event.event_id, event.table_id, action))
                ledger.recent_times.append(t)
                while ledger.recent_times[0] < t - self.background_span - 2 * self.wide:
                    ledger.recent_times.popleft()

    def settle(self, ledger: AwayLedger, now: float) -> list[Onset]:
        """Judge the onsets whose surroundings are known by `now`; returns the lone ones, in
        time order, each already added to its player's and the field's lone onsets."""
        lone: list[Onset] = []
        threshold = self._pause_threshold(ledger)
        while ledger.pending:
            onset = ledger.pending[0]
            if now < onset.t + self.settle_after:
                break
            deal = ledger.last_deal
            if (
                deal is not None
                and ledger.deals >= self.min_deals
                and deal < onset.t + self.pause_margin
                and now < onset.t + self.pause_margin + threshold
            ):
                break  # the tables may be stopping for a break: wait until it is known
            ledger.pending.popleft()
            onset.verdict = self._verdict(ledger, onset, now, threshold)
            ledger.judged.append(onset)
            if onset.verdict == "lone":
                self._keep(ledger, onset)
                lone.append(onset)
        horizon = now - self.settle_after - 2 * max(self.wide, self.short)
        while ledger.judged and ledger.judged[0].t < horizon:
            ledger.judged.popleft()
        return lone

    def field_count(self, ledger: AwayLedger, lo: float, hi: float) -> int:
        """Lone onsets of anyone in [lo, hi], judged or still pending (a wave that is still
        arriving counts: conservative for the pair tests that read it)."""
        times = ledger.field_times
        count = bisect.bisect_right(times, hi) - bisect.bisect_left(times, lo)
        if not ledger.pending or hi < ledger.pending[0].t:
            return count
        return count + sum(1 for o in ledger.pending if lo <= o.t <= hi)

    def at_risk(self, ledger: AwayLedger, *also: str) -> int:
        """Present players who have enough lone onsets to be in a flagged pair."""
        return len(ledger.eligible.union(also))

    # -- inside ------------------------------------------------------------------------
    def _presence(self, ledger: AwayLedger, pid: str, t: float) -> Presence:
        who = ledger.players.get(pid)
        if who is None:
            who = ledger.players[pid] = Presence(first=t)
        return who

    def _back(self, ledger: AwayLedger, pid: str, t: float) -> None:
        who = self._presence(ledger, pid, t)
        if who.gone is not None and not who.eliminated:
            who.gone = None
            if len(who.lone) >= self.min_onsets:
                ledger.eligible.add(pid)

    def _deal(self, ledger: AwayLedger, t: float) -> None:
        last = ledger.last_deal
        if last is not None:
            gap = t - last
            if gap >= self._pause_threshold(ledger):
                ledger.pauses.append((last, t))
            ledger.deal_gap = gap if ledger.deal_gap == 0.0 else 0.9 * ledger.deal_gap + 0.1 * gap
        ledger.last_deal = t
        ledger.deals += 1

    def _pause_threshold(self, ledger: AwayLedger) -> float:
        return max(self.pause_floor, 5.0 * ledger.deal_gap)

    def _verdict(self, ledger: AwayLedger, onset: Onset, now: float, threshold: float) -> str:
        t = onset.t
        pauses = list(ledger.pauses)
        if ledger.deals < self.min_deals:
            pauses = []  # a stream that does not show its dealing shows no pause either
        elif ledger.last_deal is not None and now - ledger.last_deal >= threshold:
            pauses.append((ledger.last_deal, now))
        for begin, end in pauses:
            if begin - self.pause_margin <= t <= end + self.resume_margin:
                ledger.break_onsets += 1
                return "break"
        near = [*ledger.judged, *ledger.pending]
        short = {o.player_id for o in near if abs(o.t - t) <= self.short}
        short.add(onset.player_id)
        wide = {o.player_id for o in near if abs(o.t - t) <= self.wide}
        wide.add(onset.player_id)
        table = {
            o.player_id for o in near if o.table_id == onset.table_id and abs(o.t - t) <= self.short
        }
        table.add(onset.player_id)
        rate = self._background_rate(ledger, t)
        crowd = (
            len(short)
            >= max(self.short_floor, poisson_quantile(rate * 2 * self.short, self.crowd_p))
            or len(wide)
            >= max(self.wide_floor, poisson_quantile(rate * 2 * self.wide, self.crowd_p))
            or len(table) >= self.table_floor
        )
        if crowd:
            ledger.crowd_onsets += 1
            return "crowd"
        return "lone"

    def _background_rate(self, ledger: AwayLedger, t: float) -> float:
        """Onsets per second in an ordinary stretch of the recent past: the median count of
        the last half hour's windows of 2 * `wide` before this onset's own. The median, so
        that the crowds of that half hour do not raise it, and every onset, so that what was
        judged a crowd does not lower it (a field shrinking as players bust lowers it)."""
        width = 2 * self.wide
        hi = t - self.wide
        bins = min(int(self.background_span // width), int(hi // width))
        if bins < 1:
            return 0.0
        lo = hi - bins * width
        counts = [0] * bins
        for x in ledger.recent_times:
            if lo <= x < hi:
                counts[int((x - lo) // width)] += 1
        return sorted(counts)[bins // 2] / width

    def _keep(self, ledger: AwayLedger, onset: Onset) -> None:
        who = ledger.players[onset.player_id]
        who.lone.append(onset)
        del who.lone[: -self.max_lone_kept]
        if len(who.lone) >= self.min_onsets and who.gone is None:
            ledger.eligible.add(onset.player_id)
        ledger.field_times.append(onset.t)
        if len(ledger.field_times) > self.max_field_kept:
            del ledger.field_times[: self.max_field_kept // 2]
