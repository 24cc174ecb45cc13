"""Restrictions (mutes, suspensions, table-join blocks) and the audit log: the API's own
reads and writes.

Restrictions live in the `actions` table beside the ones the rules applied automatically, so one
query answers "is this player restricted now?" whoever restricted them. Every manual change is
written to the audit log in the same transaction.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, Engine, and_, insert, or_, select, update

from railbird.api.flag_queries import as_utc
from railbird.rules.action_kinds import RESTRICTING_KINDS
from railbird.store import schema
from railbird.store.outbox import record_changes

RESTRICTING = tuple(sorted(RESTRICTING_KINDS))


@dataclass(frozen=True, slots=True)
class Restriction:
    """A mute or suspension as stored, whoever applied it: the rules or an analyst."""

    action_id: str
    kind: str
    player_id: str
    ts: datetime
    expires_at: datetime | None
    reason: str
    actor: str
    flag_ids: tuple[str, ...]
    lifted_at: datetime | None = None
    lifted_by: str | None = None
    changed_at: datetime | None = None  # when the row was last written (wall time)
    scope: str | None = None  # a table-join block's blind level; None: everywhere

    def active_at(self, now: datetime) -> bool:
        """Whether it is in force at `now`: not lifted, and not expired."""
        return self.lifted_at is None and (self.expires_at is None or self.expires_at > now)


def restriction(row: Any) -> Restriction:
    """A row of `actions` as a `Restriction`."""
    m = row._mapping
    return Restriction(
        action_id=m["action_id"],
        kind=m["kind"],
        player_id=m["player_id"],
        ts=as_utc(m["ts"]),
        expires_at=None if m["expires_at"] is None else as_utc(m["expires_at"]),
        reason=m["reason"],
        actor=m["actor"],
        flag_ids=tuple(m["flag_ids"] or ()),
        lifted_at=None if m["lifted_at"] is None else as_utc(m["lifted_at"]),
        lifted_by=m["lifted_by"],
        changed_at=None if m.get("changed_at") is None else as_utc(m["changed_at"]),
        scope=m.get("scope"),
    )


def active_clause(now: datetime) -> Any:
    """In force at `now`: a restricting kind, not lifted, not expired."""
    a = schema.actions.c
    return and_(
        a.kind.in_(RESTRICTING),
        a.lifted_at.is_(None),
        or_(a.expires_at.is_(None), a.expires_at > now),
    )


def player_restrictions(
    engine: Engine, player_id: str, now: datetime, active_only: bool
) -> list[Restriction]:
    """A player's restrictions, newest first; with `active_only`, those in force at `now`."""
    a = schema.actions.c
    query = select(schema.actions).where(a.player_id == player_id, a.kind.in_(RESTRICTING))
    if active_only:
        query = query.where(active_clause(now))
    with engine.connect() as conn:
        return [restriction(r) for r in conn.execute(query.order_by(a.ts.desc()))]


def get_restriction(engine: Engine, action_id: str) -> Restriction | None:
    """The restriction with `action_id`, in force or not; None when no restriction has that id."""
    query = select(schema.actions).where(
        schema.actions.c.action_id == action_id, schema.actions.c.kind.in_(RESTRICTING)
    )
    with engine.connect() as conn:
        row = conn.execute(query).first()
    return None if row is None else restriction(row)


def audit(conn: Connection, actor: str, action: str, target: str, detail: dict[str, Any]) -> None:
    """One entry of the audit log, in the caller's transaction."""
    conn.execute(
        insert(schema.audit_log).values(
            ts=datetime.now(UTC), actor=actor, action=action, target=target, detail=detail
        )
    )


def apply_restriction(
    engine: Engine,
    *,
    player_id: str,
    kind: str,
    duration: timedelta | None,
    reason: str,
    actor: str,
    flag_ids: tuple[str, ...],
    now: datetime,
    scope: str | None = None,
) -> Restriction:
    """Restrict a player from `now`, with the audit entry in the same transaction.

    Its id comes from kind, player, actor and `now`, not from flags as the rules' ids do. The chat
    gate is not told: the caller calls its `invalidate`. The change goes to the outbox in the same
    transaction (`store.outbox`), for `moderation.actions`.
    """
    key = f"manual|{kind}|{player_id}|{actor}|{now.isoformat()}"
    action_id = "a-" + hashlib.blake2b(key.encode(), digest_size=10).hexdigest()
    restriction = Restriction(
        action_id=action_id,
        kind=kind,
        player_id=player_id,
        ts=now,
        expires_at=None if duration is None else now + duration,
        reason=reason,
        actor=actor,
        flag_ids=flag_ids,
        changed_at=now,
        scope=scope,
    )
    with engine.begin() as conn:
        conn.execute(
            insert(schema.actions).values(
                action_id=action_id,
                kind=kind,
                player_id=player_id,
                ts=now,
                expires_at=restriction.expires_at,
                reason=reason,
                flag_ids=list(flag_ids),
                actor=actor,
                changed_at=now,
                scope=scope,
            )
        )
        audit(
            conn,
            actor,
            "restriction.apply",
            player_id,
            {"action_id": action_id, "kind": kind, "reason": reason, "scope": scope},
        )
        record_changes(conn, [action_id], "applied", now)
    return restriction


def lift_restriction(
    engine: Engine, action_id: str, actor: str, reason: str, now: datetime
) -> Restriction | None:
    """Lift an active restriction; None when there is none with that id (or it already ended)."""
    a = schema.actions.c
    with engine.begin() as conn:
        lifted = conn.execute(
            update(schema.actions)
            .where(a.action_id == action_id, active_clause(now))
            .values(lifted_at=now, lifted_by=actor, changed_at=now)
        ).rowcount
        if not lifted:
            return None
        audit(conn, actor, "restriction.lift", action_id, {"reason": reason})
        record_changes(conn, [action_id], "lifted", now)
    return get_restriction(engine, action_id)


def unknown_flags(engine: Engine, flag_ids: Sequence[str]) -> list[str]:
    """Those of `flag_ids` the store has no flag for, in the order given."""
    if not flag_ids:
        return []
    query = select(schema.flags.c.flag_id).where(schema.flags.c.flag_id.in_(set(flag_ids)))
    with engine.connect() as conn:
        known = set(conn.execute(query).scalars())
    return [f for f in dict.fromkeys(flag_ids) if f not in known]
