"""Trains the honest-decision model from hand histories and writes plain arrays plus a manifest.

Input: files of contract events (JSON Lines; only `hand` events are read, in file order, which
the contract makes time order). Every voluntary decision of a player whose hole cards the
history shows becomes a row: `decisions.read_hand`'s features, with the player's running style
tracked exactly as the detectors track it (`style.style_scope`), and the choice made as the
label. Files are split whole into training and validation by a hash of their name, never a
tournament or a table across both.

Why a multilayer perceptron: on held-out simulated days it predicts decisions better than a
logistic regression over the same inputs and as well as gradient-boosted trees (the numbers are
in `docs/model-card-play.md`), and it exports as a few plain matrices, so applying it is a
handful of numpy products per hand with nothing unpickled.

Colluders' decisions may be in the training files (an operator's own histories contain them):
they are a few percent of the rows and the model learns the population, not them; the quality
page shows a model trained with and without them finding the same teams.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import orjson
import sklearn
from sklearn.metrics import log_loss
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from railbird.detectors.events import HandEvent, event_from_dict
from railbird.detectors.play.decisions import CHOICES, FEATURE_NAMES, read_hand
from railbird.detectors.play.style import Style, style_scope

log = logging.getLogger(__name__)

MODEL_VERSION = "play-1"
HIDDEN = (64, 32)


@dataclass(frozen=True, slots=True)
class Rows:
    features: np.ndarray
    labels: np.ndarray
    players: list[str]  # who decided, per row (to leave named players out)


def read_hands(path: Path) -> Iterator[HandEvent]:
    """The `hand` events of one JSON Lines file; other events and bad lines are skipped."""
    with path.open("rb") as fh:
        for number, line in enumerate(fh, start=1):
            if b'"hand"' not in line:
                continue
            try:
                event = event_from_dict(orjson.loads(line))
            except (ValueError, TypeError) as exc:
                # The error's type and where, never its text: validation errors repeat the
                # input (player ids, cards).
                log.warning("%s:%d: skipped (%s)", path, number, type(exc).__name__)
                continue
            if isinstance(event, HandEvent):
                yield event


def decision_rows(hands: Iterable[HandEvent], leave_out: frozenset[str] = frozenset()) -> Rows:
    """Rows for every decision with known hole cards, styles as the detectors would see them.
    Players in `leave_out` still shape everyone's context and styles; their own decisions are
    not rows."""
    styles: dict[tuple[str, str], Style] = {}
    features: list[tuple[float, ...]] = []
    labels: list[int] = []
    players: list[str] = []
    for hand in hands:
        scope = style_scope(hand.tournament_id, hand.table_id)
        seen = {
            s.player_id: styles[(scope, s.player_id)].features()
            for s in hand.seats
            if (scope, s.player_id) in styles
        }
        reading = read_hand(hand, seen)
        for d in reading.decisions:
            if d.features is not None and d.player_id not in leave_out:
                features.append(d.features)
                labels.append(d.choice)
                players.append(d.player_id)
        for pid, tally in reading.tallies.items():
            tally.add_to(styles.setdefault((scope, pid), Style()))
    matrix = np.asarray(features, dtype=np.float64).reshape(-1, len(FEATURE_NAMES))
    return Rows(matrix, np.asarray(labels, dtype=np.int64), players)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def is_validation(path: Path, share: float) -> bool:
    """A stable, name-based split of whole files."""
    h = int(hashlib.sha256(path.name.encode()).hexdigest()[:8], 16) / 0xFFFFFFFF
    return h < share


def calibration_error(probabilities: np.ndarray, labels: np.ndarray, bins: int = 10) -> float:
    """Expected calibration error over every class's probabilities (how far predicted shares
    are from observed ones, weighted by how many predictions fall in each bin)."""
    total = 0.0
    n = probabilities.size
    for k in range(probabilities.shape[1]):
        p = probabilities[:, k]
        hit = labels == k
        edges = np.minimum((p * bins).astype(int), bins - 1)
        for b in range(bins):
            mask = edges == b
            if mask.any():
                total += abs(p[mask].mean() - hit[mask].mean()) * mask.sum()
    return float(total / n)


def fit(rows: Rows, seed: int) -> tuple[StandardScaler, MLPClassifier]:
    scaler = StandardScaler().fit(rows.features)
    model = MLPClassifier(
        hidden_layer_sizes=HIDDEN,
        random_state=seed,
        early_stopping=True,
        max_iter=80,
        batch_size=512,
        alpha=1e-4,
    )
    model.fit(scaler.transform(rows.features), rows.labels)
    if list(model.classes_) != list(range(len(CHOICES))):
        raise ValueError(f"training rows hold classes {list(model.classes_)}, need all three")
    return scaler, model


def write_model(
    out: Path, scaler: StandardScaler, model: MLPClassifier, manifest: dict[str, Any]
) -> None:
    out.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {
        "layers": np.asarray(len(model.coefs_)),
        "mean": scaler.mean_.astype(np.float64),
        "scale": scaler.scale_.astype(np.float64),
    }
    for k, (w, b) in enumerate(zip(model.coefs_, model.intercepts_, strict=True)):
        arrays[f"w{k}"] = np.asarray(w, dtype=np.float32)
        arrays[f"b{k}"] = np.asarray(b, dtype=np.float32)
    np.savez_compressed(out / "honest_play.npz", allow_pickle=False, **arrays)
    (out / "honest_play.json").write_text(json.dumps(manifest, indent=2) + "\n")


def train(
    paths: Sequence[Path],
    out: Path,
    seed: int = 7,
    validation_share: float = 0.2,
    leave_out: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """Fit on the training files, report on the validation files, write the model."""
    train_paths = [p for p in paths if not is_validation(p, validation_share)]
    valid_paths = [p for p in paths if is_validation(p, validation_share)]
    if not train_paths:
        train_paths, valid_paths = list(paths), []
    rows = _rows(train_paths, leave_out)
    if len(rows.labels) < 1000:
        raise ValueError(f"only {len(rows.labels)} decisions with known hole cards: too few")
    scaler, model = fit(rows, seed)
    metrics: dict[str, Any] = {"train_rows": len(rows.labels)}
    if valid_paths:
        valid = _rows(valid_paths, leave_out)
        p = model.predict_proba(scaler.transform(valid.features))
        prior = np.bincount(rows.labels, minlength=len(CHOICES)) / len(rows.labels)
        metrics.update(
            validation_rows=len(valid.labels),
            log_loss=round(float(log_loss(valid.labels, p, labels=[0, 1, 2])), 4),
            log_loss_prior_only=round(
                float(log_loss(valid.labels, np.tile(prior, (len(p), 1)), labels=[0, 1, 2])), 4
            ),
            calibration_error=round(calibration_error(p, valid.labels), 4),
            accuracy=round(float((p.argmax(axis=1) == valid.labels).mean()), 4),
        )
    manifest: dict[str, Any] = {
        "version": MODEL_VERSION,
        "kind": "mlp",
        "hidden": list(HIDDEN),
        "features": list(FEATURE_NAMES),
        "classes": list(CHOICES),
        "seed": seed,
        "training_files": [{"name": p.name, "sha256": _sha256(p)} for p in train_paths],
        "validation_files": [{"name": p.name, "sha256": _sha256(p)} for p in valid_paths],
        "left_out_players": len(leave_out),
        "metrics": metrics,
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
    }
    write_model(out, scaler, model, manifest)
    return manifest


def _rows(paths: Sequence[Path], leave_out: frozenset[str]) -> Rows:
    parts = [decision_rows(read_hands(p), leave_out) for p in paths]
    return Rows(
        np.vstack([r.features for r in parts]),
        np.concatenate([r.labels for r in parts]),
        [pid for r in parts for pid in r.players],
    )
