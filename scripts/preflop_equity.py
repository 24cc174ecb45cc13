"""Write detectors/play/preflop_equity.json: each of the 169 starting-hand classes' all-in
equity against one random hand, by Monte Carlo with a fixed seed (ties count half).

    .venv/bin/python scripts/preflop_equity.py [--samples 20000]

The honest-decision model reads a starting hand through this table. It is data, not code, so
the detectors never import the simulator's evaluator; this script does, once, offline.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from railbird.detectors.play.hand_rank import CARD_CODE, DECK, evaluate

RANKS = "23456789TJQKA"
OUT = Path(__file__).resolve().parent.parent / "detectors" / "play" / "preflop_equity.json"


def classes() -> dict[str, tuple[str, str]]:
    """Each class name with one representative holding."""
    found: dict[str, tuple[str, str]] = {}
    for i, hi in enumerate(RANKS):
        for lo in RANKS[: i + 1]:
            if hi == lo:
                found[hi + lo] = (hi + "s", lo + "h")
            else:
                found[hi + lo + "s"] = (hi + "s", lo + "s")
                found[hi + lo + "o"] = (hi + "s", lo + "h")
    return found


def equity(hole: tuple[str, str], samples: int, rng: random.Random) -> float:
    rest = [CARD_CODE[c] for c in DECK if c not in hole]
    mine = [CARD_CODE[c] for c in hole]
    score = 0.0
    for _ in range(samples):
        drawn = rng.sample(rest, 7)
        board = drawn[2:]
        a = evaluate(mine + board)
        b = evaluate(drawn[:2] + board)
        score += 1.0 if a > b else 0.5 if a == b else 0.0
    return score / samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=20_000)
    args = parser.parse_args()
    rng = random.Random(169)
    table = {name: round(equity(hole, args.samples, rng), 4) for name, hole in classes().items()}
    OUT.write_text(json.dumps(dict(sorted(table.items())), indent=0) + "\n")


if __name__ == "__main__":
    main()
