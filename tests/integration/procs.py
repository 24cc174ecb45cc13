"""A process and its descendants, from Linux /proc: the Kafka tests check that a killed
worker leaves no orphan behind, and the Kafka benchmark sums a worker's CPU and memory over all
of its processes (table stage, site stage, their store writers)."""

from __future__ import annotations

import os
from pathlib import Path

_TICKS = os.sysconf("SC_CLK_TCK")


def descendants(pid: int) -> list[int]:
    """Every process below `pid`, children before grandchildren."""
    found: list[int] = []
    try:
        tasks = list(Path(f"/proc/{pid}/task").iterdir())
    except FileNotFoundError:
        return found
    for task in tasks:
        try:
            children = (task / "children").read_text().split()
        except FileNotFoundError:
            continue
        for child in children:
            found += [int(child), *descendants(int(child))]
    return found


def _stat(pid: int) -> list[str] | None:
    try:
        # The command name (field 2) may hold spaces: the fields proper start after its ")".
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return None


def alive(pid: int) -> bool:
    """Running, not a zombie waiting for a parent that is gone (or for init) to reap it."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU time of `pid` and every live descendant, in seconds."""
    total = 0
    for each in (pid, *descendants(pid)):
        fields = _stat(each)
        if fields is not None:
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    return total / _TICKS


def tree_rss_mib(pid: int) -> float:
    """Resident memory of `pid` and every live descendant, in MiB (shared pages counted in
    each process, so an upper bound)."""
    total_kib = 0
    for each in (pid, *descendants(pid)):
        try:
            status = Path(f"/proc/{each}/status").read_text()
        except FileNotFoundError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                total_kib += int(line.split()[1])
    return total_kib / 1024
