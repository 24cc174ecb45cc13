"""The simulated days the shipped honest-decision model was trained on, written again.

`railbird train-play` learns from any hand histories; the shipped model
(`detectors/play/models/`) learned from these fourteen simulated days. Writing them again with
this script and training on the directory reproduces the manifest's file hashes and, with the
same seed, the same weights:

    python -m bench.play_training_days --out var/play-days
    railbird train-play var/play-days/*.events.jsonl --out detectors/play/models

The mix is deliberate: both families of honest players (`positional_share` 0, 0.5 and 1),
bounty tournaments with and without teams, and cash tables with and without colluding pairs,
so the model learns the population's play in every spot the detectors read, not one style's.
Which files validate is decided by `train-play` (a hash of each file's name), never here.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import orjson

from railbird.sim.config import SimConfig
from railbird.sim.run import simulate

# (kind, seed, share of honest players from the positional family)
DAYS: tuple[tuple[str, int, float], ...] = (
    ("bounty", 101, 0.0),
    ("bounty", 102, 0.0),
    ("bounty", 111, 1.0),
    ("bounty", 112, 1.0),
    ("bounty", 131, 0.5),
    ("bounty", 132, 0.5),
    ("plain", 141, 0.0),
    ("plain", 142, 1.0),
    ("plain", 143, 0.5),
    ("cash", 101, 0.0),
    ("cash", 111, 1.0),
    ("cash", 121, 0.5),
    ("cashplain", 144, 0.0),
    ("cashplain", 145, 1.0),
)


def day_config(kind: str, seed: int, share: float) -> SimConfig:
    """One training day: a bounty tournament day with teams, one without, or cash tables."""
    if kind == "bounty":
        return SimConfig(
            seed=seed,
            tournaments=2,
            cash_tables=0,
            hours=3,
            players_per_tournament=500,
            bounty_share=1.0,
            team_intensity_range=(0.3, 0.9),
            progressive_bounty=True,
            bounty_hunters_per_table=1.0,
            friend_pairs_per_tournament=3,
            open_planning_chat=True,
            positional_share=share,
        )
    if kind == "plain":
        return SimConfig(
            seed=seed,
            tournaments=2,
            cash_tables=0,
            hours=3,
            players_per_tournament=500,
            bounty_share=0.5,
            bounty_teams_per_tournament=0,
            sitout_teams_per_tournament=0,
            positional_share=share,
        )
    pairs = 0 if kind == "cashplain" else 4
    return SimConfig(
        seed=seed,
        tournaments=0,
        cash_tables=12,
        hours=4,
        chip_dump_pairs=pairs,
        soft_play_pairs=pairs,
        team_intensity=0.4,
        positional_share=share,
    )


def write_day(kind: str, seed: int, share: float, out: Path) -> Path:
    """The day's hand events as JSON Lines (what training reads); its truth beside them."""
    stem = out / f"{kind}_{seed}_{share:g}"
    events = stem.with_name(stem.name + ".events.jsonl")
    truth = stem.with_name(stem.name + ".truth.jsonl")
    with events.open("wb") as ev, truth.open("wb") as tr:
        for record_kind, record in simulate(day_config(kind, seed, share)):
            if record_kind == "truth":
                tr.write(orjson.dumps(record) + b"\n")
            elif record["type"] == "hand":
                ev.write(orjson.dumps(record) + b"\n")
    return events


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("var/play-days"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for kind, seed, share in DAYS:
        print(write_day(kind, seed, share, args.out))


if __name__ == "__main__":
    main()
