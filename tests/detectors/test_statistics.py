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
