"""Chat-detector quality: precision, recall and F1 per category, next to the libraries it replaces.

Runs every registered detector on each message alone (fresh state, so flood and repeat detectors
see one message), on three sets: the poker-chat set in tests/data (authored for this project),
Davidson et al. (abusive = hate or offensive) and the SMS Spam Collection (spam = spam,
advertising or malicious_link flagged). better-profanity's `contains_profanity` and
alt-profanity-check run in a separate virtualenv (.cache/bench-venv), because alt-profanity-check
pins exact scikit-learn and joblib versions; this script creates it on first use.

    .venv/bin/python bench/chat_quality.py [--limit N] [--no-baselines] [--reuse-baselines]
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.scores import HEADER, score
from railbird.detectors.detector import Detector
from railbird.detectors.events import ChatEvent, event_from_dict
from railbird.detectors.registry import build_detectors
from railbird.detectors.state import TtlState

ROOT = Path(__file__).resolve().parent.parent
POKER_CHAT = ROOT / "tests" / "data" / "poker_chat.csv"
DATA = Path("/work/shared/data")
BENCH_VENV = ROOT / ".cache" / "bench-venv"
BASELINE_PINS = ("alt-profanity-check==1.9.1", "better-profanity==0.7.0")
ABUSIVE = frozenset({"profanity", "harassment", "hate"})
SPAMMY = frozenset({"spam", "advertising", "malicious_link"})
# The category a message "is" when several detectors flag it: the most serious one.
PRECEDENCE = (
    "hate",
    "harassment",
    "impersonation",
    "malicious_link",
    "pii_disclosure",
    "pii_solicitation",
    "advertising",
    "profanity",
    "spam",
)
SPLIT_SEED = 20261129

_BASELINE_SCRIPT = """
import json, sys
from better_profanity import profanity
from profanity_check import predict_prob
texts = json.load(sys.stdin)
profanity.load_censor_words()
bp = [bool(profanity.contains_profanity(t)) for t in texts]
apc = [float(p) for p in predict_prob(texts)] if texts else []
json.dump({"better_profanity": bp, "alt_profanity_check": apc}, sys.stdout)
"""


def read_rows(path: Path, limit: int | None = None) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    return rows[:limit] if limit else rows


def chat_event(text: str, index: int) -> ChatEvent:
    event = event_from_dict(
        {
            "type": "chat",
            "message_id": f"q-{index}",
            "ts": "2026-11-29T20:00:00.000Z",
            "player_id": f"p-{index}",
            "screen_name": f"Player{index}",
            "channel": "table",
            "table_id": "t-q",
            "text": text,
        }
    )
    assert isinstance(event, ChatEvent)
    return event


def flagged_categories(detectors: Sequence[Detector], texts: Sequence[str]) -> list[set[str]]:
    """The categories the detectors flag on each message, each message seen alone."""
    out: list[set[str]] = []
    for index, text in enumerate(texts):
        event = chat_event(text, index)
        found: set[str] = set()
        for detector in detectors:
            state = TtlState()
            state.advance(event.ts)
            found.update(f.category for f in detector.detect(event, state))
        out.append(found)
    return out


def primary(categories: set[str]) -> str:
    return next((c for c in PRECEDENCE if c in categories), "clean")


def ensure_bench_venv() -> Path:
    python = BENCH_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", *BASELINE_PINS], check=True)
    return python


def baselines(texts: Sequence[str], install: bool, reuse: bool) -> dict[str, list[bool]] | None:
    """The libraries' verdicts, from the bench venv; cached by the texts' hash when `reuse`.

    better-profanity takes minutes on Davidson; its verdicts on the same texts never change,
    so a re-run after changing railbird's detectors may reuse them (`--reuse-baselines`).
    """
    payload = json.dumps(list(texts))
    cache = BENCH_VENV.parent / f"chat-baselines-{hashlib.sha1(payload.encode()).hexdigest()}.json"
    if reuse and cache.exists():
        raw = json.loads(cache.read_text())
    else:
        python = BENCH_VENV / "bin" / "python"
        if not python.exists():
            if not install:
                return None
            python = ensure_bench_venv()
        done = subprocess.run(
            [str(python), "-c", _BASELINE_SCRIPT],
            input=payload,
            capture_output=True,
            text=True,
            check=True,
        )
        raw = json.loads(done.stdout)
        cache.write_text(json.dumps(raw))
    return {
        "better-profanity contains_profanity": list(raw["better_profanity"]),
        "alt-profanity-check predict_prob >= 0.5": [p >= 0.5 for p in raw["alt_profanity_check"]],
    }


def poker_chat_report(
    rows: list[dict[str, str]], flagged: list[set[str]], base: dict[str, list[bool]] | None
) -> list[str]:
    labels = [r["label"] for r in rows]
    primaries = [primary(f) for f in flagged]
    lines = ["## Poker-chat set (tests/data/poker_chat.csv)", "", f"{len(rows)} messages.", ""]
    lines += ["### Per category (railbird, most serious flagged category per message)", ""]
    lines.append(HEADER)
    for category in PRECEDENCE:
        if category in labels:
            truth = [label == category for label in labels]
            lines.append(score(truth, [p == category for p in primaries]).row(category))
    lines += ["", "### Abusive language (profanity, harassment or hate) vs the libraries", ""]
    truth = [label in ABUSIVE for label in labels]
    systems: dict[str, list[bool]] = {"railbird": [bool(f & ABUSIVE) for f in flagged]}
    systems.update(base or {})
    lines.append(HEADER)
    traps = [i for i, r in enumerate(rows) if r["note"] == "trap"]
    trap_lines = []
    for name, predicted in systems.items():
        lines.append(score(truth, predicted).row(name))
        hits = [rows[i]["text"] for i in traps if predicted[i]]
        trap_lines.append(f"| {name} | {len(hits)} of {len(traps)} |")
    lines += ["", "### False positives on the slang traps (rows noted `trap`)", ""]
    lines += ["| system | flagged |", "|---|---|", *trap_lines]
    clean_flagged = sum(
        1 for label, f in zip(labels, flagged, strict=True) if label == "clean" and f
    )
    lines += [
        "",
        f"railbird flags {clean_flagged} of {labels.count('clean')} clean rows (any category).",
    ]
    return lines


def binary_report(
    title: str,
    texts: list[str],
    truth: list[bool],
    predicted: dict[str, list[bool]],
    split: list[bool] | None,
) -> list[str]:
    lines = [f"## {title}", ""]
    parts = [("whole file", [True] * len(texts))]
    if split is not None:
        parts.insert(0, ("validation split (30%, seed " + str(SPLIT_SEED) + ")", split))
    for part_name, mask in parts:
        lines += [f"### {part_name}: {sum(mask)} messages", "", HEADER]
        for name, values in predicted.items():
            t = [v for v, m in zip(truth, mask, strict=True) if m]
            p = [v for v, m in zip(values, mask, strict=True) if m]
            lines.append(score(t, p).row(name))
        lines.append("")
    return lines


def validation_mask(n: int) -> list[bool]:
    rng = random.Random(SPLIT_SEED)
    return [rng.random() < 0.3 for _ in range(n)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--limit", type=int, default=None, help="first N rows of each set")
    parser.add_argument("--no-baselines", action="store_true", help="skip the library baselines")
    parser.add_argument("--no-install", action="store_true", help="don't create the bench venv")
    parser.add_argument(
        "--reuse-baselines", action="store_true", help="reuse cached library verdicts"
    )
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    detectors = build_detectors()
    run_base: Callable[[list[str]], dict[str, list[bool]] | None] = (
        (lambda texts: None)
        if args.no_baselines
        else (lambda texts: baselines(texts, not args.no_install, args.reuse_baselines))
    )
    out: list[str] = ["# Chat quality", ""]
    rows = read_rows(POKER_CHAT, args.limit)
    texts = [r["text"] for r in rows]
    out += poker_chat_report(rows, flagged_categories(detectors, texts), run_base(texts))
    davidson_path = args.data / "davidson_train.csv"
    if davidson_path.exists():
        drows = read_rows(davidson_path, args.limit)
        dtexts = [r["text"] for r in drows]
        systems = {"railbird": [bool(f & ABUSIVE) for f in flagged_categories(detectors, dtexts)]}
        systems.update(run_base(dtexts) or {})
        truth = [r["label"] in ("hate", "offensive") for r in drows]
        title = "Davidson et al. (abusive = hate or offensive)"
        out += ["", *binary_report(title, dtexts, truth, systems, validation_mask(len(drows)))]
    sms_path = args.data / "sms_spam_train.csv"
    if sms_path.exists():
        srows = read_rows(sms_path, args.limit)
        stexts = [r["text"] for r in srows]
        flagged = flagged_categories(detectors, stexts)
        out += binary_report(
            "SMS Spam Collection (spam = spam, advertising or malicious_link flagged)",
            stexts,
            [r["label"] == "spam" for r in srows],
            {"railbird": [bool(f & SPAMMY) for f in flagged]},
            None,
        )
    out.append(f"Detectors: {', '.join(d.name for d in detectors)}.")
    out.append(f"Run time {time.perf_counter() - started:.1f} s.")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
