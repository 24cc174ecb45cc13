"""The CPUs `auto` sizes a worker's table stage by: affinity, then the cgroup's CPU quota."""

from __future__ import annotations

from pathlib import Path

import pytest

from ingest.cpu_budget import cgroup_cpu_quota, usable_cpus


def _cgroup(tmp_path: Path, own: str, limits: dict[str, str]) -> tuple[Path, Path]:
    root = tmp_path / "cgroup"
    for relative, cpu_max in limits.items():
        directory = root / relative if relative else root
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "cpu.max").write_text(cpu_max + "\n")
    (root / own.lstrip("/")).mkdir(parents=True, exist_ok=True)
    membership = tmp_path / "self-cgroup"
    membership.write_text(f"0::{own}\n")
    return root, membership


def test_the_tightest_quota_from_the_process_cgroup_up_to_the_root(tmp_path: Path) -> None:
    root, membership = _cgroup(
        tmp_path, "/kubepods/pod1/c1", {"kubepods": "max 100000", "kubepods/pod1": "250000 100000"}
    )
    assert cgroup_cpu_quota(root, membership) == 2.5


@pytest.mark.parametrize("limits", [{}, {"": "max 100000"}, {"": "garbage"}, {"": "100000 0"}])
def test_no_quota(tmp_path: Path, limits: dict[str, str]) -> None:
    root, membership = _cgroup(tmp_path, "/", limits)
    assert cgroup_cpu_quota(root, membership) is None


def test_cgroup_v1_or_unreadable_membership_means_no_quota(tmp_path: Path) -> None:
    v1 = tmp_path / "v1"
    v1.write_text("4:memory:/x\n1:cpu:/\n")
    assert cgroup_cpu_quota(tmp_path, v1) is None
    assert cgroup_cpu_quota(tmp_path, tmp_path / "missing") is None


def test_a_quota_rounds_down_and_never_below_one(tmp_path: Path) -> None:
    root, membership = _cgroup(tmp_path, "/c", {"c": "150000 100000"})
    assert usable_cpus(root, membership) == 1
    root, membership = _cgroup(tmp_path / "b", "/c", {"c": "50000 100000"})
    assert usable_cpus(root, membership) == 1


def test_without_a_quota_it_is_the_affinity(tmp_path: Path) -> None:
    import os

    root, membership = _cgroup(tmp_path, "/", {})
    assert usable_cpus(root, membership) == len(os.sched_getaffinity(0))
