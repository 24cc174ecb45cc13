"""The streaming GC settings: applied as documented, and restorable (tests share one process)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from railbird.ingest.gc_tuning import YOUNG_THRESHOLD, tune_for_streaming


@pytest.fixture
def restore_gc() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


@pytest.mark.usefixtures("restore_gc")
def test_tuning_freezes_what_exists_and_collects_rarely() -> None:
    gc.unfreeze()
    survivor = [object() for _ in range(10)]  # tracked container, alive across the freeze
    tune_for_streaming()
    assert gc.get_freeze_count() > 0
    assert gc.get_threshold()[0] == YOUNG_THRESHOLD > 700
    assert survivor  # frozen objects stay usable
