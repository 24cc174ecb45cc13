"""The multilingual chat model at run time: plain arrays in, a calibrated probability per
message and language out, in a few dictionary look-ups.

A message's margin is the intercept plus its words' margins (features are counts summed over
words, scaled by 1/sqrt(words): `multilingual_features`), and a word's margin under a language
is computed once, so repeated chat costs one look-up per word. The language picks the
calibration and threshold learnt for it on rows held out of its own file; a language without
rows uses the shared half of the weights and the shared calibration.
"""

from __future__ import annotations

import array
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from railbird.detectors.ml.multilingual_features import (
    N_BUCKETS,
    message_words,
    scale,
    word_buckets,
)

_WORDS_MAX = 300_000


class MultilingualModelError(ValueError):
    """The multilingual model files are missing, inconsistent, or not plain arrays."""


@dataclass(frozen=True, slots=True)
class LanguageHead:
    calibration_a: float
    calibration_b: float
    threshold: float


@dataclass(frozen=True, slots=True)
class Scored:
    """A message scored under one language: its probability, the head's threshold, and the
    words that pushed the margin up most."""

    language: str  # the head used: an annotated language, or "shared"
    probability: float
    threshold: float
    top_words: tuple[str, ...]

    @property
    def over(self) -> bool:
        return self.probability >= self.threshold


@dataclass(frozen=True, slots=True)
class MultilingualModel:
    weights: array.array[float] = field(repr=False)  # float32, one per bucket
    intercept: float
    heads: dict[str, LanguageHead]  # annotated language -> head; "shared" for the rest
    version: str
    # Lines of fewer words than `short_words` must also clear `short_threshold` (chosen on
    # the short calibration rows: the model learnt from tweets, and reads chat less surely).
    short_words: int
    short_threshold: float
    manifest: dict[str, Any] = field(repr=False)
    # (word, language) -> the word's margin, and the weight of the word itself (its whole-word
    # feature, without its letter pieces).
    _word_margins: dict[tuple[str, str], tuple[float, float]] = field(
        init=False, repr=False, default_factory=dict
    )

    @property
    def trained(self) -> frozenset[str]:
        """The languages with a head of their own."""
        return frozenset(self.heads) - {"shared"}

    def head_for(self, language: str) -> str:
        """The head a language is read with: its own if it has rows, else the shared one."""
        return language if language in self.heads and language != "shared" else "shared"

    def _word_margin(self, raw: str, key: str) -> tuple[float, float]:
        found = self._word_margins.get((raw, key))
        if found is None:
            weights = self.weights
            buckets = word_buckets(raw, key)
            whole = weights[buckets[0]] if buckets else 0.0
            if key and buckets:
                whole += weights[buckets[len(buckets) // 2]]
            found = (math.fsum(weights[b] for b in buckets), whole)
            if len(self._word_margins) < _WORDS_MAX:
                self._word_margins[(raw, key)] = found
        return found

    def probabilities_batch(self, texts: Sequence[str], language: str) -> list[float]:
        """Calibrated probabilities of many messages of one language, without evidence: how a
        backlog is scored. Equal to `score(...).probability` for each."""
        head_name = self.head_for(language)
        key = "" if head_name == "shared" else head_name
        head = self.heads[head_name]
        a, b, intercept = head.calibration_a, head.calibration_b, self.intercept
        margin_of, known = self._word_margin, self._word_margins
        out = []
        for text in texts:
            words = message_words(text)
            total = sum([(known.get((raw, key)) or margin_of(raw, key))[0] for raw in words])
            margin = intercept + scale(len(words)) * total
            out.append(1.0 / (1.0 + math.exp(min(a * margin + b, 700.0))))
        return out

    def forget_words(self) -> None:
        """Drop the per-word margins learnt so far (benchmarks of first sightings)."""
        self._word_margins.clear()

    def score(self, text: str, language: str, top: int = 3) -> Scored:
        head_name = self.head_for(language)
        key = "" if head_name == "shared" else head_name
        words = message_words(text)
        pairs = [self._word_margin(raw, key) for raw in words]
        margins = [m for m, _ in pairs]
        margin = self.intercept + scale(len(words)) * sum(margins)
        head = self.heads[head_name]
        z = head.calibration_a * margin + head.calibration_b
        probability = 1.0 / (1.0 + math.exp(min(z, 700.0)))
        threshold = head.threshold
        if len(words) < self.short_words:
            threshold = max(threshold, self.short_threshold)
            # A short line flags only on a word the model learnt as a word, not on letter
            # pieces it shares with one ("scheibe", a slice, is five pieces of "scheiße").
            strongest = max(range(len(pairs)), key=lambda i: pairs[i][0], default=None)
            if strongest is None or pairs[strongest][1] <= 0:
                threshold = math.inf
        ranked = sorted(zip(margins, words, strict=True), key=lambda pair: -pair[0])
        named: list[str] = []
        for value, raw in ranked:
            if value <= 0 or len(named) >= top:
                break
            if raw not in named:
                named.append(raw)
        return Scored(head_name, probability, threshold, tuple(named))


def load_multilingual(npz_path: Path, manifest_path: Path) -> MultilingualModel:
    """Plain arrays only (`allow_pickle=False`); a file that needs pickle is refused."""
    try:
        manifest = json.loads(manifest_path.read_text())
        with np.load(npz_path, allow_pickle=False) as arrays:
            weights = np.asarray(arrays["weights"], dtype=np.float64)
            intercept = float(np.asarray(arrays["intercept"], dtype=np.float64)[0])
        heads = {
            name: LanguageHead(
                float(info["calibration_a"]), float(info["calibration_b"]), float(info["threshold"])
            )
            for name, info in manifest["languages"].items()
        }
        short_words = int(manifest["short_lines"]["words_below"])
        short_threshold = float(manifest["short_lines"]["threshold"])
    except (OSError, ValueError, KeyError, IndexError, TypeError) as exc:
        raise MultilingualModelError(f"cannot load multilingual model {npz_path}: {exc}") from exc
    if weights.shape != (N_BUCKETS,) or "shared" not in heads:
        raise MultilingualModelError(
            f"multilingual model {npz_path}: {weights.shape[0]} weights for {N_BUCKETS} buckets, "
            f"heads {sorted(heads)} (a 'shared' head is required)"
        )
    if not all(h.calibration_a < 0 for h in heads.values()):
        raise MultilingualModelError(
            f"multilingual model {npz_path}: calibration must increase with the margin"
        )
    flat = array.array("f", weights.astype(np.float32).tobytes())
    return MultilingualModel(
        flat,
        intercept,
        heads,
        str(manifest.get("version")),
        short_words,
        short_threshold,
        manifest,
    )


@cache
def multilingual_model_at(model_dir: str) -> MultilingualModel:
    """The model in `model_dir`, or the one shipped with railbird when it is empty."""
    if model_dir:
        base = Path(model_dir)
        return load_multilingual(
            base / "multilingual_scorer.npz", base / "multilingual_scorer.json"
        )
    package = resources.files("railbird.detectors.ml") / "models"
    with (
        resources.as_file(package / "multilingual_scorer.npz") as npz,
        resources.as_file(package / "multilingual_scorer.json") as meta,
    ):
        return load_multilingual(npz, meta)
