"""The bucket bound may only ever skip messages that no head can flag.

The oracle is the exact margin test the scorer ran on every message before the bound: numpy's
gather-and-sum of the message's distinct buckets plus the intercepts, against `min_margins`.
"""

from __future__ import annotations

import numpy as np
import pytest

from railbird.detectors.ml.features import buckets, feature_ids, words
from railbird.detectors.ml.ml_scorer import MlScorer
from railbird.detectors.ml.reach_bound import K, reach_bound
from tests.corpora import POKER_CHAT, csv_texts
from tests.paths import DATA


def _reachable(text: str) -> bool:
    model = MlScorer().model()
    found = list(buckets(text))
    margin, _ = model.margins(found)
    return bool((margin >= model.min_margins).any())


def _bound_total(text: str) -> int:
    bound = MlScorer().model().bound
    return sum(bound[b] for b in feature_ids(words(text)))


def test_bound_never_hides_a_reachable_message() -> None:
    texts = [
        *csv_texts(POKER_CHAT, 6_000),
        *csv_texts(DATA / "davidson_train.csv", 4_000),
        *csv_texts(DATA / "sms_spam_train.csv", 2_000),
    ]
    proved = reachable = 0
    for text in texts:
        total = _bound_total(text)
        if _reachable(text):
            reachable += 1
            assert total >= K, text
        proved += total < K
    assert reachable > 1000  # both sides of the bound were exercised
    assert proved > len(texts) // 5  # and it proves a real share of chat unreachable


@pytest.mark.parametrize(
    "text",
    [
        "you are a stupid bitch",  # reachable: the bound must not prove it clean
        "WINNER!! You have won a 1000 cash prize, call 09061701461 to claim now",
    ],
)
def test_flagged_messages_take_the_exact_path(text: str) -> None:
    assert _reachable(text)
    assert _bound_total(text) >= K
    assert MlScorer().model().verdict(text)[1] is not None


def test_clean_table_talk_is_proved_unreachable() -> None:
    model = MlScorer().model()
    assert not _reachable("nice hand sir")
    assert model.verdict("nice hand sir") == (0, None)


def _bound(weights: list[list[float]], intercepts: list[float], limits: list[float]) -> bytes:
    return reach_bound(
        np.array(weights, dtype=np.float32),
        np.array(intercepts, dtype=np.float64),
        np.array(limits, dtype=np.float64),
    )


def test_a_bucket_that_alone_reaches_a_head_gets_the_full_unit() -> None:
    # head 0 needs a weight sum of 2.0 (limit 1.0 above intercept -1.0)
    bound = _bound([[2.0, 0.0], [1.0, -5.0], [0.0, 0.0], [-3.0, 0.1]], [-1.0, 0.0], [1.0, 4.0])
    assert bound[0] == K
    assert bound[1] == 128  # ceil(255 * 1.0 / (2.0 - slack))
    assert bound[2] == 0
    assert bound[3] == 7  # ceil(255 * 0.1 / 4.0): the largest share over the heads counts
    assert bound[1] + bound[1] >= K  # two halves together must not be proved clean


@pytest.mark.parametrize(
    ("weights", "intercepts", "limits"),
    [
        ([[0.0, 0.0], [float("nan"), 0.0]], [0.0, 0.0], [1.0, 1.0]),
        ([[0.0, 0.0], [float("inf"), 0.0]], [0.0, 0.0], [1.0, 1.0]),
        ([[0.0, 0.0], [0.0, 0.0]], [0.0, 2.0], [1.0, 1.0]),  # head 1 reachable with no words
    ],
)
def test_a_bound_that_cannot_be_trusted_proves_nothing(
    weights: list[list[float]], intercepts: list[float], limits: list[float]
) -> None:
    assert set(_bound(weights, intercepts, limits)) == {K}
