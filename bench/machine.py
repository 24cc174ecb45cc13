"""What machine a benchmark ran on, for the results tables."""

from __future__ import annotations

import os
import platform
from pathlib import Path


def describe_machine() -> str:
    cpu = "unknown CPU"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    mem = ""
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        kib = int(meminfo.read_text().split()[1])
        mem = f", {kib / 1024 / 1024:.0f} GiB RAM"
    return (
        f"{os.cpu_count()} cores ({cpu}){mem}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.release()}"
    )


def write_report(out: Path, report: str) -> None:
    """Write a benchmark's regenerated table to `out`, keeping the hand-written reading below
    it (everything from "## Reading it" on) from the previous run."""
    old = out.read_text() if out.exists() else ""
    reading = old[old.find("\n## Reading it") :] if "\n## Reading it" in old else ""
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report + reading)
