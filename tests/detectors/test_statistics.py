"""The collusion detectors' shared statistics against scipy, an implementation they do not share.

The two variants this module replaced each failed at one end: a direct sum from k returned 0.0
for P(X >= 5 | mean 2000), and `1 - CDF` returned 1.0 for P(X >= 1200 | mean 1000), where
exp(-mean) underflows. Both ends are in the table.
"""

from __future__ import annotations

import math
import random

import pytest
from scipy.stats import chi2, poisson

from railbird.detectors.collusion.statistics import (
    binomial_sum_tail,
    bonferroni,
    candidate_pairs,
    expected_coincidences,
    fisher_two,
    matched_coincidences,
    poisson_quantile,
    poisson_tail,
    shrunk_rate,
)


@pytest.mark.parametrize(
    ("k", "mean"),
    [
        (1, 1.0),
        (3, 0.05),
        (40, 10.0),
        (12, 11.5),
        (5, 2000.0),
        (900, 1000.0),
        (1200, 1000.0),
        (10, 1e-9),
        (100_000, 99_000.0),
    ],
)
def test_poisson_tail_matches_scipy_at_both_ends(k: int, mean: float) -> None:
    assert poisson_tail(k, mean) == pytest.approx(poisson.sf(k - 1, mean), rel=1e-9)


def test_poisson_tail_matches_scipy_over_random_arguments() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        mean = 10 ** rng.uniform(-3, 3.5)
        k = max(1, int(mean * rng.uniform(0, 3)))
        expected = poisson.sf(k - 1, mean)
        if expected > 1e-300:
            assert poisson_tail(k, mean) == pytest.approx(expected, rel=1e-9), (k, mean)


@pytest.mark.parametrize(("k", "mean", "tail"), [(0, 3.0, 1.0), (-1, 3.0, 1.0), (2, 0.0, 0.0)])
def test_poisson_tail_edges(k: int, mean: float, tail: float) -> None:
    assert poisson_tail(k, mean) == tail


@pytest.mark.parametrize(("p_a", "p_b"), [(0.5, 0.5), (1e-3, 0.2), (1e-12, 1e-9), (1.0, 1.0)])
def test_fisher_two_is_the_chi_square_with_four_degrees(p_a: float, p_b: float) -> None:
    statistic = -2 * (math.log(p_a) + math.log(p_b))
    assert fisher_two(p_a, p_b) == pytest.approx(chi2.sf(statistic, 4), rel=1e-9)


def test_fisher_two_keeps_the_other_p_when_one_is_zero() -> None:
    assert 0.0 < fisher_two(0.0, 0.5) < fisher_two(1e-300, 0.5) * 1.000001


def test_binomial_sum_tail_is_exact() -> None:
    # Two coins at 0.5 and 0.25: P(both) = 0.125, P(at least one) = 1 - 0.5 * 0.75.
    assert binomial_sum_tail(2, [0.5, 0.25]) == pytest.approx(0.125)
    assert binomial_sum_tail(1, [0.5, 0.25]) == pytest.approx(0.625)
    assert binomial_sum_tail(0, [0.5]) == 1.0
    assert binomial_sum_tail(3, [0.5, 0.25]) == 0.0


def test_corrections_and_rates() -> None:
    assert bonferroni(0.01, 50) == pytest.approx(0.5)
    assert bonferroni(0.1, 50) == 1.0
    assert bonferroni(0.01, 0) == 0.01  # no family: the p-value itself
    assert candidate_pairs(0) == 1 and candidate_pairs(12) == 66
    assert shrunk_rate(0, 0, 0.3, 10.0) == pytest.approx(0.3)  # no trials: the prior
    assert shrunk_rate(10, 10, 0.0, 10.0) == pytest.approx(0.5)
    assert expected_coincidences(3, 4, 30.0, 3600.0) == pytest.approx(12 * 60 / 3600)
    assert expected_coincidences(3, 4, 30.0, 0.0) == 12.0  # never capped above n_a * n_b


@pytest.mark.parametrize(
    ("mean", "p"), [(0.0, 1e-5), (0.4, 1e-5), (2.0, 1e-5), (12.0, 1e-5), (60.0, 1e-3)]
)
def test_poisson_quantile_is_the_first_count_past_p(mean: float, p: float) -> None:
    k = poisson_quantile(mean, p)
    assert poisson.sf(k - 1, mean) <= p  # P(X >= k)
    assert k == 1 or poisson.sf(k - 2, mean) > p  # and k - 1 is not


@pytest.mark.parametrize(
    ("a", "b", "window", "pairs"),
    [
        ([0.0, 10.0, 20.0], [1.0, 11.0, 50.0], 2.0, [(0, 0), (1, 1)]),
        # one time of b near two of a: used once
        ([0.0, 1.0], [0.5], 2.0, [(0, 0)]),
        # the earliest match would waste b[0]: greedy still finds both
        ([0.0, 3.0], [2.0, 4.5], 2.0, [(0, 0), (1, 1)]),
        ([], [1.0], 5.0, []),
        ([0.0, 100.0], [30.0, 70.0], 29.0, []),
    ],
)
def test_matched_coincidences(
    a: list[float], b: list[float], window: float, pairs: list[tuple[int, int]]
) -> None:
    assert matched_coincidences(a, b, window) == pairs


def test_matched_coincidences_is_a_maximum_matching() -> None:
    """Against brute force over small random lists: the greedy count is the largest."""
    rng = random.Random(5)
    for _ in range(300):
        a = sorted(rng.uniform(0, 30) for _ in range(rng.randint(0, 5)))
        b = sorted(rng.uniform(0, 30) for _ in range(rng.randint(0, 5)))
        got = matched_coincidences(a, b, 3.0)
        assert all(abs(a[i] - b[j]) <= 3.0 for i, j in got)
        assert len({i for i, _ in got}) == len({j for _, j in got}) == len(got)
        assert len(got) == _largest_matching(a, b, 3.0)


def _largest_matching(a: list[float], b: list[float], window: float) -> int:
    if not a:
        return 0
    rest = _largest_matching(a[1:], b, window)
    for j, t in enumerate(b):
        if abs(a[0] - t) <= window:
            rest = max(rest, 1 + _largest_matching(a[1:], b[:j] + b[j + 1 :], window))
    return rest
