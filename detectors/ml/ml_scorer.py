"""Scores chat with the trained linear model, a few microseconds a message.

Why not scikit-learn at run time: its per-call input validation costs milliseconds a message,
and unpickling a model file can run arbitrary code. The model is plain arrays (`np.load` with
`allow_pickle=False`) and a JSON manifest; scoring is a gather-and-sum over the message's hashed
buckets, then the sigmoid calibration fitted at training time. Tweets and SMS are not poker
chat, so each head only flags above a threshold chosen on held-out data for high precision, and
the evidence names the words that pushed the score up.

Why the hot path avoids numpy: a message touches 2-60 buckets, and each numpy call costs more
than summing them in Python. At load the non-zero weight rows become Python float tuples; the
sum runs row by row in the message's bucket order, exactly as numpy's axis-0 sum does, so the
margins are bit-identical. Only the calibration of a message that can pass a threshold calls
`np.exp` (its result differs from `math.exp` in the last bit), and evidence ties fall back to
`np.argsort`. Before any of that, a bound of one byte per bucket and head (`reach_bound`)
proves most chat unable to reach any threshold without reading the weights. Verdicts are
memoised per distinct text (table chat repeats a lot).
"""

from __future__ import annotations

import array
import itertools
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from scipy.sparse import csr_matrix

from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import (
    CATEGORIES,
    Category,
    Finding,
    Severity,
    message_finding,
)
from railbird.detectors.ml.features import (
    N_FEATURES,
    batch_buckets,
    buckets,
    feature_ids,
    feature_words,
    tokens,
    words,
)
from railbird.detectors.ml.multilingual_model import (
    MultilingualModel,
    Scored,
    multilingual_model_at,
)
from railbird.detectors.ml.reach_bound import MAX_IDS, K, reach_bound
from railbird.detectors.state import State
from railbird.detectors.text import language_id
from railbird.detectors.text.abuse_words import WEAK_INSULTS
from railbird.detectors.text.game_insults import GAME_WORDS
from railbird.detectors.text.multilingual_terms import about_the_speaker as speaks_of_self
from railbird.detectors.text.multilingual_terms import addressed

MODEL_VERSION = "chat_scorer-3"
# Toxic heads by precedence: one message gets at most one of these, the most severe.
TOXIC_PRECEDENCE = ("hate", "abusive")
_VERDICTS_MAX = 50_000
# The multilingual model's verdict per (text, language): bounded, cleared when full.
_other_verdicts: dict[tuple[str, str], Scored] = {}


# A text's distinct bucket count and its probabilities if a head could flag it, else (0, None).
Verdict = tuple[int, tuple[float, ...] | None]
_UNREACHABLE: Verdict = (0, None)


class ModelError(ValueError):
    """The model files are missing, inconsistent, or not plain arrays."""


@dataclass(frozen=True, slots=True)
class LinearModel:
    heads: tuple[str, ...]
    categories: tuple[Category, ...]
    weights: npt.NDArray[np.float32]  # (N_FEATURES, heads)
    intercepts: npt.NDArray[np.float64]
    cal_a: npt.NDArray[np.float64]
    cal_b: npt.NDArray[np.float64]
    thresholds: npt.NDArray[np.float64]
    manifest: dict[str, Any] = field(repr=False)
    # The margin below which a head's probability cannot reach its threshold (a slack of 1e-6
    # so rounding never hides a flag): p >= t  <=>  a*m + b <= log(1/t - 1), with a < 0.
    min_margins: npt.NDArray[np.float64] = field(init=False, repr=False)
    # Pure-Python views for the hot path: the weights row-major as float32 (a bucket's weights
    # share one cache line: the rows are read cold, so that beats a C-level gather per head),
    # and the per-head numbers as floats.
    flat: array.array[float] = field(init=False, repr=False)
    _heads: tuple[tuple[float, float, float, float], ...] = field(init=False, repr=False)
    threshold_values: tuple[float, ...] = field(init=False, repr=False)
    version: str = field(init=False, repr=False)
    # One byte per bucket and head (see `reach_bound`), and their largest per bucket: one pass
    # over that proves most chat, the per-head tables the rest.
    bound: tuple[bytes, ...] = field(init=False, repr=False)
    bound_any: bytes = field(init=False, repr=False)
    _verdicts: dict[str, Verdict] = field(init=False, repr=False)
    # The last text scored: its words, its features' buckets and the distinct buckets.
    _last: list[Any] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not (self.cal_a < 0).all():
            raise ModelError("chat model: calibration must increase with the score")
        limits = (np.log(1.0 / self.thresholds - 1.0) - self.cal_b) / self.cal_a - 1e-6
        object.__setattr__(self, "min_margins", limits)
        weights = np.ascontiguousarray(self.weights, dtype=np.float32)
        object.__setattr__(self, "flat", array.array("f", weights.tobytes()))
        per_head = zip(
            self.intercepts.tolist(),
            limits.tolist(),
            self.cal_a.tolist(),
            self.cal_b.tolist(),
            strict=True,
        )
        object.__setattr__(self, "_heads", tuple(per_head))
        object.__setattr__(self, "threshold_values", tuple(self.thresholds.tolist()))
        object.__setattr__(self, "version", str(self.manifest.get("version")))
        tables = reach_bound(weights, self.intercepts, limits)
        object.__setattr__(self, "bound", tables)
        stacked = np.frombuffer(b"".join(tables), dtype=np.uint8).reshape(len(tables), -1)
        object.__setattr__(self, "bound_any", stacked.max(axis=0).tobytes())
        object.__setattr__(self, "_verdicts", {})
        object.__setattr__(self, "_last", [None, [], [], []])

    def verdict(self, text: str) -> Verdict:
        """The bucket count, and calibrated probabilities only if some head can reach its
        threshold (most messages are far below every one: no calibration for them)."""
        known = self._verdicts.get(text)
        if known is not None:
            return known
        if len(self._verdicts) >= _VERDICTS_MAX:
            self._verdicts.clear()
        entries = words(text)
        raw = feature_ids(entries)
        if len(raw) <= MAX_IDS and (
            sum(map(self.bound_any.__getitem__, raw)) < K
            or all(sum(map(q.__getitem__, raw)) < K for q in self.bound)
        ):
            self._verdicts[text] = _UNREACHABLE
            return _UNREACHABLE
        ids = raw if len(set(raw)) == len(raw) else list(dict.fromkeys(raw))
        self._last[:] = [text, entries, raw, ids]
        # Every bucket's row, added in bucket order: numpy's axis-0 sum, bit for bit.
        flat, heads = self.flat, self._heads
        if len(heads) == 3:
            s0 = s1 = s2 = 0.0
            for b in ids:
                i = 3 * b
                s0 += flat[i]
                s1 += flat[i + 1]
                s2 += flat[i + 2]
            totals = [s0, s1, s2]
        else:
            totals = [0.0] * len(heads)
            for b in ids:
                for h in range(len(heads)):
                    totals[h] += flat[len(heads) * b + h]
        margins = [t + head[0] for t, head in zip(totals, heads, strict=True)]
        reachable = False
        for margin, head in zip(margins, heads, strict=True):
            if margin >= head[1]:
                reachable = True
        probabilities = None
        if reachable:
            z = [m * head[2] + head[3] for m, head in zip(margins, self._heads, strict=True)]
            probabilities = tuple([1.0 / (1.0 + e) for e in np.exp(z).tolist()])
        verdict = (len(ids), probabilities)
        self._verdicts[text] = verdict
        return verdict

    def top_features(self, text: str, head: int, count: int) -> list[str]:
        """The words that pushed `head` up most, largest first, as numpy's argsort orders them."""
        last_text, entries, raw, ids = self._last
        if last_text != text:
            entries = words(text)
            raw = feature_ids(entries)
            ids = list(dict.fromkeys(raw))
        flat, heads = self.flat, len(self._heads)
        weights = [flat[heads * b + head] for b in ids]
        # stable, so equal weights keep bucket order; numpy's sort is not, hence the check
        order = sorted(range(len(weights)), key=weights.__getitem__, reverse=True)
        head_weights = [weights[j] for j in order[: count + 1] if weights[j] > 0]
        if len(set(head_weights)) < len(head_weights):
            # Equal weights (words seen only together in training) touch the top: ask numpy.
            contributions = np.array(weights, dtype=np.float32)
            order = np.argsort(-contributions)[:count].tolist()
        chosen = [ids[j] for j in order[:count] if weights[j] > 0]
        named = feature_words(entries)
        names: list[str] = []
        for bucket in chosen:
            k = len(raw) - 1 - raw[::-1].index(bucket)  # a bucket is named by its last feature
            if named[k] not in names:
                names.append(named[k])
        return names

    def margins(self, indices: list[int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
        """Linear scores per head, and the per-bucket contributions."""
        rows = self.weights.take(indices, axis=0)
        return rows.sum(axis=0, dtype=np.float64) + self.intercepts, rows

    def calibrate(self, margin: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        return 1.0 / (1.0 + np.exp(self.cal_a * margin + self.cal_b))

    def scores(self, indices: list[int]) -> tuple[npt.NDArray[np.float64], npt.NDArray[Any]]:
        """Calibrated probabilities per head, and the per-bucket contributions."""
        margin, rows = self.margins(indices)
        return self.calibrate(margin), rows

    def probability_without(self, text: str, head: int, left_out: frozenset[str]) -> float:
        """`head`'s probability for `text` with every feature that holds a word of `left_out`
        taken away: what the rest of the message says on its own."""
        kept = [b for b, name in buckets(text).items() if left_out.isdisjoint(name[2:].split())]
        margin = self.intercepts[head] + float(self.weights[kept, head].sum(dtype=np.float64))
        return float(1.0 / (1.0 + np.exp(self.cal_a[head] * margin + self.cal_b[head])))

    def probabilities_batch(self, texts: Sequence[str]) -> npt.NDArray[np.float64]:
        """Calibrated probabilities (one row per message, one column per head) of many messages
        in one sparse product: how a backlog or a corpus is scored, where the per-message sums
        of `verdict` would dominate. Equal to `probabilities` up to float32 rounding."""
        indices, indptr = batch_buckets(texts)
        x = csr_matrix(
            (np.ones(len(indices), dtype=np.float32), indices, indptr),
            shape=(len(texts), N_FEATURES),
        )
        x.sum_duplicates()  # features are binary: a bucket met twice counts once
        x.data.fill(1.0)
        margins = np.asarray(x @ self.weights, dtype=np.float64) + self.intercepts
        return self.calibrate(margins)

    def probabilities(self, text: str) -> dict[str, float]:
        found = buckets(text)
        probs, _ = self.scores(list(found))
        return {h: float(p) for h, p in zip(self.heads, probs, strict=True)}


def load_model(npz_path: Path, manifest_path: Path) -> LinearModel:
    """Load plain arrays only; a file that needs pickle is refused, not trusted."""
    try:
        manifest = json.loads(manifest_path.read_text())
        with np.load(npz_path, allow_pickle=False) as arrays:
            weights = np.ascontiguousarray(arrays["weights"].T, dtype=np.float32)
            intercepts = np.asarray(arrays["intercepts"], dtype=np.float64)
    except (OSError, ValueError, KeyError) as exc:
        raise ModelError(f"cannot load chat model {npz_path}: {exc}") from exc
    heads = tuple(manifest["heads"])
    if weights.shape != (N_FEATURES, len(heads)) or intercepts.shape != (len(heads),):
        raise ModelError(f"chat model {npz_path}: arrays do not match the manifest's heads")
    info = [manifest["head_info"][h] for h in heads]
    categories = tuple(i["category"] for i in info)
    if any(c not in CATEGORIES for c in categories):
        raise ModelError(f"chat model {npz_path}: unknown category in {categories}")
    return LinearModel(
        heads=heads,
        categories=categories,
        weights=weights,
        intercepts=intercepts,
        cal_a=np.array([i["calibration_a"] for i in info]),
        cal_b=np.array([i["calibration_b"] for i in info]),
        thresholds=np.array([i["threshold"] for i in info]),
        manifest=manifest,
    )


@cache
def _model_at(model_dir: str) -> LinearModel:
    if model_dir:
        base = Path(model_dir)
        return load_model(base / "chat_scorer.npz", base / "chat_scorer.json")
    package = resources.files("railbird.detectors.ml") / "models"
    with (
        resources.as_file(package / "chat_scorer.npz") as npz,
        resources.as_file(package / "chat_scorer.json") as meta,
    ):
        return load_model(npz, meta)


# Words that insult only when aimed at someone: the game-chat tier and the weak insults, which
# the lexical detectors read with their aim ("trash hand" is poker, "you trash" is not).
AIM_DEPENDENT = GAME_WORDS | WEAK_INSULTS

# The speaker as the subject of what is said ("i'm such an idiot", "my bad", "stupid me").
# "I am" in the room's other languages too ("soy un idiota", "jestem debil"): the abusive head
# learnt English, and its character slices now read "idiota" as "idiot".
_SELF_WORDS = frozenset(
    {"i'm", "im", "myself", "i've", "ive", "soy", "sou", "jestem", "jsem", "suis"}
)
_SELF_PAIRS = frozenset(
    {("i", "am"), ("my", "bad"), ("from", "me"), ("stupid", "me"), ("ich", "bin"), ("io", "sono")}
)
_SOMEONE_ELSE = frozenset(
    {"you", "u", "ur", "your", "you're", "youre", "ya", "yours", "yourself", "he", "she", "him"}
    | {"her", "his", "they", "them", "their", "he's", "she's", "they're"}
    # other languages' "you" (tokens are ASCII: "jesteś" reads "jeste", "você" reads "voc")
    | {"eres", "tu", "te", "bist", "du", "dich", "ty", "jestes", "jeste", "jsi", "sei", "toi"}
    | {"vous", "voce", "voc", "vc", "sen", "seni", "they're", "sono"}
)
# A single question about the reader ("did you subscribe to the sunday series alerts?"): table
# talk, not a pitch, whatever words it shares with one. A pitch that asks ("do you want to win
# 1000? call ...") goes on past its question, or carries a number or a link.
_QUESTION_TO_THE_READER = re.compile(
    r"\s*(?:did|do|does|have|has|are|is|can|could|would|will|were)\s+(?:you|u|ya)\b"
    r"[^.!?\d/@]*\?\s*",
    re.I,
)


def about_the_speaker(text: str) -> bool:
    """Self-deprecation ("I'm such an idiot for calling", "my bad, idiot move from me"): a
    message whose subject is its speaker, naming nobody else, insults nobody, whatever its
    words; the abusive head's bag of words cannot see that, so its flags on such messages are
    dropped. Hate is not gated ("I hate all X" names the speaker too)."""
    found = tokens(text)
    seen = set(found)
    if not seen.isdisjoint(_SOMEONE_ELSE):
        return False
    return not seen.isdisjoint(_SELF_WORDS) or any(
        pair in _SELF_PAIRS for pair in itertools.pairwise(found)
    )


@dataclass(frozen=True, slots=True)
class MlScorer:
    name: ClassVar[str] = "ml_scorer"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    # Directory with chat_scorer.npz/.json; empty means the model shipped with railbird.
    model_dir: str = ""
    # The abusive head never flags below this probability, whatever the model's threshold says
    # (a model trained elsewhere may carry a lower one); the hate and spam heads flag at their
    # thresholds, tuned for a stated precision on rarer positives.
    min_probability: float = 0.5
    min_tokens: int = 2
    top_features: int = 3
    # Messages in another language go to the multilingual model (`multilingual_model`),
    # which reads any script and knows each annotated language's meaning; the English model
    # read them as ASCII scraps and fired on names and placeholders.
    multilingual: bool = True
    multilingual_dir: str = ""

    def __post_init__(self) -> None:
        self.model()  # load at start-up: a bad model fails here, not on the first message
        if self.multilingual:
            self.multilingual_model()
            language_id.warm()

    def model(self) -> LinearModel:
        return _model_at(self.model_dir)

    def multilingual_model(self) -> MultilingualModel:
        return multilingual_model_at(self.multilingual_dir)

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or len(event.text) < 4:
            return []
        if self.multilingual:
            language = language_id.likely_language(event.text, self.multilingual_model().trained)
            if language and language != "en":
                return self._other_language(event, language)
        model = _model_at(self.model_dir)
        # The memo lookup `verdict` starts with, inline: most messages end here.
        count, probs = model._verdicts.get(event.text) or model.verdict(event.text)
        if probs is None or count < self.min_tokens:
            return []
        heads = model.heads
        floor = self.min_probability
        over = [
            p >= t and (head != "abusive" or p >= floor)
            for p, t, head in zip(probs, model.threshold_values, heads, strict=True)
        ]
        if not any(over):
            return []
        if "abusive" in heads and over[heads.index("abusive")]:
            over[heads.index("abusive")] = self._abusive_stands(model, event.text)
        if "spam" in heads and over[heads.index("spam")]:
            over[heads.index("spam")] = not _QUESTION_TO_THE_READER.fullmatch(event.text)
        chosen = [i for i, head in enumerate(heads) if over[i] and head == "spam"]
        for head in TOXIC_PRECEDENCE:
            if head in heads and over[heads.index(head)]:
                chosen.append(heads.index(head))
                break
        return [self._finding(event, model, i, probs[i]) for i in chosen]

    def _other_language(self, event: ChatEvent, language: str) -> list[Finding]:
        """A message in another language, read by the multilingual model under the head of
        its language. What the model cannot see, the reading of the words can: abuse spoken to
        someone (a second person, a mention) is harassment, abuse at nobody is profanity, low,
        and a line about its speaker alone insults nobody."""
        text = event.text
        key = (text, language)
        scored = _other_verdicts.get(key)
        if scored is None:
            scored = self.multilingual_model().score(text, language, self.top_features)
            if len(_other_verdicts) >= _VERDICTS_MAX:
                _other_verdicts.clear()
            _other_verdicts[key] = scored
        if not scored.over or len(scored.top_words) == 0:
            return []
        aimed = addressed(text, language)
        if not aimed and (
            about_the_speaker(text) or speaks_of_self(text, language, scored.top_words[0])
        ):
            return []
        return [self._other_finding(event, language, scored, aimed)]

    def _other_finding(
        self, event: ChatEvent, language: str, scored: Scored, aimed: bool
    ) -> Finding:
        category: Category = "harassment" if aimed else "profanity"
        severity: Severity = "medium" if aimed else "low"
        where = "aimed at someone" if aimed else "at nobody"
        return message_finding(
            event,
            detector=self.name,
            category=category,
            severity=severity,
            score=round(scored.probability, 4),
            kind="ml_score",
            summary=(
                f"multilingual model scores {scored.probability:.2f} offensive in language "
                f"'{language}' (head {scored.language}, threshold {scored.threshold:.2f}), "
                f"{where}; top words: {', '.join(scored.top_words)}"
            ),
            measures={
                "probability": round(scored.probability, 4),
                "threshold": round(scored.threshold, 4),
                "head": scored.language,
                "language": language,
                "directed": aimed,
                "top_features": list(scored.top_words),
                "model_version": self.multilingual_model().version,
            },
        )

    def _abusive_stands(self, model: LinearModel, text: str) -> bool:
        """Whether the abusive head's flag stands once what its words cannot see is accounted
        for: a message about its speaker alone insults nobody, and a word that insults only
        when aimed at someone ("noob", "trash", "bot": `AIM_DEPENDENT`) is the lexical
        detectors' to read with its aim; the head flags only if the rest of the message is
        abusive without it ("noob question" is not, "shut up you noob" is)."""
        if about_the_speaker(text):
            return False
        aimed = AIM_DEPENDENT.intersection(tokens(text))
        if not aimed:
            return True
        head = model.heads.index("abusive")
        rest = model.probability_without(text, head, frozenset(aimed))
        return rest >= model.threshold_values[head] and rest >= self.min_probability

    def _finding(
        self, event: ChatEvent, model: LinearModel, head: int, probability: float
    ) -> Finding:
        top = model.top_features(event.text, head, self.top_features)
        threshold = model.threshold_values[head]
        severity: Severity = "medium" if probability >= (1 + threshold) / 2 else "low"
        category = model.categories[head]
        return message_finding(
            event,
            detector=self.name,
            category=category,
            severity=severity,
            score=round(probability, 4),
            kind="ml_score",
            summary=(
                f"model scores {probability:.2f} for {category} (threshold {threshold:.2f}); "
                f"top words: {', '.join(top) or 'none'}"
            ),
            measures={
                "probability": round(probability, 4),
                "threshold": round(threshold, 4),
                "head": model.heads[head],
                "top_features": top,
                "model_version": model.version,
            },
        )
