"""Scores chat with the trained linear model, in numpy, a few microseconds a message.

Why not scikit-learn at run time: its per-call input validation costs milliseconds a message,
and unpickling a model file can run arbitrary code. The model is plain arrays (`np.load` with
`allow_pickle=False`) and a JSON manifest; scoring is a gather-and-sum over the message's hashed
buckets, then the sigmoid calibration fitted at training time. Tweets and SMS are not poker
chat, so each head only flags above a threshold chosen on held-out data for high precision, and
the evidence names the words that pushed the score up.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from detectors.events import AnyEvent, ChatEvent
from detectors.findings import CATEGORIES, Category, Evidence, Finding, Severity
from detectors.ml_features import N_FEATURES, buckets
from detectors.state import State

MODEL_VERSION = "chat_scorer-1"
# Toxic heads by precedence: one message gets at most one of these, the most severe.
TOXIC_PRECEDENCE = ("hate", "abusive")


class ModelError(ValueError):
    """The model files are missing, inconsistent, or not plain arrays."""


@dataclass(frozen=True, slots=True)
class LinearModel:
    heads: tuple[str, ...]
    categories: tuple[Category, ...]
    weights: npt.NDArray[np.float32]  # (N_FEATURES, heads)
    intercepts: npt.NDArray[np.float64]
    cal_a: npt.NDArray[np.float64]
    cal_b: npt.NDArray[np.float64]
    thresholds: npt.NDArray[np.float64]
    manifest: dict[str, Any] = field(repr=False)
    # The margin below which a head's probability cannot reach its threshold (a slack of 1e-6
    # so rounding never hides a flag): p >= t  <=>  a*m + b <= log(1/t - 1), with a < 0.
    min_margins: npt.NDArray[np.float64] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not (self.cal_a < 0).all():
            raise ModelError("chat model: calibration must increase with the score")
        limits = (np.log(1.0 / self.thresholds - 1.0) - self.cal_b) / self.cal_a - 1e-6
        object.__setattr__(self, "min_margins", limits)

    def margins(self, indices: list[int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
        """Linear scores per head, and the per-bucket contributions."""
        rows = self.weights.take(indices, axis=0)
        return rows.sum(axis=0, dtype=np.float64) + self.intercepts, rows

    def calibrate(self, margin: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return 1.0 / (1.0 + np.exp(self.cal_a * margin + self.cal_b))

    def scores(self, indices: list[int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
        """Calibrated probabilities per head, and the per-bucket contributions."""
        margin, rows = self.margins(indices)
        return self.calibrate(margin), rows

    def probabilities(self, text: str) -> dict[str, float]:
        found = buckets(text)
        probs, _ = self.scores(list(found))
        return {h: float(p) for h, p in zip(self.heads, probs, strict=True)}


def load_model(npz_path: Path, manifest_path: Path) -> LinearModel:
    """Load plain arrays only; a file that needs pickle is refused, not trusted."""
    try:
        manifest = json.loads(manifest_path.read_text())
        with np.load(npz_path, allow_pickle=False) as arrays:
            weights = np.ascontiguousarray(arrays["weights"].T, dtype=np.float32)
            intercepts = np.asarray(arrays["intercepts"], dtype=np.float64)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot load chat model {npz_path}: {exc}") from exc
    heads = tuple(manifest["heads"])
    if weights.shape != (N_FEATURES, len(heads)) or intercepts.shape != (len(heads),):
        raise ModelError(f"chat model {npz_path}: arrays do not match the manifest's heads")
    info = [manifest["head_info"][h] for h in heads]
    categories = tuple(i["category"] for i in info)
    if any(c not in CATEGORIES for c in categories):
        raise ModelError(f"chat model {npz_path}: unknown category in {categories}")
    return LinearModel(
        heads=heads,
        categories=categories,
        weights=weights,
        intercepts=intercepts,
        cal_a=np.array([i["calibration_a"] for i in info]),
        cal_b=np.array([i["calibration_b"] for i in info]),
        thresholds=np.array([i["threshold"] for i in info]),
        manifest=manifest,
    )


@cache
def _model_at(model_dir: str) -> LinearModel:
    if model_dir:
        base = Path(model_dir)
        return load_model(base / "chat_scorer.npz", base / "chat_scorer.json")
    package = resources.files("detectors") / "models"
    with (
        resources.as_file(package / "chat_scorer.npz") as npz,
        resources.as_file(package / "chat_scorer.json") as meta,
    ):
        return load_model(npz, meta)


@dataclass(frozen=True, slots=True)
class MlScorer:
    name: ClassVar[str] = "ml_scorer"
    # Directory with chat_scorer.npz/.json; empty means the model shipped with railbird.
    model_dir: str = ""
    # Never flag below this probability, whatever the tuned threshold says.
    min_probability: float = 0.5
    min_tokens: int = 2
    top_features: int = 3

    def model(self) -> LinearModel:
        return _model_at(self.model_dir)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or len(event.text) < 4:
            return []
        found = buckets(event.text)
        if len(found) < self.min_tokens:
            return []
        model = self.model()
        indices = list(found)
        margin, rows = model.margins(indices)
        # Most messages are far below every threshold: skip calibration for them.
        if not (margin >= model.min_margins).any():
            return []
        probs = model.calibrate(margin)
        over = (probs >= model.thresholds) & (probs >= self.min_probability)
        if not over.any():
            return []
        chosen = [i for i, head in enumerate(model.heads) if over[i] and head == "spam"]
        for head in TOXIC_PRECEDENCE:
            if head in model.heads and over[model.heads.index(head)]:
                chosen.append(model.heads.index(head))
                break
        features = [found[i] for i in indices]
        return [
            self._finding(event, model, i, float(probs[i]), rows[:, i], features) for i in chosen
        ]

    def _finding(
        self,
        event: ChatEvent,
        model: LinearModel,
        head: int,
        probability: float,
        contributions: npt.NDArray[Any],
        features: list[str],
    ) -> Finding:
        order = np.argsort(-contributions)[: self.top_features]
        top = [features[j][2:] for j in order if contributions[j] > 0]
        threshold = float(model.thresholds[head])
        severity: Severity = "medium" if probability >= (1 + threshold) / 2 else "low"
        category = model.categories[head]
        return Finding(
            detector=self.name,
            category=category,
            severity=severity,
            score=round(probability, 4),
            ts=event.ts,
            player_ids=(event.player_id,),
            table_id=event.table_id,
            tournament_id=event.tournament_id,
            message_ids=(event.message_id,),
            evidence=Evidence(
                kind="ml_score",
                summary=(
                    f"model scores {probability:.2f} for {category} (threshold {threshold:.2f}); "
                    f"top words: {', '.join(top) or 'none'}"
                ),
                event_ids=(event.message_id,),
                measures={
                    "probability": round(probability, 4),
                    "threshold": round(threshold, 4),
                    "head": model.heads[head],
                    "top_features": top,
                    "model_version": str(model.manifest.get("version")),
                },
            ),
        )
