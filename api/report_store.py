"""Players' reports in the store: filed, de-duplicated, sent to the review queue, rate-limited.

A report names a reporter, the reported player, optionally the messages and the table or hand,
and a reason (a flag category). Each (reporter, reported, message) is one row, whose id is
derived from the three, so the chat server may send a report twice. Where it goes:
- a message a detector already flagged: no new queue row; that flag's `priority` rises (the
  queue serves it before the unreported flags of its severity), and rises further with every
  unrelated group of reporters (`api.reporter_groups`);
- anything else: the reported player's open *report case* for that reason, a flag of its own
  (detector `player_reports`) that the queue shows and analysts review like any flag (audited
  the same way); its severity rises with unrelated groups of reporters (`rules.report_policy`).
Reports never restrict anyone: no ladder reads them. One reporter filing more than the policy
allows in an hour is refused (429), counted in `report_refusals`, and raises a low `spam` case
(`mass_reporting`) on the reporter once a day, for an analyst to look at.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, insert, select, update

from railbird.api.flag_queries import as_utc
from railbird.api.reporter_groups import independent_groups
from railbird.detectors.findings import Evidence, Finding
from railbird.detectors.severity import SEVERITY_RANK
from railbird.rules.flags import Flag
from railbird.rules.report_policy import ReportPolicy
from railbird.store import schema
from railbird.store.chat_rows import kept_for_analysts
from railbird.store.upsert import upsert
from railbird.store.writer import FLAG_UPDATABLE, flag_row

DETECTOR = "player_reports"
PRIORITY_MAX = 5  # "five or more unrelated groups": the queue reads one range per value
RATE_WINDOW = timedelta(hours=1)
# A reported message's flag is looked for among the reported player's flags from this long
# before the message (a flood flag cites earlier lines) to a day after it.
FLAG_LOOKBACK = timedelta(hours=1)
FLAG_LOOKAHEAD = timedelta(days=1)
_SCORES = {"low": 0.3, "medium": 0.5, "high": 0.7}

_r, _f, _fp = schema.player_reports.c, schema.flags.c, schema.flag_players.c


@dataclass(frozen=True, slots=True)
class ReportRequest:
    reporter_id: str
    reported_id: str
    reason: str
    message_ids: tuple[str, ...] = ()
    table_id: str | None = None
    tournament_id: str | None = None
    hand_id: str | None = None
    note: str | None = None


@dataclass(frozen=True, slots=True)
class Filed:
    """One (reporter, reported, message) of a report, and where it went."""

    report_id: str
    message_id: str | None
    flag_id: str
    effect: str  # raised | opened | joined
    duplicate: bool


class TooManyReportsError(Exception):
    """The reporter has filed all the reports the policy allows this hour."""

    def __init__(self, reporter_id: str, limit: int, retry_after: int) -> None:
        super().__init__(
            f"reporter {reporter_id!r} has filed {limit} reports in the last hour, the most "
            f"the policy allows; try again in {retry_after} s"
        )
        self.retry_after = retry_after


class ReportRefusedError(ValueError):
    """A report that names something it cannot be about (a message someone else sent)."""


def report_id_for(reporter_id: str, reported_id: str, about: str) -> str:
    key = f"{reporter_id}|{reported_id}|{about}".encode()
    return "r-" + hashlib.blake2b(key, digest_size=10).hexdigest()


def file_report(
    engine: Engine, request: ReportRequest, policy: ReportPolicy, now: datetime
) -> list[Filed]:
    """Store `request`: one row per message named (or one for the report as a whole), each
    sent to a detector's flag or to a report case; the rows already stored come back as
    duplicates. `TooManyReportsError` when the reporter is over the hourly limit (the refusal is
    counted), `ReportRefusedError` when a named message was sent by someone else."""
    if request.reporter_id == request.reported_id:
        raise ReportRefusedError("a player cannot report themselves")
    # What each row is about: a message, else the hand, else the day (one report a day per
    # reporter and player without either).
    abouts: list[tuple[str | None, str]] = [(m, m) for m in dict.fromkeys(request.message_ids)]
    if not abouts:
        abouts = [(None, f"hand:{request.hand_id}" if request.hand_id else f"day:{now:%Y-%m-%d}")]
    ids = [report_id_for(request.reporter_id, request.reported_id, about) for _, about in abouts]
    refused: TooManyReportsError | None = None
    effects: dict[str, tuple[str, str]] = {}
    with engine.begin() as conn:
        stored = {
            row.report_id: row
            for row in conn.execute(select(schema.player_reports).where(_r.report_id.in_(ids)))
        }
        fresh = [(rid, m) for rid, (m, _) in zip(ids, abouts, strict=True) if rid not in stored]
        retry = _over_limit(conn, request.reporter_id, len(fresh), policy, now) if fresh else None
        if retry is not None:
            _count_refusal(conn, request.reporter_id, len(fresh), now)
            refused = TooManyReportsError(request.reporter_id, policy.per_reporter_per_hour, retry)
        else:
            effects = {rid: _file_one(conn, request, rid, m, now) for rid, m in fresh}
            for flag_id in dict.fromkeys(flag for flag, _ in effects.values()):
                _reweigh(conn, flag_id, policy, now)
    if refused is not None:
        raise refused  # after the refusal was counted and committed
    filed = []
    for rid, (message_id, _) in zip(ids, abouts, strict=True):
        if rid in stored:
            row = stored[rid]
            filed.append(Filed(rid, message_id, row.flag_id, row.effect, duplicate=True))
        else:
            flag_id, effect = effects[rid]
            filed.append(Filed(rid, message_id, flag_id, effect, duplicate=False))
    return filed


def _over_limit(
    conn: Connection, reporter_id: str, adding: int, policy: ReportPolicy, now: datetime
) -> int | None:
    """Seconds until the reporter may file `adding` more, or None when they may now."""
    recent = [
        as_utc(ts)
        for (ts,) in conn.execute(
            select(_r.ts)
            .where(_r.reporter_id == reporter_id, _r.ts > now - RATE_WINDOW)
            .order_by(_r.ts)
        )
    ]
    allowed = policy.per_reporter_per_hour
    if len(recent) + adding <= allowed:
        return None
    if adding > allowed:
        return int(RATE_WINDOW.total_seconds())
    # The oldest rows that must leave the window before `adding` more fit.
    frees_at = recent[len(recent) + adding - allowed - 1] + RATE_WINDOW
    return max(1, int((frees_at - now).total_seconds()) + 1)


def _count_refusal(conn: Connection, reporter_id: str, refused: int, now: datetime) -> None:
    t = schema.report_refusals.c
    changed = conn.execute(
        update(schema.report_refusals)
        .where(t.reporter_id == reporter_id)
        .values(refused=t.refused + refused, last_refused_at=now)
    ).rowcount
    if not changed:
        conn.execute(
            insert(schema.report_refusals).values(
                reporter_id=reporter_id, refused=refused, first_refused_at=now, last_refused_at=now
            )
        )
    total = conn.execute(select(t.refused).where(t.reporter_id == reporter_id)).scalar_one()
    finding = Finding(
        detector=DETECTOR,
        category="spam",
        severity="low",
        score=_SCORES["low"],
        ts=now,
        player_ids=(reporter_id,),
        dedupe_key=f"mass-reporting:{reporter_id}:{now:%Y-%m-%d}",
        evidence=Evidence(
            kind="mass_reporting",
            summary=(
                f"{reporter_id} filed more player reports than the policy allows in an hour "
                f"({total} refused so far)"
            ),
            measures={"refused_reports": total},
        ),
    )
    flag = Flag.from_finding(finding)
    upsert(conn, schema.flags, [flag_row(flag)], ["flag_id"], FLAG_UPDATABLE)
    upsert(
        conn,
        schema.flag_players,
        [{"flag_id": flag.flag_id, "player_id": reporter_id}],
        ["flag_id", "player_id"],
    )


def _file_one(
    conn: Connection, request: ReportRequest, report_id: str, message_id: str | None, now: datetime
) -> tuple[str, str]:
    """Store one row; returns the flag it went to and how (raised, opened, joined)."""
    flagged = None
    if message_id is not None:
        flagged = _detector_flag_on(conn, request.reported_id, message_id)
    if flagged is not None:
        flag_id, effect = flagged, "raised"
    else:
        flag_id, effect = _case_for(conn, request, now)
    conn.execute(
        insert(schema.player_reports).values(
            report_id=report_id,
            ts=now,
            reporter_id=request.reporter_id,
            reported_id=request.reported_id,
            message_id=message_id,
            table_id=request.table_id,
            tournament_id=request.tournament_id,
            hand_id=request.hand_id,
            reason=request.reason,
            note=kept_for_analysts(request.note) if request.note else None,
            flag_id=flag_id,
            effect=effect,
        )
    )
    return flag_id, effect


def _detector_flag_on(conn: Connection, reported_id: str, message_id: str) -> str | None:
    """The most severe detector flag on the reported player that cites `message_id`. A
    message the store knows must be the reported player's (`ReportRefusedError`)."""
    c = schema.chat_messages.c
    sent = conn.execute(select(c.player_id, c.ts).where(c.message_id == message_id)).first()
    query = (
        select(_f.flag_id, _f.message_ids, _f.severity)
        .join(schema.flag_players, _fp.flag_id == _f.flag_id)
        .where(_fp.player_id == reported_id, _f.detector != DETECTOR)
    )
    if sent is not None:
        if sent.player_id != reported_id:
            raise ReportRefusedError(
                f"message {message_id!r} was sent by another player, not {reported_id!r}"
            )
        at = as_utc(sent.ts)
        query = query.where(_f.ts >= at - FLAG_LOOKBACK, _f.ts <= at + FLAG_LOOKAHEAD)
    citing = [
        (SEVERITY_RANK.get(row.severity, 0), row.flag_id)
        for row in conn.execute(query.order_by(_f.ts.desc()).limit(500))
        if message_id in (row.message_ids or ())
    ]
    return max(citing)[1] if citing else None


def _case_for(conn: Connection, request: ReportRequest, now: datetime) -> tuple[str, str]:
    """The reported player's open report case for this reason, or a new one."""
    cases = (
        select(_f.flag_id, _f.status)
        .join(schema.flag_players, _fp.flag_id == _f.flag_id)
        .where(
            _fp.player_id == request.reported_id,
            _f.detector == DETECTOR,
            _f.category == request.reason,
        )
    )
    found = list(conn.execute(cases))
    for flag_id, status in found:
        if status == "open":
            return flag_id, "joined"
    # Numbered by the cases already closed, so two server processes opening one at once
    # derive the same id and the second write is an upsert of the first.
    finding = _case_finding(request, len(found) + 1, now)
    flag = Flag.from_finding(finding)
    upsert(conn, schema.flags, [flag_row(flag)], ["flag_id"])
    upsert(
        conn,
        schema.flag_players,
        [{"flag_id": flag.flag_id, "player_id": request.reported_id}],
        ["flag_id", "player_id"],
    )
    return flag.flag_id, "opened"


def _case_finding(request: ReportRequest, number: int, now: datetime) -> Finding:
    return Finding(
        detector=DETECTOR,
        category=request.reason,  # type: ignore[arg-type]  # checked against CATEGORIES
        severity="low",
        score=_SCORES["low"],
        ts=now,
        player_ids=(request.reported_id,),
        table_id=request.table_id,
        tournament_id=request.tournament_id,
        hand_id=request.hand_id,
        dedupe_key=f"report-case:{request.reported_id}:{request.reason}:{number}",
        evidence=Evidence(
            kind="player_report",
            summary=f"players reported {request.reported_id} for {request.reason}",
        ),
    )


def _reweigh(conn: Connection, flag_id: str, policy: ReportPolicy, now: datetime) -> None:
    """The flag's priority from its unrelated groups of reporters; a report case's severity,
    explanation and evidence from all its reports."""
    rows = list(
        conn.execute(select(schema.player_reports).where(_r.flag_id == flag_id).order_by(_r.ts))
    )
    reporters = [row.reporter_id for row in rows]
    groups = independent_groups(conn, reporters, now)
    values: dict[str, Any] = {"priority": min(groups, PRIORITY_MAX)}
    flag = conn.execute(select(_f.detector, _f.category).where(_f.flag_id == flag_id)).first()
    if flag is not None and flag.detector == DETECTOR and flag.category != "spam":
        severity = policy.severity(groups)
        distinct = len(set(reporters))
        messages = [row.message_id for row in rows if row.message_id]
        summary = (
            f"{rows[0].reported_id} reported for {flag.category} by {distinct} "
            f"player{'s' if distinct != 1 else ''} ({groups} unrelated "
            f"group{'s' if groups != 1 else ''}); no detector flagged "
            + ("the messages named" if messages else "it")
        )
        values |= {
            "severity": severity,
            "score": _SCORES[severity],
            "explanation": summary,
            "message_ids": list(dict.fromkeys(messages)),
            "evidence": {
                "kind": "player_report",
                "summary": summary,
                "event_ids": list(dict.fromkeys(messages)),
                "measures": {
                    "reports": len(rows),
                    "reporters": distinct,
                    "unrelated_groups": groups,
                },
            },
        }
    conn.execute(update(schema.flags).where(_f.flag_id == flag_id).values(**values))
