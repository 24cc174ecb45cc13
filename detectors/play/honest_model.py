"""The honest-decision model at run time: what an honest player would do in a spot, as
probabilities of fold, check-or-call and bet-or-raise.

A small multilayer perceptron (scikit-learn's, trained by `railbird train-play`), stored as
plain arrays (`honest_play.npz`, loaded with `allow_pickle=False`) beside a JSON manifest that
names the features, the classes, the training data and its metrics. Applying it is two or three
matrix products over a hand's decisions at once: no scikit-learn at run time, nothing unpickled.
"""

from __future__ import annotations

import hashlib
import io
import itertools
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from railbird.detectors.play.decisions import CHOICES, FEATURE_NAMES

Matrix = npt.NDArray[np.float64]
MAX_LAYERS = 8  # more than any model railbird trains: a file claiming more is broken


class PlayModelError(ValueError):
    """A model file that is missing, malformed or made for other features."""


@dataclass(frozen=True, slots=True)
class HonestModel:
    mean: Matrix
    scale: Matrix
    weights: tuple[Matrix, ...]
    biases: tuple[Matrix, ...]
    manifest: dict[str, Any] = field(repr=False)

    digest: str = ""  # of the weights file: which model, when two share a version

    @property
    def version(self) -> str:
        """The manifest's version and the weights' digest: a model retrained into the same
        directory is another model in the evidence it gives."""
        base = str(self.manifest.get("version", "?"))
        return f"{base}+{self.digest[:12]}" if self.digest else base

    def probabilities(self, rows: Matrix) -> Matrix:
        """One row of (fold, check_call, bet_raise) probabilities per input row."""
        x = (rows - self.mean) / self.scale
        last = len(self.weights) - 1
        for k, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            x = x @ w + b
            if k < last:
                np.maximum(x, 0.0, out=x)
        x -= x.max(axis=1, keepdims=True)
        np.exp(x, out=x)
        x /= x.sum(axis=1, keepdims=True)
        return x


def load_model(npz_path: Path, manifest_path: Path) -> HonestModel:
    try:
        manifest = json.loads(manifest_path.read_text())
        raw = npz_path.read_bytes()
        with np.load(io.BytesIO(raw), allow_pickle=False) as arrays:
            layers = int(arrays["layers"])
            if not 1 <= layers <= MAX_LAYERS:
                raise ValueError(f"{layers} layers")
            weights = tuple(np.asarray(arrays[f"w{k}"], dtype=np.float64) for k in range(layers))
            biases = tuple(np.asarray(arrays[f"b{k}"], dtype=np.float64) for k in range(layers))
            mean = np.asarray(arrays["mean"], dtype=np.float64)
            scale = np.asarray(arrays["scale"], dtype=np.float64)
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise PlayModelError(f"cannot load play model {npz_path}: {exc}") from exc
    if not isinstance(manifest, dict):
        raise PlayModelError(f"play model manifest {manifest_path} is not a JSON object")
    if tuple(manifest.get("features", ())) != FEATURE_NAMES:
        raise PlayModelError(f"play model {npz_path} was trained on other features")
    if tuple(manifest.get("classes", ())) != CHOICES:
        raise PlayModelError(f"play model {npz_path} predicts other classes")
    width = len(FEATURE_NAMES)
    if any(w.ndim != 2 for w in weights):
        raise PlayModelError(f"play model {npz_path}: weights must be matrices")
    shapes_ok = mean.shape == (width,) and scale.shape == (width,) and weights[0].shape[0] == width
    for w_in, w_out in itertools.pairwise(weights):
        shapes_ok = shapes_ok and w_in.shape[1] == w_out.shape[0]
    shapes_ok = shapes_ok and weights[-1].shape[1] == len(CHOICES)
    shapes_ok = shapes_ok and all(
        b.shape == (w.shape[1],) for w, b in zip(weights, biases, strict=True)
    )
    if not shapes_ok:
        raise PlayModelError(f"play model {npz_path}: array shapes do not fit together")
    scale = np.where(scale > 0, scale, 1.0)
    digest = hashlib.sha256(raw).hexdigest()
    return HonestModel(mean, scale, weights, biases, manifest, digest)


def model_at(model_dir: str = "") -> HonestModel:
    """The model in `model_dir` (the one shipped with railbird when empty), loaded once per
    version of its files: `railbird train-play` writing into the same directory is seen by the
    next build or reload, as it is by a restarted worker."""
    if not model_dir:
        return _model_at("", None)
    try:
        stamp = tuple(
            (f.stat().st_mtime_ns, f.stat().st_size)
            for f in (Path(model_dir) / "honest_play.npz", Path(model_dir) / "honest_play.json")
        )
    except OSError as exc:
        raise PlayModelError(f"cannot load play model {model_dir}: {exc}") from exc
    return _model_at(model_dir, stamp)


@lru_cache(maxsize=4)
def _model_at(model_dir: str, stamp: object) -> HonestModel:
    if model_dir:
        base = Path(model_dir)
        return load_model(base / "honest_play.npz", base / "honest_play.json")
    package = resources.files("railbird.detectors.play") / "models"
    with (
        resources.as_file(package / "honest_play.npz") as npz,
        resources.as_file(package / "honest_play.json") as meta,
    ):
        return load_model(npz, meta)
