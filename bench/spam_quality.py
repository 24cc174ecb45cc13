"""Spam and advertising quality on chat nobody here wrote: the YouTube and SMS spam corpora.

Each corpus (read from ../shared/data at run time, never copied here) is split once with a fixed
seed into a tune part (70%), the only part whose errors were looked at while the patterns were
designed, and a validation part (30%), reported. A message counts as flagged spam when the
registered chain (`build_detectors()`, one fresh `Pipeline` per message, so flood and repeat
detectors see one message) flags any of `spam`, `advertising` or `malicious_link`. The chain
includes the ML scorer, whose spam head is trained on these same files, so the chain without it
(`--without ml_scorer`, reported by default) is the number the rule detectors are judged by.

It also runs the poker-chat test set and the promotion traps (tests/data), where clean rows must
stay clean under every category.

    .venv/bin/python bench/spam_quality.py [--split validation|tune] [--without NAME ...]
    .venv/bin/python bench/spam_quality.py --errors   # the tune part's errors, rules alone
"""

from __future__ import annotations

import argparse
import csv
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scores import score
from railbird.detectors.detector import Detector
from railbird.detectors.events import ChatEvent, event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
POKER_CHAT = ROOT / "tests" / "data" / "poker_chat.csv"
PROMO_TRAPS = ROOT / "tests" / "data" / "poker_promo_traps.csv"
CORPORA = {"youtube": "youtube_spam_train.csv", "sms": "sms_spam_train.csv"}
SPAMMY = frozenset({"spam", "advertising", "malicious_link"})
SPLIT_SEED = 20261201
TUNE_SHARE = 0.7


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def split(rows: Sequence[dict[str, str]]) -> dict[str, list[dict[str, str]]]:
    """The tune and validation parts: one shuffle of the row indices with the fixed seed."""
    order = list(range(len(rows)))
    random.Random(SPLIT_SEED).shuffle(order)
    cut = round(TUNE_SHARE * len(rows))
    return {
        "tune": [rows[i] for i in sorted(order[:cut])],
        "validation": [rows[i] for i in sorted(order[cut:])],
    }


def chat_event(text: str, index: int) -> ChatEvent:
    event = event_from_dict(
        {
            "type": "chat",
            "message_id": f"q-{index}",
            "ts": "2026-12-01T20:00:00.000Z",
            "player_id": f"p-{index}",
            "screen_name": f"Player{index}",
            "channel": "table",
            "table_id": "t-q",
            "text": text,
        }
    )
    assert isinstance(event, ChatEvent)
    return event


def flagged(detectors: Sequence[Detector], texts: Sequence[str]) -> list[dict[str, str]]:
    """Per message, each flagged category with the detectors that flagged it (fresh state)."""
    out: list[dict[str, str]] = []
    for index, text in enumerate(texts):
        found: dict[str, str] = {}
        for finding in Pipeline(detectors).detect(chat_event(text, index)) or ():
            found[finding.category] = ",".join(
                sorted({*found.get(finding.category, "").split(","), finding.detector} - {""})
            )
        out.append(found)
    return out


def is_spam_flag(found: dict[str, str]) -> bool:
    return not SPAMMY.isdisjoint(found)


def corpus_table(
    data: Path, part: str, chains: dict[str, list[Detector]], errors: bool
) -> list[str]:
    lines = [
        f"### {part} part ({round(100 * (TUNE_SHARE if part == 'tune' else 1 - TUNE_SHARE))}%, "
        f"seed {SPLIT_SEED})",
        "",
        "| corpus | chain | messages | spam | precision | recall | F1 | TP | FP | FN |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    shown: list[str] = []
    for corpus, filename in CORPORA.items():
        path = data / filename
        if not path.exists():
            lines.append(f"| {corpus} | (missing: {path}) | | | | | | | | |")
            continue
        rows = split(read_rows(path))[part]
        texts = [r["text"] for r in rows]
        truth = [r["label"] == "spam" for r in rows]
        for name, detectors in chains.items():
            found = flagged(detectors, texts)
            s = score(truth, [is_spam_flag(f) for f in found])
            lines.append(
                f"| {corpus} | {name} | {len(rows)} | {sum(truth)} | {s.precision:.3f} | "
                f"{s.recall:.3f} | {s.f1:.3f} | {s.tp} | {s.fp} | {s.fn} |"
            )
            if errors and name == next(reversed(chains)):
                for text, spam, f in zip(texts, truth, found, strict=True):
                    if spam != is_spam_flag(f):
                        kind = "MISS" if spam else "FALSE"
                        shown.append(f"{corpus} {kind} {sorted(f.items())} {text!r}")
    if shown:
        lines += ["", *shown]
    return [*lines, ""]


def test_set_lines(chains: dict[str, list[Detector]]) -> list[str]:
    lines = ["### tests/data (written for railbird)", ""]
    for path in (POKER_CHAT, PROMO_TRAPS):
        if not path.exists():
            continue
        rows = read_rows(path)
        for name, detectors in chains.items():
            found = flagged(detectors, [r["text"] for r in rows])
            pairs = list(zip(rows, found, strict=True))
            clean = [(r, f) for r, f in pairs if r["label"] == "clean"]
            dirty = [f"{r['text']!r} ({', '.join(sorted(set(f.values())))})" for r, f in clean if f]
            lines.append(
                f"- `{path.relative_to(ROOT)}`, {name}: {len(dirty)} of {len(clean)} clean rows "
                "flagged (any category)" + (": " + "; ".join(dirty) if dirty else "")
            )
            if path == PROMO_TRAPS:
                promo = [(r, f) for r, f in pairs if r["label"] != "clean"]
                caught = sum(is_spam_flag(f) for _, f in promo)
                missed = [r["text"] for r, f in promo if not is_spam_flag(f)]
                lines.append(
                    f"- promotion rows, {name}: {caught} of {len(promo)} flagged spam, "
                    f"advertising or malicious_link (recall {caught / len(promo):.3f})"
                    + ("; missed: " + "; ".join(repr(t) for t in missed) if missed else "")
                )
    return [*lines, ""]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--split", choices=("validation", "tune"), default="validation")
    parser.add_argument(
        "--errors",
        action="store_true",
        help="list the tune part's errors of the last chain reported (implies --split tune)",
    )
    parser.add_argument(
        "--without",
        action="append",
        default=["ml_scorer"],
        help="also report the chain without these detectors (default: ml_scorer)",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    part = "tune" if args.errors else args.split
    detectors = build_detectors()
    chains = {"registered chain": detectors}
    left_out = set(args.without)
    chains["without " + ", ".join(sorted(left_out))] = [
        d for d in detectors if d.name not in left_out
    ]
    out = ["## Spam quality", ""]
    out += corpus_table(args.data, part, chains, args.errors)
    out += test_set_lines(chains)
    out.append(f"Run time {time.perf_counter() - started:.1f} s.")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
