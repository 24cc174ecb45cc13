"""The whole chat chain on rows nobody tuned on, per corpus, next to better-profanity and
alt-profanity-check on the same rows, in the same run.

A row counts only if it is held out twice: from the ML scorer's training (`railbird train`'s
20% validation split, seed 13) and from the lexical detectors' tuning (the 30% validation
parts of `bench/abuse_quality.py` and `bench/spam_quality.py`, and Davidson's earlier split).
Every message runs alone through every registered detector (a fresh pipeline). Abusive = any
of profanity, harassment, hate; spam = any of spam, advertising, malicious_link. Also: clean
poker talk (English and the other languages) flagged by anything.

    .venv/bin/python -m bench.chat_heldout [--no-baselines] [--reuse-baselines]
"""

from __future__ import annotations

import argparse
import csv
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from bench import abuse_quality, spam_quality
from bench.chat_quality import baselines
from bench.scores import HEADER, score
from railbird.detectors.ml.training import load_corpora
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
ABUSIVE = frozenset({"profanity", "harassment", "hate"})
SPAMMY = frozenset({"spam", "advertising", "malicious_link"})


def ml_held_out(source: str, file: str) -> list[bool]:
    """Rows of `file`, in file order, that the ML scorer's training held out."""
    data = load_corpora({source: DATA / file}, None, 13, ())
    return (data.split == "validation").tolist()


def grouped_held_out(rows: Sequence[abuse_quality.Row]) -> list[bool]:
    held = abuse_quality.validation_groups(r.group for r in rows)
    return [r.group in held for r in rows]


def davidson_held_out(n: int) -> list[bool]:
    rng = random.Random(abuse_quality.DAVIDSON_SEED)
    return [rng.random() < abuse_quality.VALIDATION_SHARE for _ in range(n)]


def shuffled_held_out(n: int) -> list[bool]:
    order = list(range(n))
    random.Random(spam_quality.SPLIT_SEED).shuffle(order)
    mask = [False] * n
    for i in order[round(spam_quality.TUNE_SHARE * n) :]:
        mask[i] = True
    return mask


def categories(texts: Sequence[str]) -> list[set[str]]:
    detectors = build_detectors()
    return [
        {f.category for f in Pipeline(detectors).detect(abuse_quality.chat_event(text)) or ()}
        for text in texts
    ]


def _row(name: str, truth: Sequence[bool], predicted: Sequence[bool]) -> str:
    return score(truth, predicted).row(name)


def corpus(
    title: str,
    texts: list[str],
    truth: list[bool],
    wanted: frozenset[str],
    run_baselines: Callable[[list[str]], dict[str, list[bool]] | None] | None,
    hate_truth: list[bool] | None = None,
) -> list[str]:
    found = categories(texts)
    lines = [f"### {title}: {len(texts)} held-out rows, {sum(truth)} positive", "", HEADER]
    lines.append(_row("railbird (every detector)", truth, [bool(f & wanted) for f in found]))
    if hate_truth is not None:
        lines.append(_row("railbird, `hate` only", hate_truth, ["hate" in f for f in found]))
    for name, verdicts in ((run_baselines(texts) if run_baselines else None) or {}).items():
        lines.append(_row(name, truth, verdicts))
    return [*lines, ""]


def clean_lines(path: Path) -> list[str]:
    with path.open(encoding="utf-8", newline="") as handle:
        return [r["text"] for r in csv.DictReader(handle) if r["label"] == "clean"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--reuse-baselines", action="store_true")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    run_baselines = (
        None if args.no_baselines else (lambda t: baselines(t, True, args.reuse_baselines))
    )
    out = ["## Held out of everything", ""]

    rows = abuse_quality.conda(DATA)
    keep = [
        m and g and r.label != "I"
        for m, g, r in zip(
            ml_held_out("conda", "conda_train.csv"), grouped_held_out(rows), rows, strict=True
        )
    ]
    kept = [r for r, k in zip(rows, keep, strict=True) if k]
    out += corpus(
        "CONDA Dota 2 chat (explicit toxicity E; implicit I left out)",
        [r.text for r in kept],
        [r.label == "E" for r in kept],
        ABUSIVE,
        run_baselines,
    )
    rows = abuse_quality.davidson(DATA)
    keep = [
        m and d
        for m, d in zip(
            ml_held_out("davidson", "davidson_train.csv"), davidson_held_out(len(rows)), strict=True
        )
    ]
    kept = [r for r, k in zip(rows, keep, strict=True) if k]
    out += corpus(
        "Davidson tweets (abusive = hate or offensive)",
        [r.text for r in kept],
        [r.label in ("hate", "offensive") for r in kept],
        ABUSIVE,
        run_baselines,
        [r.label == "hate" for r in kept],
    )
    for source, file, loader, positive, hateful in (
        (
            "hatexplain",
            "hatexplain.csv",
            abuse_quality.hatexplain,
            {"hatespeech", "offensive"},
            "hatespeech",
        ),
        ("hatecheck", "hatecheck.csv", abuse_quality.hatecheck, {"hateful"}, "hateful"),
    ):
        rows = loader(DATA)
        keep = [
            m and g for m, g in zip(ml_held_out(source, file), grouped_held_out(rows), strict=True)
        ]
        kept = [r for r, k in zip(rows, keep, strict=True) if k]
        out += corpus(
            f"{source} (abusive = {' or '.join(sorted(positive))})",
            [r.text for r in kept],
            [r.label in positive for r in kept],
            ABUSIVE,
            run_baselines,
            [r.label == hateful for r in kept],
        )
    for source, file in (("sms", "sms_spam_train.csv"), ("youtube", "youtube_spam_train.csv")):
        raw = spam_quality.read_rows(DATA / file)
        keep = [
            m and s
            for m, s in zip(ml_held_out(source, file), shuffled_held_out(len(raw)), strict=True)
        ]
        kept = [r for r, k in zip(raw, keep, strict=True) if k]
        out += corpus(
            f"{source} spam (spam = spam, advertising or malicious_link)",
            [r["text"] for r in kept],
            [r["label"] == "spam" for r in kept],
            SPAMMY,
            None,
        )
    out += ["### Clean poker talk flagged by any detector", ""]
    for name in (
        "poker_chat.csv",
        "poker_chat_intl.csv",
        "poker_game_slang.csv",
        "poker_promo_traps.csv",
    ):
        path = ROOT / "tests" / "data" / name
        if path.is_file():
            texts = clean_lines(path)
            flagged = [t for t, f in zip(texts, categories(texts), strict=True) if f]
            shown = "; ".join(repr(t) for t in flagged[:5])
            out.append(
                f"- `tests/data/{name}`: {len(flagged)} of {len(texts)}"
                + (f" ({shown})" if flagged else "")
            )
    out += ["", f"Run time {time.perf_counter() - started:.0f} s."]
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
