"""The ML scorer on messages in other languages: which model and head reads them, what their
findings say (language, head, probability, aim), the gates that spare a speaker talking about
themselves and short lines flagged on letter pieces alone, and the model files themselves.
Quality per language is measured on held-out rows (`docs/quality-multilingual.md`), not here.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from railbird.detectors.ml.ml_scorer import MlScorer
from railbird.detectors.ml.multilingual_model import (
    MultilingualModelError,
    load_multilingual,
    multilingual_model_at,
)
from railbird.detectors.state import TtlState
from railbird.detectors.text.language_id import language_of, likely_language
from railbird.detectors.text.multilingual_terms import about_the_speaker, addressed
from tests.builders import chat

MODELS = Path(__file__).parents[2] / "detectors" / "ml" / "models"


def _ml(text: str) -> list[tuple[str, str, str, str]]:
    found = MlScorer().detect(chat(text), TtlState())
    return [
        (f.category, f.severity, f.evidence.measures.get("language", "en"), f.evidence.kind)
        for f in found
    ]


@pytest.mark.parametrize(
    ("text", "language"),
    [
        ("wie immer verliert er mit den besten Karten am Ende des Abends", "de"),
        ("hoje eu joguei muito mal, mas amanhã tem mais torneio", "pt"),
        ("сегодня опять не повезло на ривере, ну ничего", "ru"),
        ("bugün çok kötü oynadım ama yarın yine geleceğim", "tr"),
        ("hoy jugué fatal pero mañana vuelvo a la mesa", "es"),
        ("καλή τύχη σε όλους στο τραπέζι απόψε", "el"),
        ("حظ سعيد للجميع على الطاولة الليلة", "ar"),
        ("nice hand, see you at the final table", "en"),
        ("gg", ""),  # too short to tell
        ("nh", ""),
    ],
)
def test_language_identification(text: str, language: str) -> None:
    assert language_of(text) == language


def test_a_weak_guess_prefers_english_and_trained_languages() -> None:
    trained = frozenset({"de", "pt", "ru", "tr"})
    # Luxembourgish 0.37 on top, English 0.30 beside it: English.
    assert likely_language("bitch ass river", trained) == "en"
    assert likely_language("eres un idiota", trained) == "es"  # sure: stays Spanish


@pytest.mark.parametrize(
    ("text", "category", "severity", "language"),
    [
        # German: aimed at the reader (second person) or at nobody.
        ("du bist so ein dummer Vollidiot, lern endlich spielen", "harassment", "medium", "de"),
        ("was für eine scheiß Runde, alles verloren, so ein Dreck", "profanity", "low", "de"),
        # Turkish, Portuguese and Russian, aimed.
        ("sen tam bir aptalsın, hiçbir şey bilmiyorsun gerizekalı", "harassment", "medium", "tr"),
        ("vai tomar no cu seu lixo, você é um arrombado", "harassment", "medium", "pt"),
        ("ты тупой дебил, иди учись играть, придурок", "harassment", "medium", "ru"),
    ],
)
def test_other_languages_are_read_by_the_multilingual_model(
    text: str, category: str, severity: str, language: str
) -> None:
    assert _ml(text) == [(category, severity, language, "ml_score")]


def test_the_finding_names_the_head_and_the_words() -> None:
    (found,) = MlScorer().detect(
        chat("du bist so ein dummer Vollidiot, lern endlich spielen"), TtlState()
    )
    measures = found.evidence.measures
    assert measures["head"] == "de" and measures["directed"] is True
    assert measures["probability"] >= measures["threshold"]
    assert measures["model_version"] == "multilingual_scorer-1"
    assert "vollidiot" in measures["top_features"]
    assert "aimed at someone" in found.evidence.summary


@pytest.mark.parametrize(
    "text",
    [
        "dumm gespielt von mir",  # the speaker about themselves
        "ben salak gibi call ettim",
        "ale ze mnie idiota, spasowałem najlepszą rękę",
        "eine scheibe brot in der pause",  # "scheibe" shares letter pieces with "scheiße"
        "limp aus dem small blind, klassiker",  # poker words in any language
        "wie immer hat er glück am river, na ja, nächstes mal",
        "obrigado pelo jogo pessoal, boa sorte a todos no torneio de amanhã",
        "спасибо за игру всем, удачи завтра в турнире",
        "herkese iyi oyunlar, yarınki turnuvada görüşürüz",
    ],
)
def test_clean_table_talk_in_other_languages_does_not_flag(text: str) -> None:
    assert _ml(text) == []


def test_english_chat_stays_with_the_english_model() -> None:
    (found,) = MlScorer().detect(chat("you are a stupid bitch"), TtlState())
    assert "language" not in found.evidence.measures
    assert found.evidence.measures["model_version"] == "chat_scorer-3"


def test_the_multilingual_route_can_be_turned_off() -> None:
    text = "du bist so ein dummer Vollidiot, lern endlich spielen"
    assert all(
        f.evidence.measures.get("language") is None
        for f in MlScorer(multilingual=False).detect(chat(text), TtlState())
    )


@pytest.mark.parametrize(
    ("text", "language", "aimed"),
    [
        ("du bist ein idiot", "de", True),
        ("@anna idiot", "de", True),
        ("salaksın", "tr", True),
        ("sois unos mancos", "es", True),
        ("jesteście bandą idiotów", "pl", True),
        ("was für ein mist", "de", False),
        ("es un idiota", "es", False),  # "es" is "is" in Spanish, "you are" only in Portuguese
    ],
)
def test_aim_is_read_per_language(text: str, language: str, aimed: bool) -> None:
    assert addressed(text, language) is aimed


def test_a_short_line_about_its_speaker_is_theirs() -> None:
    assert about_the_speaker("dumm gespielt von mir", "de")
    assert not about_the_speaker("du hast dumm gespielt", "de")
    long_post = "eu odeio esse governo de merda e todos os corruptos que votaram nele ontem"
    assert not about_the_speaker(long_post, "pt")


def test_shipped_model_is_plain_arrays_under_the_size_limit() -> None:
    npz = MODELS / "multilingual_scorer.npz"
    assert npz.stat().st_size < 20_000_000
    with np.load(npz, allow_pickle=False) as arrays:
        assert set(arrays.files) == {"weights", "intercept"}
        assert arrays["weights"].dtype == np.float16
    manifest = json.loads((MODELS / "multilingual_scorer.json").read_text())
    assert set(manifest["languages"]) == {"de", "pt", "ru", "tr", "shared"}
    assert manifest["training"]["seed"] == 13
    for language in ("de", "pt", "ru", "tr"):
        report = manifest["metrics"][language]["report"]
        assert report["rows"] > 100 and 0.0 < report["f1"] < 1.0
    model = multilingual_model_at("")
    assert model.trained == frozenset({"de", "pt", "ru", "tr"})
    assert model.head_for("es") == "shared" and model.head_for("de") == "de"


def test_a_model_file_that_needs_pickle_is_refused(tmp_path: Path) -> None:
    np.savez(tmp_path / "multilingual_scorer.npz", weights=np.array([{}], dtype=object))
    (tmp_path / "multilingual_scorer.json").write_text(
        (MODELS / "multilingual_scorer.json").read_text()
    )
    with pytest.raises(MultilingualModelError, match="cannot load"):
        load_multilingual(
            tmp_path / "multilingual_scorer.npz", tmp_path / "multilingual_scorer.json"
        )


def test_a_model_whose_arrays_do_not_match_is_refused(tmp_path: Path) -> None:
    np.savez(tmp_path / "m.npz", weights=np.zeros(10, dtype=np.float16), intercept=np.zeros(1))
    (tmp_path / "m.json").write_text((MODELS / "multilingual_scorer.json").read_text())
    with pytest.raises(MultilingualModelError, match="10 weights"):
        load_multilingual(tmp_path / "m.npz", tmp_path / "m.json")
