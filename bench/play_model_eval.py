"""How well honest-decision models predict decisions in hand histories they were not trained on.

Usage:
    .venv/bin/python -m bench.play_model_eval --model detectors/play/models /tmp/m2 \\
        --hands classic=/tmp/days/a.jsonl positional=/tmp/days/b.jsonl phh=/tmp/phh.jsonl

For each model and each named group of files: decisions read (with known hole cards), log-loss
against the model's probabilities, log-loss of the training prior (the class shares alone),
calibration error and accuracy. Transfer shows as the gap between a model's log-loss on the
style mix it was trained on and on another; the PHH group is real play (only hands shown at
showdown have cards, so it is a biased sample: read it as a sanity check, not a score).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from railbird.detectors.play.honest_model import load_model
from railbird.detectors.play.training import calibration_error, decision_rows, read_hands


def _log_loss(p: np.ndarray, labels: np.ndarray) -> float:
    picked = np.clip(p[np.arange(len(labels)), labels], 1e-12, 1.0)
    return float(-np.log(picked).mean())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, nargs="+", required=True, help="model directories")
    parser.add_argument(
        "--hands", nargs="+", required=True, help="NAME=FILE[,FILE...] groups of event files"
    )
    args = parser.parse_args()
    groups: dict[str, list[Path]] = {}
    for item in args.hands:
        name, _, files = item.partition("=")
        groups[name] = [Path(f) for f in files.split(",") if f]
    rows = {}
    for name, files in groups.items():
        parts = [decision_rows(read_hands(f)) for f in files]
        features = np.vstack([r.features for r in parts])
        labels = np.concatenate([r.labels for r in parts])
        rows[name] = (features, labels)
    print("| model | hands | decisions | log-loss | prior only | calibration error | accuracy |")
    print("|---|---|---|---|---|---|---|")
    for folder in args.model:
        model = load_model(folder / "honest_play.npz", folder / "honest_play.json")
        for name, (features, labels) in rows.items():
            if not len(labels):
                continue
            p = model.probabilities(features)
            prior = np.bincount(labels, minlength=3) / len(labels)
            print(
                f"| {folder} | {name} | {len(labels):,} | {_log_loss(p, labels):.3f} | "
                f"{_log_loss(np.tile(prior, (len(labels), 1)), labels):.3f} | "
                f"{calibration_error(p, labels):.3f} | "
                f"{float((p.argmax(axis=1) == labels).mean()):.3f} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
