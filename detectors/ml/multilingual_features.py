# ruff: noqa: RUF002
# (Turkish dotless i and Cyrillic in the examples are the point.)
"""Hashed features of chat in any script, for the multilingual model; shared by training and
scoring.

The English model reads `[a-z0-9']` tokens only, so Cyrillic, Greek, Turkish or Polish letters
were invisible to it and German or Turkish text scored on whatever ASCII pieces were left
(names, `@USER` placeholders). Here a word is any run of Unicode letters and digits, read the
way the lexical tier reads it (`text.multilingual_reading.read_word`: one script per word,
leetspeak inside words, stretched letters cut, accents dropped), and each word gives its own
features: the word itself and the character 3- to 5-grams of `<word>`, so inflections,
compounds and misspellings ("Vollidioten", "salaksın", "заебали") share pieces with the forms
seen in training.

Each feature is hashed twice: once shared by every language and once under the message's
language (Daumé's feature augmentation), so one weight vector holds what insults look like
everywhere and what each annotated language adds or takes away; a language with no training
rows is read with the shared half alone. Features are counts summed over words, so a message's
margin is the sum of its words' margins, and a word's margin is computed once per process
(`word_buckets` is memoised): scoring a message is a few dictionary look-ups.
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib

from railbird.detectors.text.multilingual_reading import read_word

N_BUCKETS = 2**21
_MASK = N_BUCKETS - 1
FEATURE_SPEC = (
    "per word (Unicode letters/digits, read as the lexical tier reads it): w:<form> and "
    "g:<3..5-gram of <plain>>, each hashed shared (crc32) and per language (crc32 of "
    "'<lang>|' + feature) into 2**21 buckets; counts summed over words, scaled by "
    "1/sqrt(words)"
)
_NGRAMS = (3, 4, 5)
_LINK = re.compile(r"(?:https?://|www\.)\S+|\b[\w\-]+\.(?:com|net|org|ly|co|br|de|ru|tr)\b\S*")
_MENTION = re.compile(r"@\w+")
_TOKEN = re.compile(r"[^\W_]+(?:[@$!*]+[^\W_]+)*")
# Soft hyphen, zero-width and direction marks: one C-level pass (str.translate with a table
# walks the string in Python-level steps, several µs a tweet).
_INVISIBLE = re.compile("[\u00ad\u200b-\u200f\u2060\ufeff]")
# Placeholders: every link is one word, every mention another, every number a third.
LINK, MENTION, NUMBER = "xxlink", "xxuser", "0"
_WORDS_MAX = 300_000
_word_cache: dict[tuple[str, str], tuple[int, ...]] = {}


def message_words(text: str) -> list[str]:
    """The words of `text` as typed (lower case), links and mentions as placeholders."""
    if text.isascii():
        cleaned = text.lower()
    else:
        cleaned = _INVISIBLE.sub("", unicodedata.normalize("NFKC", text)).lower()
    if "http" in cleaned or "www." in cleaned or "." in cleaned:
        cleaned = _LINK.sub(f" {LINK} ", cleaned)
    if "@" in cleaned:
        cleaned = _MENTION.sub(f" {MENTION} ", cleaned)
    return _TOKEN.findall(cleaned)


def _features(raw: str) -> list[str]:
    if raw in (LINK, MENTION):
        return ["w:" + raw]
    if raw.isdigit():
        return ["w:" + NUMBER]
    word = read_word(raw)
    if word is None:
        return []
    out = ["w:" + word.form]
    padded = f"<{word.plain}>"
    for n in _NGRAMS:
        out.extend("g:" + padded[i : i + n] for i in range(len(padded) - n + 1))
    return out


def word_buckets(raw: str, language: str) -> tuple[int, ...]:
    """The buckets of one word's features: shared, and under `language` unless it is empty.
    Repeats are kept (features are counts)."""
    key = (raw, language)
    found = _word_cache.get(key)
    if found is not None:
        return found
    names = _features(raw)
    shared = [zlib.crc32(n.encode("utf-8")) & _MASK for n in names]
    if language:
        prefix = zlib.crc32(f"{language}|".encode())
        shared += [zlib.crc32(n.encode("utf-8"), prefix) & _MASK for n in names]
    result = tuple(shared)
    if len(_word_cache) < _WORDS_MAX:
        _word_cache[key] = result
    return result


def forget_words() -> None:
    """Drop the words hashed so far (benchmarks of first sightings)."""
    _word_cache.clear()


def message_buckets(words: list[str], language: str) -> list[int]:
    """Every bucket of a message's words, repeats kept (counts). Word pairs were tried
    (`docs/model-card.md`) and left out."""
    out: list[int] = []
    for raw in words:
        out.extend(word_buckets(raw, language))
    return out


def scale(n_words: int) -> float:
    """Why scaled: a long tweet would otherwise add up to a large margin from many faintly
    positive pieces; 1/sqrt(words) keeps a ten-word line and a forty-word post comparable."""
    return 1.0 / math.sqrt(max(n_words, 1))
