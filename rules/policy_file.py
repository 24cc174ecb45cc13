"""The moderation policy as a file analysts can read and change without a release (TOML).

`rules/default_policy.toml` ships with railbird and says what every key means;
`RAILBIRD_POLICY` names another file. A file is checked whole before it is used: an error
names the line it is on (the line of the table or key at fault), and a policy that fails the
check is never half-applied (a running worker keeps the one it had). Its `version` is stamped
on every automatic action, so an action can always be traced to the rules that chose it.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field
from datetime import timedelta
from importlib import resources
from pathlib import Path
from typing import Any

from railbird.detectors.findings import CATEGORIES, GROUP_CATEGORIES
from railbird.rules.chat_check_policy import ChatCheckPolicy, read_chat_check
from railbird.rules.report_policy import ReportPolicy, read_reports

KINDS = (
    "warn",
    "mute_chat",
    "chat_ban",
    "snapcam_ban",
    "suspend_communication",
    "refer_investigator",
)
Step = tuple[str, timedelta | None]
_TOP_LEVEL = {
    "version",
    "strike_window_hours",
    "ladders",
    "refer",
    "snapcam",
    "refusals",
    "chat_check",
    "reports",
}
REFUSAL_CATEGORY = "refusal_to_play"
# The house rule's own ladder (HOUSE_RULES.md, "Cash tables"), used when a file has no
# [refusals]: refusals per player and blind level in 12 hours; the n-th earns the n-th block.
_HOUSE_REFUSAL_HOURS = 12
_HOUSE_REFUSAL_BLOCKS = (0, 5, 15, 30, 60)


class PolicyError(ValueError):
    """A policy file that cannot be used; the message names the file and the line."""


@dataclass(frozen=True, slots=True)
class Policy:
    version: str
    strike_window: timedelta
    ladders: dict[str, tuple[Step, ...]]
    refer_categories: frozenset[str]
    refer_critical: bool
    only_refer: frozenset[str]
    snapcam_ban_categories: frozenset[str]
    snapcam_ban: timedelta | None
    # Refusals to play, counted per player and blind level within `refusal_window`: the n-th
    # earns `refusal_blocks[n-1]` (the last repeats) from joining tables of that level; None
    # is no block.
    refusal_window: timedelta
    refusal_blocks: tuple[timedelta | None, ...]
    source: str  # where it was read from
    text: str  # the file as written, for `GET /v1/policy`
    # What the chat check blocks, holds or passes per channel (`rules.chat_check_policy`).
    chat_check: ChatCheckPolicy = field(default_factory=ChatCheckPolicy)
    # How many reports a reporter may file, and what unrelated reporters weigh.
    reports: ReportPolicy = field(default_factory=ReportPolicy)

    def describe(self) -> dict[str, Any]:
        """The policy as plain data (what the API shows beside the file)."""
        return {
            "version": self.version,
            "source": self.source,
            "strike_window_hours": self.strike_window.total_seconds() / 3600,
            "ladders": {
                category: [
                    {"kind": kind, "minutes": None if d is None else d.total_seconds() / 60}
                    for kind, d in steps
                ]
                for category, steps in self.ladders.items()
            },
            "refer": {
                "categories": sorted(self.refer_categories),
                "critical": self.refer_critical,
                "only": sorted(self.only_refer),
            },
            "snapcam": {
                "ban_categories": sorted(self.snapcam_ban_categories),
                "minutes": None
                if self.snapcam_ban is None
                else self.snapcam_ban.total_seconds() / 60,
            },
            "refusals": {
                "window_hours": self.refusal_window.total_seconds() / 3600,
                "block_minutes": [
                    0 if d is None else d.total_seconds() / 60 for d in self.refusal_blocks
                ],
            },
            "chat_check": self.chat_check.describe(),
            "reports": self.reports.describe(),
        }


def default_policy_text() -> str:
    return resources.files("railbird.rules").joinpath("default_policy.toml").read_text("utf-8")


def default_policy() -> Policy:
    """The shipped policy (`rules/default_policy.toml`)."""
    return parse_policy(default_policy_text(), "default (rules/default_policy.toml)")


def configured_policy() -> Policy:
    """`RAILBIRD_POLICY`'s file when set, else the shipped one; `PolicyError` if unusable."""
    path = os.environ.get("RAILBIRD_POLICY")
    return default_policy() if not path else load_policy(Path(path))


def load_policy(path: Path) -> Policy:
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PolicyError(f"{path}: cannot be read ({exc})") from exc
    return parse_policy(text, str(path))


def parse_policy(text: str, source: str) -> Policy:
    """Check and read a policy file's text; `PolicyError` naming `source` and the line."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{source}: not TOML: {exc}") from exc
    where = _Locator(text, source)
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise where.error(unknown[0], f"unknown setting {unknown[0]!r}")
    version = data.get("version")
    if not isinstance(version, str) or not version.strip():
        raise where.error("version", "`version` must be a non-empty string")
    hours = data.get("strike_window_hours", 24)
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 24 * 90:
        raise where.error("strike_window_hours", "`strike_window_hours` must be 0-2160 hours")
    ladders_data = data.get("ladders", {})
    if not isinstance(ladders_data, dict):
        raise where.error("ladders", "`ladders` must be a table of categories")
    ladders: dict[str, tuple[Step, ...]] = {}
    for category, ladder in ladders_data.items():
        header = f"ladders.{category}"
        if category not in CATEGORIES:
            raise where.error(header, f"unknown category {category!r}")
        if category == REFUSAL_CATEGORY:
            raise where.error(header, f"{category!r} has its own ladder, [refusals]")
        if not isinstance(ladder, dict) or set(ladder) != {"steps"}:
            raise where.error(header, f"[{header}] takes exactly one key, `steps`")
        steps = ladder["steps"]
        if not isinstance(steps, list) or not steps:
            raise where.error(header, f"[{header}] needs at least one step")
        ladders[category] = tuple(_step(where, header, n, s) for n, s in enumerate(steps, 1))
    refer = data.get("refer", {})
    snapcam = data.get("snapcam", {})
    for name, table, keys in (
        ("refer", refer, {"categories", "critical", "only"}),
        ("snapcam", snapcam, {"ban_categories", "minutes"}),
    ):
        if not isinstance(table, dict) or set(table) - keys:
            raise where.error(name, f"[{name}] takes {', '.join(sorted(keys))}")
    refer_categories = _categories(where, "refer", refer.get("categories", []))
    only = _categories(where, "refer", refer.get("only", sorted(GROUP_CATEGORIES)))
    punished = sorted(only & set(ladders))
    if punished:
        raise where.error(
            f"ladders.{punished[0]}",
            f"{punished[0]!r} is in [refer] only (never punished) but has a ladder",
        )
    critical = refer.get("critical", True)
    if not isinstance(critical, bool):
        raise where.error("refer", "[refer] critical must be true or false")
    refusal_window, refusal_blocks = _refusals(where, data.get("refusals", {}))
    snapcam_categories = _categories(where, "snapcam", snapcam.get("ban_categories", []))
    for header, named in (("refer", refer_categories | only), ("snapcam", snapcam_categories)):
        if REFUSAL_CATEGORY in named:
            raise where.error(header, f"{REFUSAL_CATEGORY!r} is decided by [refusals] alone")
    return Policy(
        version=version.strip(),
        strike_window=timedelta(hours=hours),
        ladders=ladders,
        refer_categories=refer_categories,
        refer_critical=critical,
        only_refer=only,
        snapcam_ban_categories=snapcam_categories,
        snapcam_ban=_minutes(where, "snapcam", snapcam.get("minutes")),
        refusal_window=refusal_window,
        refusal_blocks=refusal_blocks,
        source=source,
        text=text,
        chat_check=read_chat_check(data.get("chat_check", {}), where.error),
        reports=read_reports(data.get("reports", {}), where.error),
    )


def _refusals(where: _Locator, table: Any) -> tuple[timedelta, tuple[timedelta | None, ...]]:
    if not isinstance(table, dict) or set(table) - {"window_hours", "block_minutes"}:
        raise where.error("refusals", "[refusals] takes block_minutes, window_hours")
    hours = table.get("window_hours", _HOUSE_REFUSAL_HOURS)
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 24 * 90:
        raise where.error("window_hours", "[refusals] window_hours must be 0-2160 hours")
    blocks = table.get("block_minutes", list(_HOUSE_REFUSAL_BLOCKS))
    if not isinstance(blocks, list) or not blocks:
        raise where.error("block_minutes", "[refusals] block_minutes must be a non-empty list")
    steps: list[timedelta | None] = []
    for number, minutes in enumerate(blocks, 1):
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
            raise where.error(
                "block_minutes",
                f"[refusals] block_minutes: refusal {number}'s block must be whole minutes, "
                "0 (none) or more",
            )
        steps.append(_minutes(where, "refusals", minutes) if minutes else None)
    return timedelta(hours=hours), tuple(steps)


def _step(where: _Locator, header: str, number: int, step: Any) -> Step:
    if not isinstance(step, dict) or not set(step) <= {"kind", "minutes"} or "kind" not in step:
        raise where.error(header, f"step {number} of [{header}]: `{{ kind = ..., minutes = ... }}`")
    kind = step["kind"]
    if kind not in KINDS:
        raise where.error(
            header,
            f"step {number} of [{header}]: unknown kind {kind!r} (one of {', '.join(KINDS)})",
        )
    duration = _minutes(where, header, step.get("minutes"))
    if kind in ("warn", "refer_investigator") and duration is not None:
        raise where.error(header, f"step {number} of [{header}]: a {kind} has no `minutes`")
    return kind, duration


def _minutes(where: _Locator, header: str, value: Any) -> timedelta | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 525_600 * 10:
        raise where.error(header, f"[{header}] minutes must be a whole number, 1 to 5,256,000")
    return timedelta(minutes=value)


def _categories(where: _Locator, header: str, value: Any) -> frozenset[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(header, f"[{header}] categories must be a list of category names")
    unknown = sorted(set(value) - set(CATEGORIES))
    if unknown:
        raise where.error(header, f"[{header}]: unknown category {unknown[0]!r}")
    return frozenset(value)


class _Locator:
    """Finds the line a table header or key is on, for error messages (tomllib keeps none)."""

    def __init__(self, text: str, source: str) -> None:
        self.lines = text.splitlines()
        self.source = source

    def error(self, name: str, message: str) -> PolicyError:
        line = self._line_of(name)
        at = f" line {line}" if line else ""
        return PolicyError(f"{self.source}{at}: {message}")

    def _line_of(self, name: str) -> int | None:
        header = re.compile(rf"^\s*\[\s*{re.escape(name)}\s*\]")
        key = re.compile(rf"^\s*{re.escape(name.split('.')[-1])}\s*=")
        for pattern in (header, key):
            for number, line in enumerate(self.lines, 1):
                if pattern.match(line):
                    return number
        return None
