"""What players' reports weigh: how many a reporter may file, and how many unrelated reporters
make a report case more urgent.

Reports are a signal, never a verdict: they never restrict anyone by themselves (no ladder
reads them); they order the analysts' queue. Mass reporting is abuse too, so one reporter's
reports are limited per hour, and the refused ones are counted. Read from the policy file's
`[reports]` table (`rules.policy_file`); what a file leaves out is the shipped file's.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from railbird.detectors.categories import CATEGORIES
from railbird.rules.chat_check_policy import PolicyErrorFactory

# What a player may report another for: any flag category but a refusal to play, which the
# table events decide alone.
REPORT_REASONS: tuple[str, ...] = tuple(c for c in CATEGORIES if c != "refusal_to_play")
_KEYS = {"per_reporter_per_hour", "medium_at", "high_at"}


@dataclass(frozen=True, slots=True)
class ReportPolicy:
    """`per_reporter_per_hour`: reports one reporter may file in any hour (the rest are refused
    and counted). A report case (reports on a player no detector flagged) is low with one
    group of reporters, medium from `medium_at` unrelated groups, high from `high_at`."""

    per_reporter_per_hour: int
    medium_at: int
    high_at: int

    def severity(self, groups: int) -> str:
        if groups >= self.high_at:
            return "high"
        return "medium" if groups >= self.medium_at else "low"

    def describe(self) -> dict[str, Any]:
        return {
            "per_reporter_per_hour": self.per_reporter_per_hour,
            "medium_at": self.medium_at,
            "high_at": self.high_at,
        }


def read_reports(table: Any, shipped: Mapping[str, Any], error: PolicyErrorFactory) -> ReportPolicy:
    """The `[reports]` table of a policy file, a key it leaves out taken from `shipped` (the
    shipped file's); `error(name, message)` names the line."""
    if not isinstance(table, dict) or set(table) - _KEYS:
        raise error("reports", f"[reports] takes {', '.join(sorted(_KEYS))}")
    values: dict[str, int] = {}
    for key in sorted(_KEYS):
        value = table.get(key, shipped[key])
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 10_000:
            raise error(f"reports.{key}", f"[reports] {key} must be a whole number, 1 to 10,000")
        values[key] = value
    if values["medium_at"] > values["high_at"]:
        raise error("reports.medium_at", "[reports] medium_at must not be above high_at")
    return ReportPolicy(**values)
