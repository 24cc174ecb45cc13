"""Chat text for the tests that prove a fast path equals the slow one it shortcuts.

One place that reads the poker-chat test set, the simulator's chat (violations boosted so every
detector has work) and samples of the shared Davidson and SMS corpora, which are read from
`../shared/data` at test time and never copied here (absent corpora give no rows).
"""

from __future__ import annotations

import csv
import random
from pathlib import Path

from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from tests.paths import DATA, REPO

POKER_CHAT = REPO / "tests" / "data" / "poker_chat.csv"
SHARED_CORPORA = (DATA / "davidson_train.csv", DATA / "sms_spam_train.csv")


def csv_texts(path: Path, limit: int | None = None) -> list[str]:
    """The `text` column of a CSV, its first `limit` rows; [] when the file is absent."""
    if not path.exists():
        return []
    with path.open(encoding="utf-8", newline="") as handle:
        return [row["text"] for row in csv.DictReader(handle)][:limit]


def simulated_chat(seed: int, hours: float = 0.5, violation_scale: float = 5.0) -> list[str]:
    """The texts of a small simulated day's chat: table talk plus injected violations."""
    config = SimConfig(
        seed=seed, tournaments=1, cash_tables=2, hours=hours, violation_scale=violation_scale
    )
    return [r["text"] for kind, r in simulate(config) if kind == "event" and r.get("text")]


def mixed_chat(
    *, seed: int, sim_seed: int, shared_sample: int, sim_hours: float = 0.5
) -> list[str]:
    """Poker-chat rows, simulated chat and a seeded sample of each shared corpus, deduplicated."""
    texts = csv_texts(POKER_CHAT) + simulated_chat(sim_seed, sim_hours)
    rng = random.Random(seed)
    for path in SHARED_CORPORA:
        rows = csv_texts(path)
        texts += rng.sample(rows, min(shared_sample, len(rows)))
    return list(dict.fromkeys(texts))
