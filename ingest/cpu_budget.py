"""How many CPUs this process may use: what `auto` sizes the table stage's members by.

`os.cpu_count()` counts the host's CPUs. A process pinned to some of them (a CPU set) or held
to a CPU quota (cgroup v2 `cpu.max`, which is what a Kubernetes CPU limit sets) may use fewer,
and a worker that started one member per host CPU would have its members take turns on the
quota, each paying its own consumer, decoder and detector state for nothing.
"""

from __future__ import annotations

import os
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")


def usable_cpus(cgroup_root: Path = CGROUP_ROOT, cgroup_file: Path | None = None) -> int:
    """The CPUs this process may run on, at most its cgroup's CPU quota (rounded down), >= 1."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        cpus = os.cpu_count() or 1
    quota = cgroup_cpu_quota(cgroup_root, cgroup_file or Path("/proc/self/cgroup"))
    if quota is not None:
        cpus = min(cpus, int(quota))
    return max(1, cpus)


def cgroup_cpu_quota(root: Path, cgroup_file: Path) -> float | None:
    """The tightest `cpu.max` quota (CPUs) from this process's cgroup up to `root`; None if
    there is none (no limit, cgroup v1, or nothing readable)."""
    try:
        lines = cgroup_file.read_text().splitlines()
    except OSError:
        return None
    own = next((line[3:] for line in lines if line.startswith("0::")), None)
    if own is None:
        return None
    quotas = []
    directory = root / own.lstrip("/")
    while True:
        quota = _read_cpu_max(directory / "cpu.max")
        if quota is not None:
            quotas.append(quota)
        if directory == root or root not in directory.parents:
            break
        directory = directory.parent
    return min(quotas) if quotas else None


def _read_cpu_max(path: Path) -> float | None:
    """`cpu.max` is "<quota> <period>" in µs, or "max <period>" for no limit."""
    try:
        fields = path.read_text().split()
    except OSError:
        return None
    if len(fields) != 2 or fields[0] == "max":
        return None
    try:
        quota, period = int(fields[0]), int(fields[1])
    except ValueError:
        return None
    return quota / period if period > 0 else None
