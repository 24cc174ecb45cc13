"""How grave a flag is: the one ordered list of severities every part of railbird reads."""

from __future__ import annotations

from typing import Literal, get_args

Severity = Literal["low", "medium", "high", "critical"]
# Mildest first: the order the queue, the ladders and `min_severity` filters compare in.
SEVERITIES: tuple[Severity, ...] = get_args(Severity)
SEVERITY_RANK: dict[str, int] = {severity: rank for rank, severity in enumerate(SEVERITIES)}
