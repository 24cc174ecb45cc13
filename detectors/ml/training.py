"""Trains the chat scorer from labelled CSVs and writes plain arrays plus a manifest.

Three binary heads share one hashed feature space: `abusive` (Davidson hate or offensive ->
category `profanity`), `hate` (Davidson hate -> `hate`) and `spam` (SMS spam -> `spam`). Each
corpus also serves as negatives for the other's heads, so the abuse heads see ordinary casual
text (SMS ham) and the spam head sees tweets. Each head is a logistic regression with a sigmoid
calibration fitted out of fold (`CalibratedClassifierCV(ensemble=False)`), exported as weights,
intercept and the calibration's (a, b): `p = 1 / (1 + exp(a * (w.x + c) + b))`. The threshold
is tuned on a held-out validation split of the training files (never on examples or tests).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import sklearn
from scipy.sparse import csr_matrix
from sklearn.calibration import CalibratedClassifierCV
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split

from railbird.detectors.ml.features import FEATURE_SPEC, N_FEATURES, buckets
from railbird.detectors.ml.ml_scorer import MODEL_VERSION

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Head:
    name: str
    category: str
    source: str
    positive: frozenset[str]
    min_precision: float
    # Share of chat traffic assumed positive when tuning the threshold for precision.
    prior: float
    C: float


HEADS = (
    Head("abusive", "profanity", "davidson", frozenset({"hate", "offensive"}), 0.9, 0.05, 1.0),
    Head("hate", "hate", "davidson", frozenset({"hate"}), 0.5, 0.01, 1.0),
    Head("spam", "spam", "sms", frozenset({"spam"}), 0.9, 0.02, 4.0),
)
VALIDATION_SHARE = 0.2
# Smallest weight kept in the file: smaller ones change no score by a measurable amount.
PRUNE_BELOW = 0.005


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def featurise(texts: Sequence[str]) -> csr_matrix:
    indptr, indices = [0], []
    for text in texts:
        indices.extend(sorted(buckets(text)))
        indptr.append(len(indices))
    data = np.ones(len(indices), dtype=np.float32)
    return csr_matrix((data, indices, indptr), shape=(len(texts), N_FEATURES))


def _load(data_paths: Mapping[str, Path], sample: int | None, seed: int) -> pd.DataFrame:
    frames = []
    for source, path in sorted(data_paths.items()):
        frame = pd.read_csv(path, dtype=str, keep_default_na=False)[["text", "label"]]
        if sample is not None and len(frame) > sample:
            frame = frame.sample(n=sample, random_state=seed)
        frame["source"] = source
        frame["split"] = "train"
        _, val_idx = train_test_split(
            frame.index, test_size=VALIDATION_SHARE, random_state=seed, stratify=frame["label"]
        )
        frame.loc[val_idx, "split"] = "validation"
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def _pick_threshold(
    y: np.ndarray, p: np.ndarray, min_precision: float, prior: float | None
) -> dict[str, float]:
    """Best F1 among thresholds meeting `min_precision` (else the most precise one).

    With `prior`, precision is what it would be if positives were that share of traffic
    (chat is mostly clean, Davidson is 77% offensive): the rates per class are measured on
    the validation split, the mix is the deployment's.
    """
    order = np.argsort(-p, kind="stable")
    p_sorted, y_sorted = p[order], y[order]
    tp = np.cumsum(y_sorted)
    fp = np.cumsum(1 - y_sorted)
    last = np.r_[np.nonzero(np.diff(p_sorted))[0], len(p_sorted) - 1]  # thresholds = distinct p
    tp, fp, thresholds = tp[last], fp[last], p_sorted[last]
    positives, negatives = max(1, int(y.sum())), max(1, int((1 - y).sum()))
    recall = tp / positives
    if prior is None:
        precision = tp / np.maximum(tp + fp, 1)
    else:
        hit, false = recall * prior, fp / negatives * (1 - prior)
        precision = hit / np.maximum(hit + false, 1e-12)
    f1 = 2 * precision * recall / np.maximum(precision + recall, 1e-12)
    ok = precision >= min_precision
    i = int(np.argmax(np.where(ok, f1, -1.0))) if ok.any() else int(np.argmax(precision))
    return {
        "threshold": float(thresholds[i]),
        "precision": float(precision[i]),
        "recall": float(recall[i]),
        "f1": float(f1[i]),
    }


def _fit_head(
    head: Head,
    data: pd.DataFrame,
    x_train: csr_matrix,
    x_val: csr_matrix,
    columns: np.ndarray,
    seed: int,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Fit on the buckets the training rows use (`columns`); the rest keep weight 0."""
    train, val = data[data.split == "train"], data[data.split == "validation"]

    def target(frame: pd.DataFrame) -> np.ndarray:
        hit = (frame.source == head.source) & frame.label.isin(head.positive)
        return hit.to_numpy().astype(np.int64)

    y_train, y_val = target(train), target(val)
    base = LogisticRegression(C=head.C, max_iter=3000, solver="liblinear", random_state=seed)
    model = CalibratedClassifierCV(base, method="sigmoid", cv=3, ensemble=False)
    model.fit(x_train, y_train)
    positive = list(model.classes_).index(1)
    fitted = model.calibrated_classifiers_[0]
    linear = fitted.estimator
    calibrator = fitted.calibrators[0]
    # Binary: coef_ and the single calibrator score classes_[1]; flip if that is not "1".
    sign = 1.0 if list(linear.classes_).index(1) == 1 else -1.0
    weights = np.zeros(N_FEATURES)
    weights[columns] = sign * linear.coef_[0]
    weights[np.abs(weights) < PRUNE_BELOW] = 0.0
    p_val = model.predict_proba(x_val)[:, positive]
    own = (val.source == head.source).to_numpy()
    chosen = _pick_threshold(y_val, p_val, head.min_precision, head.prior)
    flagged = p_val >= chosen["threshold"]
    tp = int((flagged & (y_val == 1)).sum())
    own_flagged = flagged & own
    own_tp = int((own_flagged & (y_val == 1)).sum())
    info: dict[str, Any] = {
        "category": head.category,
        "positive_labels": sorted(head.positive),
        "source": head.source,
        "intercept": float(sign * linear.intercept_[0]),
        "calibration_a": float(calibrator.a_),
        "calibration_b": float(calibrator.b_),
        "threshold": chosen["threshold"],
        "C": head.C,
        "tuning": {"min_precision": head.min_precision, "assumed_prior": head.prior},
        "validation": {
            "rows": len(val),
            "positives": int(y_val.sum()),
            "precision_at_prior": chosen["precision"],
            "precision": tp / max(1, int(flagged.sum())),
            "recall": chosen["recall"],
            "f1_at_prior": chosen["f1"],
            "own_corpus_rows": int(own.sum()),
            "own_corpus_precision": own_tp / max(1, int(own_flagged.sum())),
            "own_corpus_recall": own_tp / max(1, int(y_val[own].sum())),
        },
        "nonzero_weights": int(np.count_nonzero(weights)),
    }
    return weights.astype(np.float32), info


def train(
    data_paths: Mapping[str, Path], out_dir: Path, seed: int = 13, sample: int | None = None
) -> dict[str, Any]:
    """Train every head, write `chat_scorer.npz` and `chat_scorer.json` to `out_dir`, return
    the manifest. `data_paths` maps a source name (`davidson`, `sms`) to its CSV."""
    missing = {h.source for h in HEADS} - set(data_paths)
    if missing:
        raise ValueError(f"training needs data for {sorted(missing)}")
    data = _load(data_paths, sample, seed)
    train_rows = data[data.split == "train"]
    val_rows = data[data.split == "validation"]
    full_train = featurise(train_rows.text.tolist())
    # Fitting on only the used buckets is several times faster and gives the same weights.
    columns = np.unique(full_train.indices)
    x_train = full_train[:, columns]
    x_val = featurise(val_rows.text.tolist())[:, columns]
    weights, heads = [], {}
    for head in HEADS:
        w, info = _fit_head(head, data, x_train, x_val, columns, seed)
        weights.append(w)
        heads[head.name] = info
        log.info("head %s: %s", head.name, info["validation"])
    out_dir.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out_dir / "chat_scorer.npz",
        weights=np.stack(weights).astype(np.float16),
        intercepts=np.array([heads[h.name]["intercept"] for h in HEADS], dtype=np.float64),
    )
    manifest: dict[str, Any] = {
        "version": MODEL_VERSION,
        "heads": [h.name for h in HEADS],
        "head_info": heads,
        "features": {"n_features": N_FEATURES, "spec": FEATURE_SPEC},
        "seed": seed,
        "validation_share": VALIDATION_SHARE,
        "sample_per_source": sample,
        "data": {
            source: {"file": Path(path).name, "sha256": _sha256(Path(path)), "rows": int(n)}
            for (source, path), n in zip(
                sorted(data_paths.items()),
                [int((data.source == s).sum()) for s in sorted(data_paths)],
                strict=True,
            )
        },
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
        "weights_file": "chat_scorer.npz",
        "weights_sha256": _sha256(out_dir / "chat_scorer.npz"),
    }
    (out_dir / "chat_scorer.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest
