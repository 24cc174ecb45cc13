"""How many unrelated voices a set of reporters is.

Why: ten reports on one player mean something when ten strangers sent them, and much less
when ten friends did (a friend group mass-reporting a rival is a known abuse of report
buttons). What railbird knows of who knows whom: players who message each other privately, and
players a detector flagged together for collusion. Reporters linked that way, directly or
through one another, count as one group.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlalchemy import Connection, select

from railbird.detectors.collusion_categories import COLLUSION_CATEGORIES
from railbird.store import schema

# Private messages older than this do not link two reporters any more.
ACQUAINTANCE = timedelta(days=30)
MAX_REPORTERS = 200  # the most recent reporters of one flag that are grouped


def independent_groups(conn: Connection, reporters: Sequence[str], now: datetime) -> int:
    """The number of groups `reporters` fall into once acquaintances are merged."""
    people = list(dict.fromkeys(reporters))[-MAX_REPORTERS:]
    if len(people) <= 1:
        return len(people)
    parent = {p: p for p in people}

    def root(p: str) -> str:
        while parent[p] != p:
            parent[p] = parent[parent[p]]
            p = parent[p]
        return p

    def link(a: str, b: str) -> None:
        parent[root(a)] = root(b)

    c = schema.chat_messages.c
    talked = select(c.player_id, c.recipient_id).where(
        c.channel == "private",
        c.player_id.in_(people),
        c.recipient_id.in_(people),
        c.ts >= now - ACQUAINTANCE,
    )
    for sender, recipient in conn.execute(talked.distinct()):
        if sender != recipient:
            link(sender, recipient)
    fp, f = schema.flag_players.c, schema.flags.c
    together = (
        select(fp.flag_id, fp.player_id)
        .join(schema.flags, f.flag_id == fp.flag_id)
        .where(fp.player_id.in_(people), f.category.in_(sorted(COLLUSION_CATEGORIES)))
    )
    first_of: dict[str, str] = {}
    for flag_id, player in conn.execute(together):
        if flag_id in first_of:
            link(first_of[flag_id], player)
        else:
            first_of[flag_id] = player
    return len({root(p) for p in people})
