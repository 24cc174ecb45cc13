"""What railbird does about a flag: the restriction ladder the chat-muting service applies."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from railbird.rules.action_kinds import RESTRICTING_KINDS as RESTRICTING_KINDS
from railbird.rules.action_kinds import ActionKind
from railbird.rules.flags import format_ts


@dataclass(frozen=True, slots=True)
class Action:
    """An action on one player about its flags, in the contract's shape; keyed by `action_id`.

    `duration` None means no end: until lifted for a restriction, nothing to end otherwise.
    """

    action_id: str
    kind: ActionKind
    player_id: str
    ts: datetime
    reason: str
    flag_ids: tuple[str, ...]
    duration: timedelta | None = None
    actor: str = "railbird-rules"
    scope: str | None = None  # what a restriction is limited to: a join block's blind level

    @property
    def expires_at(self) -> datetime | None:
        """When the action ends by itself; None when it has no `duration`."""
        return None if self.duration is None else self.ts + self.duration

    @property
    def restricts(self) -> bool:
        """True for a mute or a suspension: warnings and referrals limit nothing."""
        return self.kind in RESTRICTING_KINDS

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON shape, with the duration in whole seconds (and a join block's
        `blind_level`)."""
        expires = self.expires_at
        shape: dict[str, Any] = {
            "action_id": self.action_id,
            "kind": self.kind,
            "player_id": self.player_id,
            "ts": format_ts(self.ts),
            "expires_at": None if expires is None else format_ts(expires),
            "duration_s": None if self.duration is None else int(self.duration.total_seconds()),
            "reason": self.reason,
            "flag_ids": list(self.flag_ids),
            "actor": self.actor,
        }
        if self.scope is not None:
            shape["blind_level"] = self.scope
        return shape


def action_id_for(kind: str, player_id: str, flag_ids: tuple[str, ...]) -> str:
    """Deterministic: the same kind, player and flag ids (in order) give the same id on a replay."""
    key = f"{kind}|{player_id}|{','.join(flag_ids)}"
    return "a-" + hashlib.blake2b(key.encode("utf-8"), digest_size=10).hexdigest()
