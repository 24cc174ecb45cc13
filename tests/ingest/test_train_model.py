from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from railbird.detectors.ml.ml_scorer import load_model
from railbird.detectors.ml.training import featurise, train

DATA = Path("/work/shared/data")
PATHS = {"davidson": DATA / "davidson_train.csv", "sms": DATA / "sms_spam_train.csv"}

pytestmark = pytest.mark.skipif(
    not all(p.is_file() for p in PATHS.values()), reason="training corpora not present"
)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, object]]:
    out = tmp_path_factory.mktemp("model")
    return out, train(PATHS, out, seed=3, sample=800)


def test_manifest_records_data_versions_and_metrics(
    trained: tuple[Path, dict[str, object]],
) -> None:
    out, manifest = trained
    on_disk = json.loads((out / "chat_scorer.json").read_text())
    assert on_disk == json.loads(json.dumps(manifest))
    assert on_disk["data"]["sms"]["rows"] == 800
    assert len(on_disk["data"]["sms"]["sha256"]) == 64
    assert on_disk["sklearn_version"]
    spam = on_disk["head_info"]["spam"]
    assert 0.0 < spam["threshold"] < 1.0
    assert spam["validation"]["recall"] > 0.5


def test_numpy_scoring_matches_sklearn_probabilities(
    trained: tuple[Path, dict[str, object]],
) -> None:
    from sklearn.calibration import CalibratedClassifierCV  # noqa: F401 (installed)

    out, _ = trained
    model = load_model(out / "chat_scorer.npz", out / "chat_scorer.json")
    texts = ["you won a free prize call now", "see you at the table", "shut up you idiot"]
    x = featurise(texts)
    margins = x @ model.weights.astype(np.float64) + model.intercepts
    expected = 1.0 / (1.0 + np.exp(model.cal_a * margins + model.cal_b))
    got = np.array([list(model.probabilities(t).values()) for t in texts])
    assert np.allclose(got, expected, atol=1e-6)


def test_no_training_text_in_files(trained: tuple[Path, dict[str, object]]) -> None:
    out, _ = trained
    with np.load(out / "chat_scorer.npz", allow_pickle=False) as arrays:
        assert set(arrays.files) == {"weights", "intercepts"}
        assert arrays["weights"].dtype == np.float16
    assert "jurong" not in (out / "chat_scorer.json").read_text().lower()


def test_same_seed_same_weights(tmp_path: Path, trained: tuple[Path, dict[str, object]]) -> None:
    out, _ = trained
    train(PATHS, tmp_path, seed=3, sample=800)
    with (
        np.load(out / "chat_scorer.npz") as a,
        np.load(tmp_path / "chat_scorer.npz") as b,
    ):
        assert np.array_equal(a["weights"], b["weights"])


# The multilingual model: the four annotated files, a few hundred rows each (seconds).
INTL = [DATA / f"intl_{lang}_train.csv" for lang in ("de", "pt", "ru", "tr")]


@pytest.fixture(scope="module")
def multilingual(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    from railbird.detectors.ml.multilingual_training import train as train_multilingual

    if not all(p.is_file() for p in INTL):
        pytest.skip("multilingual training files not present")
    out = tmp_path_factory.mktemp("multilingual")
    usage = out / "usage.json"
    manifest = train_multilingual(
        DATA, out, seed=5, usage_path=usage, clean_chat=["nice hand", "gl all"], sample=500
    )
    return out, manifest


def test_multilingual_manifest_has_a_calibrated_head_per_language(
    multilingual: tuple[Path, dict[str, Any]],
) -> None:
    out, manifest = multilingual
    assert json.loads((out / "multilingual_scorer.json").read_text()) == manifest
    assert set(manifest["languages"]) == {"de", "pt", "ru", "tr", "shared"}
    for head in manifest["languages"].values():
        assert head["calibration_a"] < 0 and 0.0 < head["threshold"] < 1.0
    assert manifest["training"]["rows"] == {"de": 500, "pt": 500, "ru": 500, "tr": 500}
    assert manifest["short_lines"]["words_below"] > 1
    usage = json.loads((out / "usage.json").read_text())
    assert set(usage["languages"]) == {"de", "pt", "ru", "tr"}


def test_multilingual_runtime_equals_the_training_arithmetic(
    multilingual: tuple[Path, dict[str, Any]],
) -> None:
    from railbird.detectors.ml.multilingual_model import load_multilingual
    from railbird.detectors.ml.multilingual_training import featurise

    out, manifest = multilingual
    model = load_multilingual(out / "multilingual_scorer.npz", out / "multilingual_scorer.json")
    with np.load(out / "multilingual_scorer.npz", allow_pickle=False) as arrays:
        assert set(arrays.files) == {"weights", "intercept"}
        weights = arrays["weights"].astype(np.float64)
        assert arrays["weights"].dtype == np.float16
    texts = ["du bist so ein vollidiot, echt", "que jogo lindo hoje, parabéns a todos"]
    for text, language in zip(texts, ("de", "pt"), strict=True):
        margin = float((featurise([text], [language]) @ weights)[0]) + model.intercept
        head = manifest["languages"][language]
        expected = 1.0 / (1.0 + np.exp(head["calibration_a"] * margin + head["calibration_b"]))
        assert model.score(text, language).probability == pytest.approx(expected, abs=1e-5)


def test_multilingual_same_seed_same_weights(
    tmp_path: Path, multilingual: tuple[Path, dict[str, Any]]
) -> None:
    from railbird.detectors.ml.multilingual_training import train as train_multilingual

    out, _ = multilingual
    train_multilingual(DATA, tmp_path, seed=5, clean_chat=["nice hand", "gl all"], sample=500)
    assert (out / "multilingual_scorer.npz").read_bytes() == (
        tmp_path / "multilingual_scorer.npz"
    ).read_bytes()


def test_multilingual_report_rows_are_never_fitted_or_calibrated_on() -> None:
    from railbird.detectors.ml.multilingual_training import load_rows

    if not all(p.is_file() for p in INTL):
        pytest.skip("multilingual training files not present")
    rows = load_rows(DATA, seed=13, sample=400)
    for language in ("de", "pt", "ru", "tr"):
        own = rows[rows.language == language]
        report = set(own.text[own.split == "report"])
        assert report and report.isdisjoint(own.text[own.split != "report"])
        share = (own.split == "report").mean()
        assert share == pytest.approx(0.2, abs=0.01)
