"""The analysts' review loop in the store: the queue of open flags, and a review of one flag.

A review names the flag's `review_version` it read; the update succeeds only if nobody has
reviewed the flag since (optimistic concurrency: the second of two analysts gets a conflict,
not a silent overwrite). Dismissing a flag lifts the automatic restrictions it caused (the
rules' actions naming it, still in force), in the same transaction, with the review and an
audit entry naming the key and its role.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from sqlalchemy import Engine, and_, insert, or_, select, update

from railbird.api.flag_queries import SEVERITIES, as_utc, flag_dict
from railbird.api.report_store import PRIORITY_MAX
from railbird.api.restriction_store import RESTRICTING, audit
from railbird.detectors.events import EARLIEST, LATEST
from railbird.store import schema
from railbird.store.outbox import record_changes

Decision = Literal["confirm", "dismiss", "escalate"]
STATUS_OF: dict[str, str] = {
    "confirm": "confirmed",
    "dismiss": "dismissed",
    "escalate": "escalated",
}
RULES_ACTOR = "railbird-rules"

_f = schema.flags.c
# Most severe first: critical 3 ... low 0.


@dataclass(frozen=True, slots=True)
class QueueFilter:
    status: str = "open"
    category: str | None = None
    severity: str | None = None
    table_id: str | None = None
    tournament_id: str | None = None
    player_id: str | None = None
    detector: str | None = None


class ReviewConflictError(Exception):
    """The flag was reviewed since the version the reviewer read."""

    def __init__(self, current: int) -> None:
        super().__init__(f"the flag was reviewed since (now at version {current})")
        self.current = current


def queue(
    engine: Engine, flt: QueueFilter, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """One page of flags with `flt.status`, most severe first, then the most reported (their
    `priority`: unrelated groups of players who reported them), then oldest first; the cursor
    for the next page (None: the last). A cursor not issued here is a `ValueError`.

    Read one (severity, priority) range at a time, in `ix_flags_queue_priority` order (status,
    severity, priority, ts, id), so a page costs its own rows whatever the backlog: ordering
    by a rank computed from the severity would sort every open flag on every page. Priorities
    are capped (`report_store.PRIORITY_MAX`), so there are few ranges and an empty one costs
    one index probe."""
    base = select(schema.flags).where(_f.status == flt.status)
    for column, value in (
        (_f.category, flt.category),
        (_f.table_id, flt.table_id),
        (_f.tournament_id, flt.tournament_id),
        (_f.detector, flt.detector),
    ):
        if value:
            base = base.where(column == value)
    if flt.player_id:
        members = select(schema.flag_players.c.flag_id).where(
            schema.flag_players.c.player_id == flt.player_id
        )
        base = base.where(_f.flag_id.in_(members))
    after: tuple[int, int, datetime, str] | None = _decode(cursor) if cursor else None
    rows: list[dict[str, Any]] = []
    with engine.connect() as conn:
        for rank, priority in _ranges():
            severity = SEVERITIES[rank]
            if flt.severity and severity != flt.severity:
                continue
            if after and (rank, priority) > after[:2]:
                continue
            query = base.where(_f.severity == severity, _f.priority == priority)
            if after and (rank, priority) == after[:2]:
                _rank, _priority, ts, flag_id = after
                query = query.where(or_(_f.ts > ts, and_(_f.ts == ts, _f.flag_id > flag_id)))
            wanted = limit + 1 - len(rows)
            found = conn.execute(query.order_by(_f.ts, _f.flag_id).limit(wanted))
            rows += [flag_dict(r) for r in found]
            if len(rows) > limit:
                break
    following = None
    if len(rows) > limit:
        rows = rows[:limit]
        last = rows[-1]
        following = _encode(
            SEVERITIES.index(last["severity"]), last["priority"], last["ts"], last["flag_id"]
        )
    return rows, following


def _ranges() -> list[tuple[int, int]]:
    """(severity rank, priority) in the queue's order: most severe, then most reported."""
    return [
        (rank, priority)
        for rank in range(len(SEVERITIES) - 1, -1, -1)
        for priority in range(PRIORITY_MAX, -1, -1)
    ]


def review(
    engine: Engine,
    flag_id: str,
    *,
    decision: Decision,
    note: str,
    version: int,
    actor: str,
    role: str,
    now: datetime,
) -> tuple[dict[str, Any], list[str]] | None:
    """Record a review; returns the flag as it is now and the ids of the restrictions lifted
    (a dismissal's), or None when there is no such flag. `ReviewConflictError` when the flag's
    version is no longer `version`."""
    with engine.begin() as conn:
        changed = conn.execute(
            update(schema.flags)
            .where(_f.flag_id == flag_id, _f.review_version == version)
            .values(status=STATUS_OF[decision], review_version=version + 1)
        ).rowcount
        if not changed:
            current = conn.execute(select(_f.review_version).where(_f.flag_id == flag_id)).scalar()
            if current is None:
                return None
            raise ReviewConflictError(int(current))
        lifted = _lift_caused(conn, flag_id, actor, now) if decision == "dismiss" else []
        conn.execute(
            insert(schema.flag_reviews).values(
                flag_id=flag_id,
                ts=now,
                decision=decision,
                note=note,
                actor=actor,
                role=role,
                lifted_action_ids=lifted,
            )
        )
        audit(
            conn,
            actor,
            f"flag.{decision}",
            flag_id,
            {"note": note, "role": role, "version": version + 1, "lifted": lifted},
        )
        row = conn.execute(select(schema.flags).where(_f.flag_id == flag_id)).first()
    assert row is not None
    return flag_dict(row), lifted


def reviews(engine: Engine, flag_id: str) -> list[dict[str, Any]]:
    """The flag's reviews, oldest first."""
    r = schema.flag_reviews.c
    query = select(schema.flag_reviews).where(r.flag_id == flag_id).order_by(r.id)
    with engine.connect() as conn:
        found = [dict(row._mapping) for row in conn.execute(query)]
    for item in found:
        item["ts"] = as_utc(item["ts"])
    return found


def _lift_caused(conn: Any, flag_id: str, actor: str, now: datetime) -> list[str]:
    """Lift the rules' restrictions in force that name `flag_id`; their ids."""
    players = select(schema.flag_players.c.player_id).where(
        schema.flag_players.c.flag_id == flag_id
    )
    a = schema.actions.c
    candidates = conn.execute(
        select(a.action_id, a.flag_ids).where(
            a.player_id.in_(players),
            a.actor == RULES_ACTOR,
            a.kind.in_(RESTRICTING),
            a.lifted_at.is_(None),
            or_(a.expires_at.is_(None), a.expires_at > now),
        )
    ).all()
    ids = sorted(action_id for action_id, flags in candidates if flag_id in (flags or ()))
    if ids:
        conn.execute(
            update(schema.actions)
            .where(a.action_id.in_(ids))
            .values(lifted_at=now, lifted_by=actor, changed_at=now)
        )
        record_changes(conn, ids, "lifted", now)
    return ids


def _encode(rank: int, priority: int, ts: datetime, flag_id: str) -> str:
    raw = f"{rank}|{priority}|{ts.isoformat()}|{flag_id}"
    return base64.urlsafe_b64encode(raw.encode()).decode()


def _decode(cursor: str) -> tuple[int, int, datetime, str]:
    if len(cursor) > 256:
        raise ValueError("invalid cursor (too long)")
    try:
        rank_text, priority_text, ts_text, flag_id = (
            base64.urlsafe_b64decode(cursor.encode()).decode().split("|", 3)
        )
        rank, priority = int(rank_text), int(priority_text)
        ts = as_utc(datetime.fromisoformat(ts_text))
    except (ValueError, UnicodeDecodeError, OverflowError) as exc:
        raise ValueError(f"invalid cursor {cursor[:80]!r}") from exc
    if (
        not 0 <= rank < len(SEVERITIES)
        or not 0 <= priority <= PRIORITY_MAX
        or not EARLIEST <= ts < LATEST
        or not 0 < len(flag_id) <= 64
    ):
        raise ValueError(f"invalid cursor {cursor[:80]!r}")
    return rank, priority, ts, flag_id
