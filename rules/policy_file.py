"""The moderation policy as a file analysts can read and change without a release (TOML).

`rules/default_policy.toml` ships with railbird and says what every key means; `RAILBIRD_POLICY`
(`rules.settings`) names another file. A table or key that file leaves out is the shipped
file's (except `[ladders]`, which a file states whole), so every default value is written once,
in the shipped file, and never again in code. A file is checked whole before it is used: an
error names the line it is on (the line of the table or key at fault), and a policy that fails
the check is never half-applied (a running process keeps the one it had). Its `version` is
stamped on every automatic action, so an action can always be traced to the rules that chose it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from datetime import timedelta
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from railbird.detectors.categories import CATEGORIES
from railbird.rules.action_kinds import LADDER_KINDS, UNTIMED_KINDS
from railbird.rules.chat_check_policy import ChatCheckPolicy, read_chat_check
from railbird.rules.detector_settings import DetectorSettings, read_detector_settings
from railbird.rules.policy_lines import PolicyError, PolicyLines
from railbird.rules.report_policy import ReportPolicy, read_reports

__all__ = ["REFUSAL_CATEGORY", "Policy", "PolicyError", "default_policy", "load_policy"]

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
    "site",
    "detectors",
}
REFUSAL_CATEGORY = "refusal_to_play"


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
    # What the chat check blocks, holds or passes per channel (`rules.chat_check_policy`).
    chat_check: ChatCheckPolicy
    # How many reports a reporter may file, and what unrelated reporters weigh.
    reports: ReportPolicy
    # The room and the operator's detector settings (`rules.detector_settings`).
    detectors: DetectorSettings
    source: str  # where it was read from
    text: str  # the file as written, for `GET /v1/policy`

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
            **self.detectors.describe(),
        }


def default_policy_text() -> str:
    return resources.files("railbird.rules").joinpath("default_policy.toml").read_text("utf-8")


@cache
def _shipped_data() -> dict[str, Any]:
    """The shipped file's tables: what a file's missing tables and keys fall back to."""
    return tomllib.loads(default_policy_text())


def default_policy() -> Policy:
    """The shipped policy (`rules/default_policy.toml`)."""
    return parse_policy(default_policy_text(), "default (rules/default_policy.toml)")


def policy_at(path: Path | None) -> Policy:
    """The policy file at `path` (`RAILBIRD_POLICY`), or the shipped one for None;
    `PolicyError` if it cannot be used."""
    return default_policy() if path is None else load_policy(path)


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
    where = PolicyLines(text, source)
    shipped = _shipped_data()
    unknown = sorted(set(data) - _TOP_LEVEL)
    if unknown:
        raise where.error(unknown[0], f"unknown setting {unknown[0]!r}")
    version = data.get("version")
    if not isinstance(version, str) or not version.strip():
        raise where.error("version", "`version` must be a non-empty string")
    hours = data.get("strike_window_hours", shipped["strike_window_hours"])
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 24 * 90:
        raise where.error("strike_window_hours", "`strike_window_hours` must be 0-2160 hours")
    ladders = _ladders(where, data.get("ladders", shipped["ladders"]))
    refer = _table(where, "refer", data, shipped, {"categories", "critical", "only"})
    snapcam = _table(where, "snapcam", data, shipped, {"ban_categories", "minutes"})
    refer_categories = _categories(where, "refer.categories", refer["categories"])
    only = _categories(where, "refer.only", refer["only"])
    punished = sorted(only & set(ladders))
    if punished:
        raise where.error(
            f"ladders.{punished[0]}",
            f"{punished[0]!r} is in [refer] only (never punished) but has a ladder",
        )
    critical = refer["critical"]
    if not isinstance(critical, bool):
        raise where.error("refer.critical", "[refer] critical must be true or false")
    refusal_window, refusal_blocks = _refusals(
        where, _table(where, "refusals", data, shipped, {"window_hours", "block_minutes"})
    )
    snapcam_categories = _categories(where, "snapcam.ban_categories", snapcam["ban_categories"])
    for header, named in (
        ("refer.categories", refer_categories),
        ("refer.only", only),
        ("snapcam.ban_categories", snapcam_categories),
    ):
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
        # 0: until lifted (a key left out is the shipped file's length).
        snapcam_ban=_minutes(where, "snapcam.minutes", snapcam["minutes"] or None),
        refusal_window=refusal_window,
        refusal_blocks=refusal_blocks,
        chat_check=read_chat_check(data.get("chat_check", {}), shipped["chat_check"], where.error),
        reports=read_reports(data.get("reports", {}), shipped["reports"], where.error),
        detectors=read_detector_settings(
            data.get("site", shipped.get("site", {})), data.get("detectors", {}), where.error
        ),
        source=source,
        text=text,
    )


def _table(
    where: PolicyLines, name: str, data: dict[str, Any], shipped: dict[str, Any], keys: set[str]
) -> dict[str, Any]:
    """Table `name` of the file, each key it leaves out taken from the shipped file."""
    table = data.get(name, {})
    if not isinstance(table, dict) or set(table) - keys:
        bad = sorted(set(table) - keys) if isinstance(table, dict) else []
        raise where.error(
            f"{name}.{bad[0]}" if bad else name, f"[{name}] takes {', '.join(sorted(keys))}"
        )
    return {**shipped.get(name, {}), **table}


def _ladders(where: PolicyLines, ladders_data: Any) -> dict[str, tuple[Step, ...]]:
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
    return ladders


def _refusals(
    where: PolicyLines, table: dict[str, Any]
) -> tuple[timedelta, tuple[timedelta | None, ...]]:
    hours = table["window_hours"]
    if isinstance(hours, bool) or not isinstance(hours, int | float) or not 0 < hours <= 24 * 90:
        raise where.error("refusals.window_hours", "[refusals] window_hours must be 0-2160 hours")
    blocks = table["block_minutes"]
    if not isinstance(blocks, list) or not blocks:
        raise where.error(
            "refusals.block_minutes", "[refusals] block_minutes must be a non-empty list"
        )
    steps: list[timedelta | None] = []
    for number, minutes in enumerate(blocks, 1):
        if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
            raise where.error(
                "refusals.block_minutes",
                f"[refusals] block_minutes: refusal {number}'s block must be whole minutes, "
                "0 (none) or more",
            )
        steps.append(_minutes(where, "refusals.block_minutes", minutes) if minutes else None)
    return timedelta(hours=hours), tuple(steps)


def _step(where: PolicyLines, header: str, number: int, step: Any) -> Step:
    if not isinstance(step, dict) or not set(step) <= {"kind", "minutes"} or "kind" not in step:
        raise where.error(header, f"step {number} of [{header}]: `{{ kind = ..., minutes = ... }}`")
    kind = step["kind"]
    if kind not in LADDER_KINDS:
        raise where.error(
            header,
            f"step {number} of [{header}]: unknown kind {kind!r} "
            f"(one of {', '.join(LADDER_KINDS)})",
        )
    duration = _minutes(where, header, step.get("minutes"), header)
    if kind in UNTIMED_KINDS and duration is not None:
        raise where.error(header, f"step {number} of [{header}]: a {kind} has no `minutes`")
    return kind, duration


def _minutes(where: PolicyLines, name: str, value: Any, table: str = "") -> timedelta | None:
    """A length in whole minutes (None: none given, which is until lifted)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 525_600 * 10:
        label = table or name.split(".")[0]
        raise where.error(name, f"[{label}] minutes must be a whole number, 1 to 5,256,000")
    return timedelta(minutes=value)


def _categories(where: PolicyLines, name: str, value: Any) -> frozenset[str]:
    table = name.split(".")[0]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise where.error(name, f"[{table}] categories must be a list of category names")
    unknown = sorted(set(value) - set(CATEGORIES))
    if unknown:
        raise where.error(name, f"[{table}]: unknown category {unknown[0]!r}")
    return frozenset(value)
