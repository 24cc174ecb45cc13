"""Trains the chat scorer from labelled CSVs and writes plain arrays plus a manifest.

Three binary heads share one hashed feature space, each learned from every corpus that labels
its phenomenon: `abusive` (category `profanity`: Davidson's hate and offensive tweets, CONDA's
explicitly toxic game chat, HateXplain's hate and offensive posts, HateCheck's hateful cases),
`hate` (Davidson hate, HateXplain hate speech, HateCheck hateful) and `spam` (SMS spam, YouTube
comment spam: self-promotion as well as prize scams). Every other row of every corpus is a
negative for a head, so the abuse heads see ordinary casual text (SMS ham, clean game chat) and
the spam head sees abuse; rows whose label is ambiguous for a head (CONDA's implicit toxicity
for `abusive`) sit out of that head's fit. Each head is a logistic regression with a sigmoid
calibration fitted out of fold (`CalibratedClassifierCV(ensemble=False)`), exported as weights,
intercept and the calibration's (a, b): `p = 1 / (1 + exp(a * (w.x + c) + b))`. The threshold
is the best F1 meeting the head's stated precision on a held-out validation split of the
training files, at the share of chat traffic the head assumes positive (never on examples or
tests); the manifest records validation precision, recall and F1 per corpus.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
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
    # Per corpus, the labels that are this head's positives; a corpus not named gives negatives.
    positive: Mapping[str, frozenset[str]]
    min_precision: float
    # Share of chat traffic assumed positive when tuning the threshold for precision; None:
    # precision as measured on the validation split's own mix of corpora.
    prior: float | None
    C: float
    # Per corpus, labels left out of this head's fit and of its validation (neither side).
    ignore: Mapping[str, frozenset[str]] = field(default_factory=dict)
    # The threshold is never below this: a bag of words near the tuned threshold cannot tell
    # an identity mention ("gay marriage debate") from abuse, nor a rare class from noise.
    floor: float = 0.0


HEADS = (
    Head(
        "abusive",
        "profanity",
        {
            "davidson": frozenset({"hate", "offensive"}),
            "conda": frozenset({"E"}),
            "hatexplain": frozenset({"hatespeech", "offensive"}),
            "hatecheck": frozenset({"hateful"}),
        },
        0.88,
        None,
        1.0,
        ignore={"conda": frozenset({"I"})},
        floor=0.55,
    ),
    Head(
        "hate",
        "hate",
        {
            "davidson": frozenset({"hate"}),
            "hatexplain": frozenset({"hatespeech"}),
            "hatecheck": frozenset({"hateful"}),
        },
        0.8,
        None,
        1.0,
    ),
    Head(
        "spam",
        "spam",
        {"sms": frozenset({"spam"}), "youtube": frozenset({"spam"})},
        0.92,
        None,
        4.0,
        # Below it, friendly table talk that reads like a pitch ("check out my new avatar");
        # the rule detectors catch the clear pitches and scams that the floor leaves.
        floor=0.7,
    ),
)
# The corpora `railbird train` reads, by source name: the two the first model was trained on
# are required, the rest are used when given.
REQUIRED_SOURCES = ("davidson", "sms")
# In-domain negatives: clean table talk ("sick river", "suck out", "nice hand") that the
# corpora, none of them poker, would otherwise teach the abuse heads to flag. The caller
# supplies them (`railbird train` takes them from the simulator); every head sees them as
# negatives.
CLEAN_CHAT = "poker_chat"
OPTIONAL_SOURCES = ("conda", "youtube", "hatecheck", "hatexplain")
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


def load_corpora(
    data_paths: Mapping[str, Path], sample: int | None, seed: int, clean_chat: Sequence[str]
) -> pd.DataFrame:
    """Every corpus as rows of text, label, source and split: `VALIDATION_SHARE` of each,
    stratified by label, held out with `seed` (the rows the manifest's metrics are measured
    on, and `bench/ml_quality.py` re-measures)."""
    frames = []
    sources: list[tuple[str, pd.DataFrame]] = [
        (source, pd.read_csv(path, dtype=str, keep_default_na=False)[["text", "label"]])
        for source, path in sorted(data_paths.items())
    ]
    if clean_chat:
        sources.append((CLEAN_CHAT, pd.DataFrame({"text": list(clean_chat), "label": "clean"})))
    for source, frame in sources:
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
    (chat is mostly clean, Davidson mostly offensive): the rates per class are measured on
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

    def labelled(frame: pd.DataFrame, labels: Mapping[str, frozenset[str]]) -> np.ndarray:
        hit = np.zeros(len(frame), dtype=bool)
        for source, names in labels.items():
            hit |= ((frame.source == source) & frame.label.isin(names)).to_numpy()
        return hit

    keep_train = ~labelled(train, head.ignore)
    keep_val = ~labelled(val, head.ignore)
    train, val = train[keep_train], val[keep_val]
    x_train, x_val = x_train[np.flatnonzero(keep_train)], x_val[np.flatnonzero(keep_val)]
    y_train = labelled(train, head.positive).astype(np.int64)
    y_val = labelled(val, head.positive).astype(np.int64)
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
    chosen = _pick_threshold(y_val, p_val, head.min_precision, head.prior)
    threshold = max(chosen["threshold"], head.floor)
    flagged = p_val >= threshold
    tp = int((flagged & (y_val == 1)).sum())
    recall = tp / max(1, int(y_val.sum()))
    precision = tp / max(1, int(flagged.sum()))
    info: dict[str, Any] = {
        "category": head.category,
        "positive_labels": {s: sorted(v) for s, v in sorted(head.positive.items())},
        "ignored_labels": {s: sorted(v) for s, v in sorted(head.ignore.items())},
        "intercept": float(sign * linear.intercept_[0]),
        "calibration_a": float(calibrator.a_),
        "calibration_b": float(calibrator.b_),
        "threshold": threshold,
        "C": head.C,
        "tuning": {
            "min_precision": head.min_precision,
            "assumed_prior": head.prior,
            "tuned_threshold": chosen["threshold"],
            "floor": head.floor,
        },
        "validation": {
            "rows": len(val),
            "positives": int(y_val.sum()),
            "precision": precision,
            "recall": recall,
            "f1": 2 * precision * recall / max(1e-12, precision + recall),
            "per_corpus": _per_corpus(val, y_val, flagged),
        },
        "nonzero_weights": int(np.count_nonzero(weights)),
    }
    return weights.astype(np.float32), info


def _per_corpus(val: pd.DataFrame, y: np.ndarray, flagged: np.ndarray) -> dict[str, Any]:
    """Validation precision, recall and F1 on each corpus's own rows, at the chosen threshold:
    how the head does on tweets, SMS, game chat and comments, not only on their mix."""
    out: dict[str, Any] = {}
    for source in sorted(set(val.source)):
        own = (val.source == source).to_numpy()
        tp = int((flagged & own & (y == 1)).sum())
        fp = int((flagged & own & (y == 0)).sum())
        fn = int((~flagged & own & (y == 1)).sum())
        precision = tp / max(1, tp + fp)
        recall = tp / max(1, tp + fn)
        out[source] = {
            "rows": int(own.sum()),
            "positives": tp + fn,
            "flagged": tp + fp,
            "precision": precision,
            "recall": recall,
            "f1": 2 * precision * recall / max(1e-12, precision + recall),
        }
    return out


def train(
    data_paths: Mapping[str, Path],
    out_dir: Path,
    seed: int = 13,
    sample: int | None = None,
    clean_chat: Sequence[str] = (),
) -> dict[str, Any]:
    """Train every head, write `chat_scorer.npz` and `chat_scorer.json` to `out_dir`, return
    the manifest. `data_paths` maps a source name (`REQUIRED_SOURCES`, and any of
    `OPTIONAL_SOURCES`) to its CSV; a head learns from the corpora it names that are given.
    `clean_chat` are in-domain clean lines (`CLEAN_CHAT`), negatives for every head."""
    missing = set(REQUIRED_SOURCES) - set(data_paths)
    unknown = set(data_paths) - set(REQUIRED_SOURCES) - set(OPTIONAL_SOURCES)
    if missing or unknown:
        raise ValueError(f"training needs {sorted(missing)}; unknown corpora {sorted(unknown)}")
    data = load_corpora(data_paths, sample, seed, clean_chat)
    train_rows = data[data.split == "train"]
    val_rows = data[data.split == "validation"]
    full_train = featurise(train_rows.text.tolist())
    # Fitting on only the used buckets is faster and gives the same weights.
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
        "clean_chat": {
            "rows": int((data.source == CLEAN_CHAT).sum()),
            "sha256": hashlib.sha256("\n".join(clean_chat).encode()).hexdigest(),
        },
        "sklearn_version": sklearn.__version__,
        "numpy_version": np.__version__,
        "weights_file": "chat_scorer.npz",
        "weights_sha256": _sha256(out_dir / "chat_scorer.npz"),
    }
    (out_dir / "chat_scorer.json").write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return manifest
