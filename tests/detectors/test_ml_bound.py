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
    """The largest head's total: below K proves the message unreachable."""
    ids = feature_ids(words(text))
    return max(sum(q[b] for b in ids) for q in MlScorer().model().bound)


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
    # and it proves a real share unreachable (four in five of the tweets are abusive)
    assert proved > len(texts) // 6


def test_bound_proves_most_poker_chat_unreachable() -> None:
    """What the bound is for: table talk skips the exact sums (it proved 408 of 583)."""
    texts = csv_texts(POKER_CHAT, 6_000)
    assert sum(_bound_total(t) < K for t in texts) > len(texts) * 0.6


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


def _bound(
    weights: list[list[float]], intercepts: list[float], limits: list[float]
) -> tuple[bytes, ...]:
    return reach_bound(
        np.array(weights, dtype=np.float32),
        np.array(intercepts, dtype=np.float64),
        np.array(limits, dtype=np.float64),
    )


def test_a_bucket_that_alone_reaches_a_head_gets_the_full_unit() -> None:
    # head 0 needs a weight sum of 2.0 (limit 1.0 above intercept -1.0)
    bound = _bound([[2.0, 0.0], [1.0, -5.0], [0.0, 0.0], [-3.0, 0.1]], [-1.0, 0.0], [1.0, 4.0])
    first, second = bound
    assert first[0] == K
    assert first[1] == 128  # ceil(255 * 1.0 / (2.0 - slack))
    assert first[2] == 0
    assert first[3] == 0  # a negative weight never helps a head
    assert second[3] == 7  # ceil(255 * 0.1 / 4.0): head 1's own share
    assert second[0] == 0 and second[1] == 0
    assert first[1] + first[1] >= K  # two halves together must not be proved clean


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
    assert all(set(q) == {K} for q in _bound(weights, intercepts, limits))
