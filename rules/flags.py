"""The contract's flag, with an id that depends only on what was found.

Deterministic ids are what make the whole system idempotent: a replay after a crash, a second
worker re-reading a partition, or `scan` run twice all produce the same `flag_id`, and the store
and downstream consumers upsert on it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from railbird.detectors.findings import Finding


def flag_id_for(finding: Finding) -> str:
    """A hash of `Finding.identity` alone: a finding that grows more severe keeps its flag id."""
    digest = hashlib.blake2b(finding.identity.encode("utf-8"), digest_size=10).hexdigest()
    return f"f-{digest}"


_CONTRACT_TS = "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ"


def format_ts(ts: datetime) -> str:
    """RFC 3339 UTC with milliseconds and a Z, as the contract writes times.

    Written with `%` rather than `strftime` (cheaper, docs/design-numbers.md; every flag and
    action sent to Kafka writes one or two). `strftime` stays for what it writes differently:
    years before 1000 (unpadded, "999-...") and datetime subclasses, which may format themselves.
    """
    if type(ts) is datetime and ts.year >= 1000:
        return _CONTRACT_TS % (
            ts.year,
            ts.month,
            ts.day,
            ts.hour,
            ts.minute,
            ts.second,
            ts.microsecond // 1000,
        )
    return ts.strftime("%Y-%m-%dT%H:%M:%S.") + f"{ts.microsecond // 1000:03d}Z"


@dataclass(frozen=True, slots=True)
class Flag:
    """A finding with its deterministic id: what the pipeline emits; stored by `flag_id`."""

    flag_id: str
    finding: Finding

    @classmethod
    def from_finding(cls, finding: Finding) -> Flag:
        """The flag for `finding`, its id derived with `flag_id_for`."""
        return cls(flag_id=flag_id_for(finding), finding=finding)

    @property
    def category(self) -> str:
        """The finding's category: what the rulebook picks a ladder by."""
        return self.finding.category

    @property
    def severity(self) -> str:
        """The finding's severity, `low` to `critical` (ordered by `SEVERITY_RANK`)."""
        return self.finding.severity

    @property
    def player_ids(self) -> tuple[str, ...]:
        """The players the finding names: at least one; the rules act on each."""
        return self.finding.player_ids

    def to_dict(self) -> dict[str, Any]:
        """The contract's JSON shape."""
        f = self.finding
        evidence: dict[str, Any] = {
            "kind": f.evidence.kind,
            "summary": f.evidence.summary,
            "event_ids": list(f.evidence.event_ids),
            "measures": dict(f.evidence.measures),
        }
        evidence.update(f.evidence.details)
        return {
            "flag_id": self.flag_id,
            "category": f.category,
            "detector": f.detector,
            "severity": f.severity,
            "score": round(f.score, 4),
            "ts": format_ts(f.ts),
            "player_ids": list(f.player_ids),
            "table_id": f.table_id,
            "tournament_id": f.tournament_id,
            "hand_id": f.hand_id,
            "message_ids": list(f.message_ids),
            "explanation": f.evidence.summary,
            "evidence": evidence,
        }
