"""Hashed bag-of-words features for the chat model, shared by training and scoring.

Our own hashing (CRC-32 of "u:word" and "b:word word" into 2**18 buckets) rather than
scikit-learn's HashingVectorizer, so scoring one message needs no scikit-learn call at all and
the exact same function builds the training matrix. The weights file therefore holds numbers
for buckets, never training text.
"""

from __future__ import annotations

import itertools
import re
import zlib
from html import unescape

N_FEATURES = 2**18
FEATURE_SPEC = "crc32(u:tok | b:tok tok) & (2**18-1); binary; tokens [a-z0-9']+ after clean()"

_URL = re.compile(r"(?:https?://|www\.)\S+|\b[\w\-]+\.(?:com|net|org|biz|ly|co|uk)\S*")
_MENTION = re.compile(r"@\w+")
_NUMBER = re.compile(r"\d+")
_RUNS = re.compile(r"([a-z])\1{2,}")
_TOKEN = re.compile(r"[a-z0-9']+")
_cache: dict[str, int] = {}
_CACHE_MAX = 200_000


def clean(text: str) -> str:
    """Lower-case, entities decoded, links/mentions/numbers as placeholders, runs collapsed."""
    lowered = text.lower()
    if "&" in lowered:
        lowered = unescape(lowered)
    if "." in lowered or "/" in lowered:
        lowered = _URL.sub(" xxurl ", lowered)
    if "@" in lowered:
        lowered = _MENTION.sub(" xxuser ", lowered)
    lowered = _NUMBER.sub("0", lowered)
    return _RUNS.sub(r"\1\1", lowered)


def features(text: str) -> list[str]:
    """The feature strings of a message: its words and word pairs."""
    tokens = [t for t in (raw.strip("'") for raw in _TOKEN.findall(clean(text))) if t and t != "rt"]
    out = ["u:" + t for t in tokens]
    out += [f"b:{a} {b}" for a, b in itertools.pairwise(tokens)]
    return out


def bucket(feature: str) -> int:
    index = _cache.get(feature)
    if index is None:
        index = zlib.crc32(feature.encode("utf-8")) & (N_FEATURES - 1)
        if len(_cache) < _CACHE_MAX:
            _cache[feature] = index
    return index


def buckets(text: str) -> dict[int, str]:
    """Distinct buckets of a message, each with one feature that falls in it (for evidence)."""
    # `bucket` inlined: this loop is the largest share of the scorer's time per message.
    found: dict[int, str] = {}
    cached = _cache.get
    for feature in features(text):
        index = cached(feature)
        if index is None:
            index = bucket(feature)
        found[index] = feature
    return found
