"""The null models' arithmetic the collusion detectors share: Poisson and Poisson-binomial
tails, Fisher's combination of two p-values, Bonferroni's correction, shrunk rates.

Hand-written instead of scipy.stats: each is a few lines run per pair on every hand, and the
Poisson tail must stay exact far out, where `1 - CDF` cancels to zero. One module so that every
detector's p-values mean the same thing and a fix lands once.

Coordinated sit-outs' null: each player's away onsets fall independently over the time both
were in the tournament, keeping each player's own onset count (a player who sits out often is
allowed many chance coincidences). For onset counts n_a and n_b over T seconds and a coincidence
window of +-w seconds, the number of coinciding onset pairs (`matched_coincidences`, each onset
used once) is close to Poisson with mean n_a * n_b * 2w / T (the circular-shift null has exactly
this mean); the detector raises it where the whole field was away more than usual. In a
500-player tournament some pair will always look lucky, so the tail is adjusted over the pairs
that could have been tested (`benjamini_hochberg`, `candidate_pairs`).
"""

from __future__ import annotations

import math
from functools import lru_cache


def poisson_tail(k: int, mean: float) -> float:
    """P(X >= k) for X ~ Poisson(mean), exact at both ends.

    Above the mean the tail is summed upwards from k (the terms shrink from the first), so a
    tail of 1e-200 keeps its digits where `1 - CDF` would cancel to zero. At or below the mean
    the tail is at least about a half, so `1 - CDF` loses nothing; the CDF is summed downwards
    from k - 1 in log space, so a mean past 745, where exp(-mean) underflows, is still right.
    """
    if k <= 0:
        return 1.0
    if mean <= 0:
        return 0.0
    if k > mean:
        return _upper_sum(k, mean)
    below = 0.0
    term = math.exp((k - 1) * math.log(mean) - mean - math.lgamma(k))
    i = k - 1
    while term > 0.0:
        below += term
        if i == 0 or term < below * 1e-17:
            break
        term *= i / mean
        i -= 1
    return min(1.0, max(0.0, 1.0 - below))


def _upper_sum(k: int, mean: float) -> float:
    """The tail summed from k upwards, for k above the mean: the terms only shrink."""
    log_term = -mean + k * math.log(mean) - math.lgamma(k + 1)
    total = 0.0
    i = k
    term = math.exp(log_term)
    while term > 0.0:
        total += term
        i += 1
        term *= mean / i
        if term < total * 1e-15:
            break
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
    """Fisher's combination of two independent p-values (chi-square, 4 degrees of freedom),
    each clamped above zero so that one zero p cannot hide the other."""
    half = -(math.log(max(p_a, 1e-300)) + math.log(max(p_b, 1e-300)))
    return min(1.0, math.exp(-half) * (1.0 + half))


def bonferroni(p_value: float, tests: int) -> float:
    """The family-wise p-value of the best of `tests` tests."""
    return min(1.0, p_value * max(1, tests))


def benjamini_hochberg(p_value: float, tests: int, at_most: int) -> float:
    """The Benjamini-Hochberg adjusted p-value (q) of a test that ranks `at_most`-th smallest
    of `tests` (the count of tests with a p-value no larger than its own, itself included).

    Controls the share of false flags among the flagged rather than the chance of any: the
    same alpha then flags a real pair that sits beside other real pairs, where Bonferroni
    asks every one of them to beat every pair of the field alone. In a stream the rank is
    taken against the other pairs' p-values as last computed: a pair not tested since has a
    p-value from less exposure (smaller than it would be now), so the rank, and the q, can be
    a little more generous than the batch procedure's on the same data."""
    return min(1.0, p_value * max(1, tests) / max(1, at_most))


def shrunk_rate(hits: int, trials: int, prior: float, weight: float) -> float:
    """A player's rate pulled toward the table's, so a thin baseline cannot look extreme."""
    return (hits + weight * prior) / (trials + weight)


def expected_coincidences(n_a: int, n_b: int, window_s: float, exposure_s: float) -> float:
    """Mean number of onset pairs within +-window_s under independent uniform onsets."""
    if exposure_s <= 0:
        return float(n_a * n_b)
    return min(float(n_a * n_b), n_a * n_b * 2.0 * window_s / exposure_s)


def candidate_pairs(players: int) -> int:
    """How many pairs could have been tested among `players` (at least one pair)."""
    n = max(2, players)
    return n * (n - 1) // 2


@lru_cache(maxsize=4096)
def poisson_quantile(mean: float, p: float) -> int:
    """The smallest k >= 1 with P(X >= k) <= p for X ~ Poisson(mean): a count that chance
    reaches less often than `p`, e.g. how many players away at once is more than background.
    Memoised: callers ask about a few background levels over and over."""
    k = max(1, math.floor(mean))
    tail = poisson_tail(k, mean)
    if mean <= 0:
        return k
    term = math.exp(k * math.log(mean) - mean - math.lgamma(k + 1))  # P(X = k)
    while tail > p:  # P(X >= k + 1) = P(X >= k) - P(X = k)
        tail -= term
        k += 1
        term *= mean / k
    return k


def matched_coincidences(a: list[float], b: list[float], window: float) -> list[tuple[int, int]]:
    """The most pairs (i, j) with |a[i] - b[j]| <= window, each time used at most once; `a` and
    `b` sorted. Greedy from the earliest is optimal on a line: the earlier of two unmatched
    times that cannot meet the other can meet nothing later."""
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < len(a) and j < len(b):
        if abs(a[i] - b[j]) <= window:
            pairs.append((i, j))
            i += 1
            j += 1
        elif a[i] < b[j]:
            i += 1
        else:
            j += 1
    return pairs
