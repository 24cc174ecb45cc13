"""The Kafka bench's baseline: the median raw-consume sample, so one outlier cannot set a ratio."""

from __future__ import annotations

import pytest

from bench.kafka_runs import Rate, median_rate


def _rate(per_second: float) -> Rate:
    return Rate(per_second, 10.0, 0.4)


def test_median_of_three_ignores_the_outlier_either_way() -> None:
    assert median_rate([_rate(36_000), _rate(85_000), _rate(40_000)]).events_per_second == 40_000
    assert median_rate([_rate(12_000), _rate(41_000), _rate(39_000)]).events_per_second == 39_000


def test_even_count_takes_the_lower_middle_and_keeps_the_sample_whole() -> None:
    chosen = median_rate([Rate(50_000, 9.0, 0.5), Rate(30_000, 12.0, 0.3)])
    assert chosen == Rate(30_000, 12.0, 0.3)


def test_no_samples_is_an_error() -> None:
    with pytest.raises(ValueError, match="no samples"):
        median_rate([])
