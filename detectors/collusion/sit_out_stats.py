"""The null model for coordinated sit-outs: how many coincidences chance alone would give.

Under the null, each player's sit-out onsets fall independently and uniformly over the time both
were in the tournament, keeping each player's own onset count (a player who sits out often is
allowed many chance coincidences). For onset counts n_a and n_b over T seconds and a coincidence
window of +-w seconds, the number of coinciding onset pairs is close to Poisson with mean
n_a * n_b * 2w / T (the circular-shift null has exactly this mean). The p-value is its upper tail,
multiplied by the number of pairs that could have been tested (Bonferroni): in a 500-player
tournament some pair will always look lucky, and we must not flag it.
"""

from __future__ import annotations

import math


def expected_coincidences(n_a: int, n_b: int, window_s: float, exposure_s: float) -> float:
    """Mean number of onset pairs within +-window_s under independent uniform onsets."""
    if exposure_s <= 0:
        return float(n_a * n_b)
    return min(float(n_a * n_b), n_a * n_b * 2.0 * window_s / exposure_s)


def poisson_tail(k: int, mean: float) -> float:
    """P(X >= k) for X ~ Poisson(mean), computed stably for small tails."""
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    # Sum the tail directly from k upwards: terms shrink fast once i > mean.
    log_term = -mean + k * math.log(mean) - math.lgamma(k + 1)
    total = 0.0
    i = k
    term = math.exp(log_term)
    while term > 0.0 and i < k + 1000:
        total += term
        i += 1
        term *= mean / i
        if i > mean and term < total * 1e-15:
            break
    return min(1.0, total)


def candidate_pairs(players_with_onsets: int) -> int:
    """How many pairs could have been tested: every pair of players who ever sat out."""
    n = max(2, players_with_onsets)
    return n * (n - 1) // 2


def bonferroni(p_value: float, tests: int) -> float:
    return min(1.0, p_value * max(1, tests))
