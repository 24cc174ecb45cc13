"""ML scorer speed on one core: batched scoring (`LinearModel.probabilities_batch`) and the
per-message detector (`MlScorer.detect`, every text new so its memo never helps), on the same
distinct messages: the labelled corpora's texts (tweets, SMS, game chat, comments, posts),
repeated rounds, medians reported.

    .venv/bin/python -m bench.ml_speed [--messages N] [--rounds R]
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import sys
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bench.machine import describe_machine
from railbird.detectors.events import ChatEvent
from railbird.detectors.ml import ml_scorer
from railbird.detectors.ml.ml_scorer import MlScorer, _model_at
from railbird.detectors.ml.multilingual_features import forget_words
from railbird.detectors.ml.multilingual_model import multilingual_model_at
from railbird.detectors.ml.multilingual_training import load_rows
from railbird.detectors.state import TtlState
from railbird.detectors.text import language_id

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
CORPORA = (
    "davidson_train.csv",
    "sms_spam_train.csv",
    "conda_train.csv",
    "youtube_spam_train.csv",
    "hatexplain.csv",
)


def corpus_texts(limit: int) -> list[str]:
    """Distinct texts from the labelled corpora, interleaved so each kind of text is in."""
    columns: list[list[str]] = []
    for name in CORPORA:
        path = DATA / name
        if path.is_file():
            with path.open(encoding="utf-8", newline="") as handle:
                columns.append([row["text"] for row in csv.DictReader(handle) if row["text"]])
    seen: dict[str, None] = {}
    for i in range(max(map(len, columns), default=0)):
        for column in columns:
            if i < len(column):
                seen.setdefault(column[i])
        if len(seen) >= limit:
            break
    return list(seen)[:limit]


def multilingual(rounds: int) -> None:
    """The multilingual model's batch path on every annotated row, each language under its
    own head: once with every word new (its margins learnt as it goes, as on first
    sightings) and once warm (a room whose vocabulary it has seen)."""
    if not (DATA / "intl_de_train.csv").is_file():
        return
    rows = load_rows(DATA)
    by_language = {
        lang: rows.text[rows.language == lang].tolist() for lang in sorted(set(rows.language))
    }
    total = sum(map(len, by_language.values()))
    model = multilingual_model_at("")
    for name, cold in (("every word new", True), ("words seen before", False)):
        rates = []
        for _ in range(rounds):
            if cold:
                model.forget_words()
                forget_words()
            started = time.perf_counter()
            for language, texts in by_language.items():
                model.probabilities_batch(texts, language)
            rates.append(total / (time.perf_counter() - started))
        print(
            f"multilingual probabilities_batch, {total:,} annotated rows, {name}: "
            f"{statistics.median(rates):,.0f} messages/s (median)"
        )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--messages", type=int, default=50_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    texts = corpus_texts(args.messages)
    if not texts:
        print(f"no corpora under {DATA}", file=sys.stderr)
        return 2
    model = _model_at("")
    model.probabilities_batch(texts[:100])  # warm: the model loaded, scipy imported
    batch_rates = []
    for _ in range(args.rounds):
        started = time.perf_counter()
        model.probabilities_batch(texts)
        batch_rates.append(len(texts) / (time.perf_counter() - started))
    scorer = MlScorer()
    at = datetime(2026, 12, 1, tzinfo=UTC)
    chats = [
        ChatEvent(
            type="chat",
            message_id=f"m-{i}",
            ts=at,
            player_id="p-1",
            channel="table",
            table_id="t-1",
            text=text,
        )
        for i, text in enumerate(texts)
    ]
    detect_rates = []
    for _ in range(args.rounds):
        model._verdicts.clear()  # every text new, as the first time it is seen
        ml_scorer._other_verdicts.clear()
        language_id._memo.clear()
        state = TtlState()
        started = time.perf_counter()
        for chat in chats:
            scorer.detect(chat, state)
        detect_rates.append(len(chats) / (time.perf_counter() - started))
    batch, detect = statistics.median(batch_rates), statistics.median(detect_rates)
    print(f"{len(texts):,} distinct corpus messages, {args.rounds} rounds, one core")
    print(f"batched probabilities_batch: {batch:,.0f} messages/s (median)")
    print(f"per message MlScorer.detect, no memo hits: {detect:,.0f} messages/s (median)")
    multilingual(args.rounds)
    print(describe_machine())
    return 0


if __name__ == "__main__":
    if hasattr(os, "sched_setaffinity"):  # one core
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})
    raise SystemExit(main())
