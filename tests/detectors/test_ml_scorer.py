from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from railbird.detectors.ml.features import N_FEATURES, buckets, features
from railbird.detectors.ml.ml_scorer import MlScorer, ModelError, load_model
from railbird.detectors.state import TtlState
from tests.builders import chat

POKER_TALK = [
    "nice hand",
    "ship it",
    "I had the nuts",
    "donk call",
    "kill pot",
    "sick suck out",
    "gg wp",
    "free money lol",
    "these donks always suck out on the river, nuts every time",
    "omg what a bad beat",
    "big balls call sir",
    "god run today",
    "ty ty, nice laydown",
    "shove or fold here?",
]


def test_committed_model_is_small_and_described() -> None:
    model = MlScorer().model()
    assert model.heads == ("abusive", "hate", "spam")
    assert model.categories == ("profanity", "hate", "spam")
    assert model.manifest["features"]["n_features"] == N_FEATURES
    assert {"davidson", "sms"} <= set(model.manifest["data"])
    assert all(0.0 < t < 1.0 for t in model.thresholds)
    size = Path(__file__).parents[2] / "detectors" / "ml" / "models" / "chat_scorer.npz"
    assert size.stat().st_size < 2_000_000


@pytest.mark.parametrize("text", POKER_TALK)
def test_poker_talk_is_not_flagged(text: str) -> None:
    assert MlScorer().detect(chat(text), TtlState()) == []


def test_abuse_is_flagged_with_top_words() -> None:
    (found,) = MlScorer().detect(chat("you are a stupid bitch"), TtlState())
    assert found.category == "profanity"
    assert found.score > 0.8
    assert "bitch" in found.evidence.measures["top_features"]  # type: ignore[operator]
    assert found.evidence.summary.startswith(f"model scores {found.score:.2f} for profanity")


def test_sms_style_spam_is_flagged() -> None:
    text = "WINNER!! You have won a 1000 cash prize, call 09061701461 to claim now"
    found = MlScorer().detect(chat(text), TtlState())
    assert [f.category for f in found] == ["spam"]


def test_features_are_words_pairs_and_slices_without_numbers() -> None:
    assert features("Nice hand 1500") == [
        *("u:nice", "u:hand", "u:0", "b:nice hand", "b:hand 0"),
        *("c:<nic", "c:nice", "c:ice>", "c:<han", "c:hand", "c:and>"),
    ]
    assert all(0 <= b < N_FEATURES for b in buckets("anything at all"))


def test_pickled_npz_is_refused(tmp_path: Path) -> None:
    manifest = Path(__file__).parents[2] / "detectors" / "ml" / "models" / "chat_scorer.json"
    bad = tmp_path / "chat_scorer.npz"
    np.savez(bad, weights=np.array([{"evil": 1}], dtype=object), intercepts=np.zeros(3))
    with pytest.raises(ModelError, match="cannot load"):
        load_model(bad, manifest)


def test_mismatched_arrays_are_refused(tmp_path: Path) -> None:
    meta = json.loads(
        (Path(__file__).parents[2] / "detectors" / "ml" / "models" / "chat_scorer.json").read_text()
    )
    (tmp_path / "m.json").write_text(json.dumps(meta))
    np.savez(
        tmp_path / "m.npz", weights=np.zeros((3, 16), dtype=np.float16), intercepts=np.zeros(3)
    )
    with pytest.raises(ModelError, match="do not match"):
        load_model(tmp_path / "m.npz", tmp_path / "m.json")


def test_batched_probabilities_equal_the_per_message_ones() -> None:
    model = MlScorer().model()
    texts = [
        "you are a stupid bitch",
        "nice hand",
        "WINNER!! claim your prize now, call 09061701461",
        "subscribe to my channel for free chips",
        "",
        "gg wp all",
    ]
    batch = model.probabilities_batch(texts)
    assert batch.shape == (len(texts), len(model.heads))
    for row, text in zip(batch, texts, strict=True):
        single = list(model.probabilities(text).values())
        assert row == pytest.approx(single, abs=1e-5), text


@pytest.mark.parametrize(
    ("text", "flagged"),
    [
        ("soy un idiota, mal call", False),  # "I am an idiot": about the speaker
        ("jestem idiota, zly call", False),
        ("eres un idiota", True),
        ("you are such an idiota", True),
    ],
)
def test_the_abusive_head_spares_self_deprecation_in_other_languages(
    text: str, flagged: bool
) -> None:
    """The English head, as it reads a line the language identifier cannot place."""
    found = MlScorer(multilingual=False).detect(chat(text), TtlState())
    assert any(f.category == "profanity" for f in found) is flagged


def test_a_single_question_to_the_reader_is_never_ml_spam() -> None:
    question = "did you subscribe to the sunday series alerts?"
    assert MlScorer().detect(chat(question), TtlState()) == []
    pitch = "do you want to win 1000 cash? subscribe now, call 09061701461"
    assert [f.category for f in MlScorer().detect(chat(pitch), TtlState())] == ["spam"]
