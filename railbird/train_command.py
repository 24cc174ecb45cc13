"""`railbird train`: fit the chat scorer from the corpora named on the command line."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Source name -> (option, the file's name in ../shared/data, what it is).
CORPORA = {
    "davidson": ("--davidson", "davidson_train.csv", "Davidson tweets CSV (required)"),
    "sms": ("--sms", "sms_spam_train.csv", "SMS Spam Collection CSV (required)"),
    "conda": ("--conda", "conda_train.csv", "CONDA Dota 2 chat CSV"),
    "youtube": ("--youtube", "youtube_spam_train.csv", "YouTube comment spam CSV"),
    "hatecheck": ("--hatecheck", "hatecheck.csv", "HateCheck test cases CSV"),
    "hatexplain": ("--hatexplain", "hatexplain.csv", "HateXplain posts CSV"),
}
REQUIRED = ("davidson", "sms")
# The other languages' files, all four needed for the multilingual model (found in --data-dir).
INTL_FILES = ("intl_de_train.csv", "intl_pt_train.csv", "intl_ru_train.csv", "intl_tr_train.csv")
# Where the lexicon's learnt usage per language is shipped (read by text.multilingual_terms).
USAGE_PATH = Path("detectors/text/lexicon_usage.json")
# Simulated days whose clean table talk the abuse heads learn as negatives; not the seeds the
# tests and benchmarks simulate, so a simulated test day is not training text.
CLEAN_CHAT_SEEDS = (9001, 9002, 9003)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--data-dir",
        type=Path,
        help="a folder holding the corpora under their usual names (e.g. ../shared/data); "
        "a file named by its own option wins",
    )
    for option, _file, about in CORPORA.values():
        parser.add_argument(option, type=Path, help=about)
    parser.add_argument(
        "--out", type=Path, default=Path("detectors/ml/models"), help="model directory"
    )
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--sample", type=int, help="rows per corpus (quick runs only)")
    parser.add_argument(
        "--model",
        choices=("all", "english", "multilingual"),
        default="all",
        help="which model to train: the English chat scorer, the multilingual one (needs "
        "--data-dir with the intl_*_train.csv files), or both (default)",
    )
    parser.add_argument(
        "--usage-out",
        type=Path,
        default=USAGE_PATH,
        help="where the multilingual training writes the lexicon's learnt usage per language",
    )
    parser.add_argument(
        "--no-clean-chat",
        action="store_true",
        help="leave out the simulator's clean table talk (in-domain negatives)",
    )


def clean_table_talk(seeds: tuple[int, ...] = CLEAN_CHAT_SEEDS) -> list[str]:
    """Distinct text lines of simulated days that no truth record names as a violation."""
    from railbird.sim.config import SimConfig
    from railbird.sim.run import simulate

    lines: dict[str, None] = {}
    for seed in seeds:
        texts: dict[str, str] = {}
        named: set[str] = set()
        for kind, record in simulate(SimConfig(seed=seed)):
            if kind == "event":
                if record["type"] == "chat" and record["kind"] == "text" and record["text"]:
                    texts[record["message_id"]] = record["text"]
            elif "category" in record:
                ids = record.get("message_ids") or [record.get("message_id")]
                named.update(i for i in ids if isinstance(i, str))
        lines.update(dict.fromkeys(t for m, t in texts.items() if m not in named))
    return list(lines)


def chosen_corpora(args: argparse.Namespace) -> dict[str, Path]:
    """The corpora to train on: each named by its option, or found in `--data-dir`."""
    paths: dict[str, Path] = {}
    for source, (_option, file, _about) in CORPORA.items():
        given = getattr(args, source, None)
        if given is not None:
            paths[source] = given
        elif args.data_dir is not None and (args.data_dir / file).is_file():
            paths[source] = args.data_dir / file
    return paths


def run_train(args: argparse.Namespace) -> int:
    if args.model in ("all", "multilingual"):
        status = _train_multilingual(args)
        if status or args.model == "multilingual":
            return status
    return _train_english(args)


def _say(line: str) -> None:
    print(line, file=sys.stderr)  # noqa: T201


def _train_multilingual(args: argparse.Namespace) -> int:
    from railbird.detectors.ml.multilingual_training import train as train_multilingual

    if args.data_dir is None:
        if args.model == "multilingual":
            _say("railbird train: --data-dir is required for --model multilingual")
            return 2
        return 0
    missing = [f for f in INTL_FILES if not (args.data_dir / f).is_file()]
    if missing:
        if args.model == "multilingual":
            _say(f"railbird train: no {', '.join(missing)} in {args.data_dir}")
            return 2
        return 0
    clean = [] if args.no_clean_chat else clean_table_talk()
    manifest = train_multilingual(
        args.data_dir, args.out, seed=args.seed, usage_path=args.usage_out, clean_chat=clean
    )
    for language, got in manifest["metrics"].items():
        if "report" in got:
            rep = got["report"]
            print(  # noqa: T201
                f"multilingual {language}: threshold "
                f"{manifest['languages'][language]['threshold']:.3f}, held-out P "
                f"{rep['precision']:.3f} R {rep['recall']:.3f} F1 {rep['f1']:.3f} "
                f"({rep['positives']} offensive of {rep['rows']})",
                file=sys.stderr,
            )
    print(  # noqa: T201
        f"wrote {args.out / 'multilingual_scorer.npz'}, multilingual_scorer.json and "
        f"{args.usage_out}",
        file=sys.stderr,
    )
    return 0


def _train_english(args: argparse.Namespace) -> int:
    from railbird.detectors.ml.training import (
        train,  # scikit-learn loads in seconds: only when training
    )

    paths = chosen_corpora(args)
    for source in REQUIRED:
        if source not in paths:
            option = CORPORA[source][0]
            print(f"railbird train: {option} (or --data-dir) is required", file=sys.stderr)  # noqa: T201
            return 2
    for path in paths.values():
        if not path.is_file():
            print(f"railbird train: no such file: {path}", file=sys.stderr)  # noqa: T201
            return 2
    clean = [] if args.no_clean_chat else clean_table_talk()
    manifest = train(paths, args.out, seed=args.seed, sample=args.sample, clean_chat=clean)
    for name, info in manifest["head_info"].items():
        val = info["validation"]
        print(  # noqa: T201
            f"{name:8} -> {info['category']:10} threshold {info['threshold']:.3f}  "
            f"precision {val['precision']:.3f} recall {val['recall']:.3f} "
            f"(stated precision {info['tuning']['min_precision']:.2f})",
            file=sys.stderr,
        )
        for source, got in val["per_corpus"].items():
            if got["positives"]:
                print(  # noqa: T201
                    f"           {source:10} P {got['precision']:.3f} R {got['recall']:.3f} "
                    f"F1 {got['f1']:.3f} ({got['positives']} positives)",
                    file=sys.stderr,
                )
    print(f"wrote {args.out / 'chat_scorer.npz'} and chat_scorer.json", file=sys.stderr)  # noqa: T201
    return 0
