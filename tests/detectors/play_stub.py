"""A stand-in honest-decision model for detector tests: the same plain-array format as the
shipped one, predicting fixed probabilities whatever the spot, so that a test controls every
residual by choosing the actions (a real model's predictions would make a deterministic test
depend on its training)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from railbird.detectors.play.decisions import CHOICES, FEATURE_NAMES

FOLD_P, CALL_P, RAISE_P = 0.6, 0.3, 0.1


def write_stub_model(
    folder: Path, probabilities: tuple[float, float, float] = (FOLD_P, CALL_P, RAISE_P)
) -> str:
    """A one-layer model with zero weights and the log-probabilities as biases."""
    folder.mkdir(parents=True, exist_ok=True)
    width = len(FEATURE_NAMES)
    np.savez(
        folder / "honest_play.npz",
        layers=np.asarray(1),
        mean=np.zeros(width),
        scale=np.ones(width),
        w0=np.zeros((width, len(CHOICES))),
        b0=np.asarray([math.log(p) for p in probabilities]),
    )
    manifest = {"version": "stub", "features": list(FEATURE_NAMES), "classes": list(CHOICES)}
    (folder / "honest_play.json").write_text(json.dumps(manifest))
    return str(folder)
