"""Why the honest-decision model is an MLP: the same inputs through a logistic regression, the
shipped MLP architecture and gradient-boosted trees, log-loss on days used for neither.

Usage (days from `bench/play_training_days.py` and other seeds of the same configurations):
    python -m bench.play_model_choice --train var/play-days/bounty_101_0.events.jsonl ... \\
        --test classic=DAY.jsonl positional=DAY.jsonl cash=DAY.jsonl

Rows are sampled (`--train-rows`, `--test-rows`, seeded) so the comparison fits in minutes.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import log_loss
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from railbird.detectors.play.training import HIDDEN, decision_rows, read_hands

Rows = tuple[np.ndarray, np.ndarray]


def _sample(paths: list[Path], n: int, rng: np.random.Generator) -> Rows:
    parts = [decision_rows(read_hands(p)) for p in paths]
    features = np.vstack([r.features for r in parts])
    labels = np.concatenate([r.labels for r in parts])
    pick = rng.choice(len(labels), size=min(n, len(labels)), replace=False)
    return features[pick], labels[pick]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--train", type=Path, nargs="+", required=True)
    parser.add_argument("--test", nargs="+", required=True, help="NAME=FILE[,FILE...]")
    parser.add_argument("--train-rows", type=int, default=150_000)
    parser.add_argument("--test-rows", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    x, y = _sample(args.train, args.train_rows, rng)
    tests: dict[str, Rows] = {}
    for item in args.test:
        name, _, files = item.partition("=")
        tests[name] = _sample([Path(f) for f in files.split(",")], args.test_rows, rng)
    scaler = StandardScaler().fit(x)
    shares = np.bincount(y, minlength=3) / len(y)
    print("| model | fit (s) | " + " | ".join(tests) + " |")
    print("|---|---|" + "---|" * len(tests))

    def report(name: str, predict: Callable[[np.ndarray], np.ndarray], seconds: float) -> None:
        losses = [log_loss(ty, predict(tx), labels=[0, 1, 2]) for tx, ty in tests.values()]
        print(f"| {name} | {seconds:.0f} | " + " | ".join(f"{v:.3f}" for v in losses) + " |")

    report("class shares alone", lambda rows: np.tile(shares, (len(rows), 1)), 0.0)
    started = time.perf_counter()
    logistic = LogisticRegression(max_iter=300).fit(scaler.transform(x), y)
    report(
        "logistic regression",
        lambda rows: logistic.predict_proba(scaler.transform(rows)),
        time.perf_counter() - started,
    )
    started = time.perf_counter()
    mlp = MLPClassifier(
        hidden_layer_sizes=HIDDEN,
        random_state=7,
        early_stopping=True,
        max_iter=60,
        batch_size=512,
    ).fit(scaler.transform(x), y)
    report(
        f"MLP {'-'.join(map(str, HIDDEN))}",
        lambda rows: mlp.predict_proba(scaler.transform(rows)),
        time.perf_counter() - started,
    )
    started = time.perf_counter()
    trees = HistGradientBoostingClassifier(max_iter=200, random_state=0).fit(x, y)
    report("gradient-boosted trees", trees.predict_proba, time.perf_counter() - started)


if __name__ == "__main__":
    main()
