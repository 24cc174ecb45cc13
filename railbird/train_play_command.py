"""`railbird train-play`: fit the honest-decision model from hand histories."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "hands",
        type=Path,
        nargs="+",
        help="files of contract events (JSON Lines); their `hand` events are read in order",
    )
    parser.add_argument(
        "--out",
        type=Path,
        required=True,
        help="model directory to write (the shipped model is never overwritten by default)",
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--validation-share",
        type=float,
        default=0.2,
        help="share of the files (chosen by a hash of their names) held out to report on",
    )
    parser.add_argument(
        "--leave-out",
        type=Path,
        help="a file of player ids (one a line) whose own decisions are not training rows",
    )


def run_train_play(args: argparse.Namespace) -> int:
    from railbird.detectors.play.training import train  # scikit-learn: only when training

    missing = [str(p) for p in args.hands if not p.is_file()]
    if missing:
        print(f"railbird train-play: no such file: {', '.join(missing)}", file=sys.stderr)  # noqa: T201
        return 2
    leave_out: frozenset[str] = frozenset()
    if args.leave_out is not None:
        try:
            text = args.leave_out.read_text()
        except (OSError, UnicodeDecodeError) as exc:
            print(f"railbird train-play: --leave-out {args.leave_out}: {exc}", file=sys.stderr)  # noqa: T201
            return 2
        leave_out = frozenset(line.strip() for line in text.splitlines())
    try:
        manifest = train(args.hands, args.out, args.seed, args.validation_share, leave_out - {""})
    except ValueError as exc:
        print(f"railbird train-play: {exc}", file=sys.stderr)  # noqa: T201
        return 2
    print(json.dumps(manifest["metrics"], indent=2))  # noqa: T201
    return 0
