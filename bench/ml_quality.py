"""The ML scorer's detector on the training corpora's validation split (20% of each corpus,
stratified by label, seed 13: the rows `railbird train` held out), per corpus.

A toxic corpus row counts as caught when the detector flags `profanity` or `hate`, a spam row
when it flags `spam`; CONDA's implicit-toxicity rows are left out (the abusive head sits them
out too).

    .venv/bin/python -m bench.ml_quality [--model-dir DIR]
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from railbird.detectors.events import ChatEvent
from railbird.detectors.ml.ml_scorer import MlScorer
from railbird.detectors.ml.training import load_corpora
from railbird.detectors.state import TtlState
from railbird.train_command import CORPORA

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
POSITIVE = {
    "davidson": {"hate", "offensive"},
    "conda": {"E"},
    "hatexplain": {"hatespeech", "offensive"},
    "hatecheck": {"hateful"},
    "sms": {"spam"},
    "youtube": {"spam"},
}
SPAM = {"sms", "youtube"}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model-dir", default="", help="default: the shipped model")
    args = parser.parse_args(argv)
    paths = {s: DATA / f for s, (_o, f, _a) in CORPORA.items() if (DATA / f).is_file()}
    data = load_corpora(paths, None, 13, ())
    val = data[data.split == "validation"]
    detector = MlScorer(model_dir=args.model_dir)
    at = datetime(2026, 12, 1, tzinfo=UTC)
    print("| corpus | precision | recall | F1 | TP | FP | FN |")
    print("|---|---|---|---|---|---|---|")
    for source in ("conda", "davidson", "hatexplain", "hatecheck", "sms", "youtube"):
        rows = val[val.source == source]
        if source == "conda":
            rows = rows[rows.label != "I"]
        wanted = {"spam"} if source in SPAM else {"profanity", "hate"}
        tp = fp = fn = 0
        for i, (text, label) in enumerate(zip(rows.text, rows.label, strict=True)):
            chat = ChatEvent(
                type="chat",
                message_id=f"m-{i}",
                ts=at,
                player_id="p-1",
                channel="table",
                table_id="t-1",
                text=text,
            )
            hit = bool({f.category for f in detector.detect(chat, TtlState())} & wanted)
            positive = label in POSITIVE[source]
            tp += hit and positive
            fp += hit and not positive
            fn += positive and not hit
        precision, recall = tp / max(1, tp + fp), tp / max(1, tp + fn)
        f1 = 2 * precision * recall / max(1e-12, precision + recall)
        print(f"| {source} | {precision:.3f} | {recall:.3f} | {f1:.3f} | {tp} | {fp} | {fn} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
