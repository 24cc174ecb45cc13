"""One import namespace: the installed distribution adds `railbird` alone to an environment, and
`railbird.<edge>` is the folder at the top of the repository (a symbolic link), not a copy."""

from __future__ import annotations

import importlib
import importlib.metadata
import sys
from pathlib import Path

import pytest

from tests.paths import REPO

FOLDERS = ("api", "ingest", "store", "rules", "detectors", "sim")


def test_the_distribution_installs_one_top_level_package() -> None:
    top_level = importlib.metadata.distribution("railbird").read_text("top_level.txt")
    assert top_level is not None
    assert top_level.split() == ["railbird"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_each_folder_is_its_railbird_subpackage(folder: str) -> None:
    link = REPO / "railbird" / folder
    assert link.is_symlink() and link.resolve() == (REPO / folder).resolve()
    module = importlib.import_module(f"railbird.{folder}")
    assert module.__file__ is not None
    assert Path(module.__file__).resolve() == (REPO / folder / "__init__.py").resolve()


def test_the_pipeline_never_imports_a_folder_under_its_bare_name() -> None:
    importlib.import_module("railbird.detectors.registry")
    importlib.import_module("railbird.ingest.files.scan")
    importlib.import_module("railbird.api.app")
    assert [f for f in FOLDERS if f in sys.modules] == []
