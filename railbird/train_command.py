"""`railbird train`: fit the chat scorer from the corpora named on the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--davidson", type=Path, required=True, help="Davidson tweets CSV")
    parser.add_argument("--sms", type=Path, required=True, help="SMS Spam Collection CSV")
    parser.add_argument(
        "--out", type=Path, default=Path("detectors/ml/models"), help="model directory"
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--sample", type=int, help="rows per corpus (quick runs only)")


def run_train(args: argparse.Namespace) -> int:
    from railbird.detectors.ml.training import (
        train,  # scikit-learn loads in seconds: only when training
    )

    for path in (args.davidson, args.sms):
        if not path.is_file():
            print(f"railbird train: no such file: {path}", file=sys.stderr)  # noqa: T201
            return 2
    manifest = train(
        {"davidson": args.davidson, "sms": args.sms}, args.out, seed=args.seed, sample=args.sample
    )
    for name, info in manifest["head_info"].items():
        val = info["validation"]
        print(  # noqa: T201
            f"{name:8} -> {info['category']:10} threshold {info['threshold']:.3f}  "
            f"precision {val['own_corpus_precision']:.3f} recall {val['own_corpus_recall']:.3f} "
            f"(precision at {info['tuning']['assumed_prior']:.0%} prevalence "
            f"{val['precision_at_prior']:.3f})",
            file=sys.stderr,
        )
    print(f"wrote {args.out / 'chat_scorer.npz'} and chat_scorer.json", file=sys.stderr)  # noqa: T201
    return 0
