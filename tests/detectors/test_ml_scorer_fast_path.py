"""The pure-Python scorer must find exactly what the original numpy scorer found.

The reference below is the original implementation (numpy gather-and-sum, numpy calibration,
`np.argsort` for the evidence). The fast path sums the same float32 weights in the same order
and calls `np.exp` for the same values, so findings must be equal field for field, including
the score, the severity and the order of the top words (ties included).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from railbird.detectors.findings import Finding
from railbird.detectors.ml.features import buckets
from railbird.detectors.ml.ml_scorer import (
    _QUESTION_TO_THE_READER,
    TOXIC_PRECEDENCE,
    LinearModel,
    MlScorer,
)
from railbird.detectors.state import TtlState
from tests.builders import chat
from tests.corpora import POKER_CHAT, csv_texts
from tests.paths import DATA


def _reference(scorer: MlScorer, text: str) -> list[tuple[Any, ...]]:
    model: LinearModel = scorer.model()
    if len(text) < 4:
        return []
    found = buckets(text)
    if len(found) < scorer.min_tokens:
        return []
    indices = list(found)
    margin, rows = model.margins(indices)
    if not (margin >= model.min_margins).any():
        return []
    probs = model.calibrate(margin)
    other = np.array([head != "abusive" for head in model.heads])
    over = (probs >= model.thresholds) & (other | (probs >= scorer.min_probability))
    if not over.any():
        return []
    if "abusive" in model.heads and over[model.heads.index("abusive")]:
        over[model.heads.index("abusive")] = scorer._abusive_stands(model, text)
    if "spam" in model.heads and over[model.heads.index("spam")]:
        over[model.heads.index("spam")] = not _QUESTION_TO_THE_READER.fullmatch(text)
    chosen = [i for i, head in enumerate(model.heads) if over[i] and head == "spam"]
    for head in TOXIC_PRECEDENCE:
        if over[model.heads.index(head)]:
            chosen.append(model.heads.index(head))
            break
    features = [found[i] for i in indices]
    out = []
    for i in chosen:
        contributions = rows[:, i]
        order = np.argsort(-contributions)[: scorer.top_features]
        # a word named once, however many of its slices are among the top buckets
        top = list(dict.fromkeys(features[j][2:] for j in order if contributions[j] > 0))
        probability = float(probs[i])
        threshold = float(model.thresholds[i])
        severity = "medium" if probability >= (1 + threshold) / 2 else "low"
        out.append((model.categories[i], severity, round(probability, 4), top))
    return out


def _fast(findings: list[Finding]) -> list[tuple[Any, ...]]:
    return [
        (f.category, f.severity, f.score, f.evidence.measures["top_features"]) for f in findings
    ]


def test_fast_scorer_equals_the_numpy_reference_on_corpus_rows() -> None:
    scorer = MlScorer(multilingual=False)  # the English model's exact path
    texts = [
        *csv_texts(POKER_CHAT, 10_000),
        *csv_texts(DATA / "davidson_train.csv", 6_000),
        *csv_texts(DATA / "sms_spam_train.csv", 2_000),
    ]
    flagged = 0
    for text in texts:
        expected = _reference(scorer, text)
        assert _fast(scorer.detect(chat(text), TtlState())) == expected, text
        flagged += bool(expected)
    assert flagged > 1000  # the comparison covered the flagging path, not only the gate


@pytest.mark.parametrize(
    "text", ["you are a stupid bitch", "nice hand", "WINNER!! claim your prize now, call 0906"]
)
def test_a_repeated_text_gets_the_same_findings_from_the_memo(text: str) -> None:
    scorer = MlScorer(multilingual=False)  # the English model's exact path
    first = scorer.detect(chat(text, message_id="m-a"), TtlState())
    again = scorer.detect(chat(text, message_id="m-b"), TtlState())
    assert _fast(first) == _fast(again) == _reference(scorer, text)
    assert all(f.message_ids == ("m-b",) for f in again)
