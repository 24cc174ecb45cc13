"""Tail probabilities and shrunk rates for the pair-ledger detectors (chip dumping, soft play).

Why hand-written instead of scipy.stats: each is a few lines, run per pair on every hand, and
the Poisson tail must stay exact far out, where `1 - CDF` cancels to zero (`_upper_sum`).
`sit_out_stats` and `bounty_stats` carry their own variants of two of these (a direct-sum
Poisson tail, Fisher's method with each p clamped); they agree to rounding but not bit for
bit at the extremes, and merging them could move a flag sitting on a threshold, so they stay.
"""

from __future__ import annotations

import math


def poisson_tail(k: int, mean: float) -> float:
    """P(X >= k) for X ~ Poisson(mean)."""
    if k <= 0:
        return 1.0
    term = math.exp(-mean)
    below = term
    for i in range(1, k):
        term *= mean / i
        below += term
    return max(0.0, 1.0 - below) if below < 0.999 else _upper_sum(k, mean)


def _upper_sum(k: int, mean: float) -> float:
    """The tail summed directly: exact where 1 - CDF would cancel to zero."""
    term = math.exp(k * math.log(mean) - mean - math.lgamma(k + 1)) if mean > 0 else 0.0
    total, i = 0.0, k
    while term > 1e-300 and i < k + 1000:
        total += term
        i += 1
        term *= mean / i
    return min(1.0, total)


def binomial_sum_tail(k: int, probabilities: list[float]) -> float:
    """P(X >= k) for X a sum of independent Bernoulli trials (Poisson-binomial, exact)."""
    if k <= 0:
        return 1.0
    dist = [1.0]
    for p in probabilities:
        nxt = [0.0] * (len(dist) + 1)
        for i, v in enumerate(dist):
            nxt[i] += v * (1.0 - p)
            nxt[i + 1] += v * p
        dist = nxt
    return min(1.0, sum(dist[k:]))


def fisher_two(p_a: float, p_b: float) -> float:
    """Fisher's method for two independent p-values."""
    product = max(p_a * p_b, 1e-300)
    return min(1.0, product * (1.0 - math.log(product)))


def shrunk_rate(hits: int, trials: int, prior: float, weight: float) -> float:
    """A player's rate pulled toward the table's, so a thin baseline cannot look extreme."""
    return (hits + weight * prior) / (trials + weight)
