"""Chat abuse per language: the whole registered chain and glin-profanity 4.1.0 (all its
dictionaries) on the same rows, in the same run.

Rows: the 20% of each annotated file in `../shared/data` (`intl_{de,pt,ru,tr}_train.csv`) that
`railbird train` holds out of both the multilingual model's fit and its calibration
(`multilingual_training.report_rows`, seed 13); and our own Spanish and Polish lines
(`tests/data/abuse_aim_es_pl.csv`, written before the model was built), reported apart. Every
message runs alone through every registered detector (a fresh pipeline). A German, Portuguese,
Russian or Turkish row counts as flagged on any of profanity, harassment or hate (their files
count profanity as offensive); a Spanish or Polish line of ours as flagged on harassment or hate
only (aimed insults are the positives; swearing at nobody should be low profanity, which is
reported on its own). Clean poker talk flagged by anything is listed too.

    .venv/bin/python -m bench.chat_multilingual [--limit N] [--no-glin] [--out FILE]
"""

from __future__ import annotations

import argparse
import collections
import csv
import time
from collections.abc import Sequence
from pathlib import Path

from bench.abuse_quality import chat_event
from bench.scores import HEADER, score
from railbird.detectors.ml.multilingual_training import report_rows
from railbird.detectors.registry import build_detectors
from railbird.rules.pipeline import Pipeline

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
OWN_SET = ROOT / "tests" / "data" / "abuse_aim_es_pl.csv"
ABUSIVE = frozenset({"profanity", "harassment", "hate"})
AIMED = frozenset({"harassment", "hate"})
NAMES = {"de": "German", "pt": "Portuguese", "ru": "Russian", "tr": "Turkish"}


def flags(texts: Sequence[str]) -> list[dict[str, set[str]]]:
    """Per message, each flagged category with the detectors that flagged it."""
    detectors = build_detectors()
    out: list[dict[str, set[str]]] = []
    for text in texts:
        found: dict[str, set[str]] = collections.defaultdict(set)
        for f in Pipeline(detectors).detect(chat_event(text)) or ():
            found[f.category].add(f.detector)
        out.append(dict(found))
    return out


def glin_verdicts(texts: Sequence[str]) -> list[bool]:
    from glin_profanity import Filter

    checker = Filter({"all_languages": True})
    return [bool(checker.is_profane(text)) for text in texts]


def _table(
    title: str, truth: list[bool], systems: dict[str, list[bool]], clean_note: str = ""
) -> list[str]:
    lines = [f"### {title}", "", HEADER]
    for name, predicted in systems.items():
        lines.append(score(truth, predicted).row(name))
    return [*lines, *([clean_note] if clean_note else []), ""]


def _who(found: list[dict[str, set[str]]], truth: list[bool], wanted: frozenset[str]) -> str:
    """Which detectors flagged the clean rows (a row may count for several)."""
    counts: collections.Counter[str] = collections.Counter()
    for f, positive in zip(found, truth, strict=True):
        if not positive:
            for category in wanted & f.keys():
                counts.update(f[category])
    return ", ".join(f"{name} {n}" for name, n in counts.most_common()) or "none"


def annotated(limit: int | None, with_glin: bool) -> list[str]:
    rows = report_rows(DATA)
    out = ["## Rows held out of the annotated files", ""]
    summary = [
        "| language | rows | offensive | railbird F1 (P / R) | glin F1 (P / R) | "
        "clean flagged: railbird / glin |",
        "|---|---|---|---|---|---|",
    ]
    for language in sorted(NAMES):
        part = rows[rows.language == language]
        if limit is not None:
            part = part.head(limit)
        texts = part.text.tolist()
        truth = [bool(y) for y in part.y]
        found = flags(texts)
        ours = [bool(f.keys() & ABUSIVE) for f in found]
        systems = {"railbird (every detector)": ours}
        if with_glin:
            systems["glin-profanity 4.1.0, all languages"] = glin_verdicts(texts)
        out += _table(
            f"{NAMES[language]}: {len(texts)} rows, {sum(truth)} offensive",
            truth,
            systems,
            f"\nrailbird's clean rows flagged, by detector: {_who(found, truth, ABUSIVE)}",
        )
        cells = []
        for predicted in systems.values():
            s = score(truth, predicted)
            cells.append(f"{s.f1:.3f} ({s.precision:.2f} / {s.recall:.2f})")
        cleans = " / ".join(str(score(truth, p).fp) for p in systems.values())
        summary.append(
            f"| {NAMES[language]} | {len(texts)} | {sum(truth)} | {' | '.join(cells)}"
            f"{' | —' if not with_glin else ''} | {cleans} |"
        )
    return ["## Summary", "", *summary, "", *out]


def own_set(with_glin: bool) -> list[str]:
    with OWN_SET.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    out = ["## Our Spanish and Polish lines (`tests/data/abuse_aim_es_pl.csv`)", ""]
    for language, name in (("es", "Spanish"), ("pl", "Polish")):
        part = [r for r in rows if r["language"] == language]
        texts = [r["text"] for r in part]
        found = flags(texts)
        truth = [r["label"] in AIMED for r in part]
        systems = {"railbird, harassment or hate": [bool(f.keys() & AIMED) for f in found]}
        if with_glin:
            systems["glin-profanity 4.1.0, all languages"] = glin_verdicts(texts)
        counts = collections.Counter(r["label"] for r in part)
        out += _table(
            f"{name}: {len(part)} lines ({counts['harassment']} aimed insults, "
            f"{counts['profanity']} swearing at nobody, {counts['clean']} clean); "
            "positive = aimed",
            truth,
            systems,
        )
        undirected = [f for f, r in zip(found, part, strict=True) if r["label"] == "profanity"]
        low = sum(1 for f in undirected if "profanity" in f and not f.keys() & AIMED)
        clean = [
            (r["text"], sorted(f))
            for f, r in zip(found, part, strict=True)
            if r["label"] == "clean" and f.keys() & ABUSIVE
        ]
        missed = [
            r["text"]
            for f, r in zip(found, part, strict=True)
            if r["label"] == "harassment" and not f.keys() & AIMED
        ]
        out += [
            f"- swearing at nobody flagged as profanity alone: {low} of {len(undirected)}",
            f"- clean lines flagged: {len(clean)}" + (f" ({clean})" if clean else ""),
            f"- aimed insults missed: {len(missed)}" + (f" ({missed})" if missed else ""),
            "",
        ]
    return out


def clean_poker() -> list[str]:
    out = ["## Clean poker talk flagged by any detector", ""]
    for name in ("poker_chat.csv", "poker_chat_intl.csv", "poker_game_slang.csv"):
        with (ROOT / "tests" / "data" / name).open(encoding="utf-8", newline="") as handle:
            texts = [r["text"] for r in csv.DictReader(handle) if r["label"] == "clean"]
        found = flags(texts)
        hit = [t for t, f in zip(texts, found, strict=True) if f]
        out.append(
            f"- `tests/data/{name}`: {len(hit)} of {len(texts)}" + (f" {hit}" if hit else "")
        )
    return [*out, ""]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--limit", type=int, help="rows per language (quick runs)")
    parser.add_argument("--no-glin", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    lines = annotated(args.limit, not args.no_glin)
    lines += own_set(not args.no_glin)
    lines += clean_poker()
    lines.append(f"Run time {time.perf_counter() - started:.0f} s.")
    text = "\n".join(lines)
    if args.out:
        args.out.write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
