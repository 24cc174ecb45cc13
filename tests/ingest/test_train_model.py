from __future__ import annotations

import json
from pathlib import Path

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
