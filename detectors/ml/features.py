"""Hashed bag-of-words features for the chat model, shared by training and scoring.

Our own hashing (CRC-32 of "u:word", "b:word word" and "c:" + each four-letter slice of
"<word>" into 2**18 buckets) rather than
scikit-learn's HashingVectorizer, so scoring one message needs no scikit-learn call at all and
the exact same function builds the training matrix. The weights file therefore holds numbers
for buckets, never training text.

The buckets are the shipped model's vocabulary, so the definition never changes within a model
version: `clean` then `[a-z0-9']+` tokens, quotes stripped, "rt" dropped. The character slices
(tokens of three characters or more, padded with "<" and ">") are there for the words a word list
never saw: "noobs", "trashy", "uninstal", "fuking" share slices with the words it did see, so
an insult's inflections and misspellings score like the insult.

Only the work is arranged for speed: digit runs and letter runs sit inside tokens (ASCII digits
and letters are token characters, so replacing them never moves a token boundary), so both
rewrites happen once per distinct token, memoised, instead of two regex passes over every
message. Text with Unicode digits (which are not token characters) still gets the string-wide
digit pass first. tests/detectors/test_ml_features.py pins buckets and compares with a frozen
copy of the original on every corpus row.
"""

from __future__ import annotations

import array
import itertools
import operator
import re
import zlib
from collections.abc import Sequence
from html import unescape

import numpy as np
import numpy.typing as npt

from railbird.detectors.text.bidi import RLO, visual_order

N_FEATURES = 2**18
FEATURE_SPEC = (
    "crc32(u:tok | b:tok tok | c:4-char slice of <tok>, tok of 3+ chars) & (2**18-1); binary; "
    "tokens [a-z0-9']+ after clean()"
)
# Shortest word whose character slices are features, and the slice length.
_SLICED_FROM = 3
_SLICE = 4

_URL = re.compile(r"(?:https?://|www\.)\S+|\b[\w\-]+\.(?:com|net|org|biz|ly|co|uk)\S*")
_MENTION = re.compile(r"@\w+")
_NUMBER = re.compile(r"\d+")
_RUNS = re.compile(r"([a-z])\1{2,}")
_TOKEN = re.compile(r"[a-z0-9']+")
# `_TOKEN.findall` as a byte table: every byte that is not a token character becomes a space,
# then `bytes.split()`; the same tokens, in C, faster (as `text.normalise.ascii_tokens`:
# docs/design-numbers.md).
_TOKEN_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyz0123456789'")
_SEPARATE = bytes(c if c in _TOKEN_BYTES else 32 for c in range(256))
_cache: dict[str, int] = {}
_CACHE_MAX = 200_000
# raw token -> (final token, its unigram bucket, its UTF-8 bytes, CRC-32 of "b:token ", the
# buckets of its character slices), or _DROPPED. Words repeat, so this is nearly always a hit;
# a word pair's bucket is then one `zlib.crc32(second, first's prefix CRC)` call, with no string
# built and no cache to miss.
Word = tuple[str, int, bytes, int, tuple[int, ...]]
_words: dict[bytes, Word] = {}
_WORDS_MAX = 200_000
_DROPPED: Word = ("", -1, b"", 0, ())
_MASK = N_FEATURES - 1
_ZERO: Word = ("0", zlib.crc32(b"u:0") & _MASK, b"0", zlib.crc32(b"b:0 "), ())


def slices(token: str) -> list[str]:
    """The character slices of one word that are features ("<noo", "noob", "oob>")."""
    if len(token) < _SLICED_FROM:
        return []
    padded = f"<{token}>"
    return [padded[i : i + _SLICE] for i in range(len(padded) - _SLICE + 1)]


def _slice_buckets(token: str) -> tuple[int, ...]:
    return tuple(zlib.crc32(("c:" + s).encode("ascii")) & _MASK for s in slices(token))


def _may_link(lowered: str) -> bool:
    """A necessary condition for _URL: a scheme or "www.", or a dot before a listed TLD."""
    return (
        "http" in lowered
        or "www." in lowered
        or ".c" in lowered
        or ".n" in lowered
        or ".o" in lowered
        or ".b" in lowered
        or ".l" in lowered
        or ".u" in lowered
    )


def _links_and_mentions(text: str) -> str:
    lowered = (visual_order(text) if RLO in text else text).lower()
    if "&" in lowered:
        lowered = unescape(lowered)
    if ("." in lowered or "/" in lowered) and _may_link(lowered):
        lowered = _URL.sub(" xxurl ", lowered)
    if "@" in lowered:
        lowered = _MENTION.sub(" xxuser ", lowered)
    return lowered


def clean(text: str) -> str:
    """Lower-case, entities decoded, links/mentions/numbers as placeholders, runs collapsed."""
    return _RUNS.sub(r"\1\1", _NUMBER.sub("0", _links_and_mentions(text)))


def _word(raw: bytes) -> Word:
    if raw.isdigit():  # chip counts and the like: all the same word, never worth caching
        return _ZERO
    token = raw.decode("ascii")
    if not raw.isalpha():  # digits (or quotes) inside
        token = _NUMBER.sub("0", token)
    if len(set(token)) <= len(token) - 2:  # room for a run of three
        token = _RUNS.sub(r"\1\1", token)
    token = token.strip("'")
    entry = _DROPPED
    if token not in ("", "rt"):
        encoded = token.encode("ascii")
        unigram = zlib.crc32(b"u:" + encoded) & _MASK
        entry = (
            token,
            unigram,
            encoded,
            zlib.crc32(b"b:" + encoded + b" "),
            _slice_buckets(token),
        )
    if len(_words) < _WORDS_MAX:
        _words[raw] = entry
    return entry


def words(text: str) -> list[Word]:
    """The message's words after `clean`, quotes stripped, "rt" dropped, with their hashes."""
    lowered = _links_and_mentions(text)
    if lowered.isascii():
        encoded = lowered.encode("ascii")
    else:
        # Unicode digits become the token "0"; other non-ASCII (as UTF-8 bytes, a lone
        # surrogate as "?") only ever separates tokens, like any non-token character.
        encoded = _NUMBER.sub("0", lowered).encode("utf-8", "replace")
    known = _words.get
    entries = [known(raw) or _word(raw) for raw in encoded.translate(_SEPARATE).split()]
    if _DROPPED in entries:
        return [e for e in entries if e is not _DROPPED]
    return entries


def tokens(text: str) -> list[str]:
    return [entry[0] for entry in words(text)]


def features(text: str) -> list[str]:
    """The feature strings of a message: its words, word pairs and words' character slices."""
    found = tokens(text)
    out = ["u:" + t for t in found]
    out += [f"b:{a} {b}" for a, b in itertools.pairwise(found)]
    out += ["c:" + s for t in found for s in slices(t)]
    return out


def feature_ids(entries: list[Word]) -> list[int]:
    """The bucket of each feature of `features` (unigrams, pairs, then slices), repeats
    included."""
    ids = [entry[1] for entry in entries]
    if len(entries) > 1:
        crc = zlib.crc32
        ids += [crc(b[2], a[3]) & _MASK for a, b in itertools.pairwise(entries)]
    ids.extend(itertools.chain.from_iterable([entry[4] for entry in entries]))
    return ids


def batch_buckets(texts: Sequence[str]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Every message's buckets as CSR `indices` and `indptr`, repeats included (the caller
    sums duplicates away): `bucket_ids` for a backlog, with no Python loop over a message's
    features. Pair buckets go in unmasked and are masked in numpy, once."""
    out = array.array("I")
    indptr = array.array("q", [0])
    crc = zlib.crc32
    unigram, encoded, prefix, sliced = (operator.itemgetter(i) for i in range(1, 5))
    for text in texts:
        entries = words(text)
        out.extend(map(unigram, entries))
        if len(entries) > 1:
            out.extend(map(crc, map(encoded, entries[1:]), map(prefix, entries)))
        out.extend(itertools.chain.from_iterable(map(sliced, entries)))
        indptr.append(len(out))
    indices = np.frombuffer(out, dtype=np.uint32).astype(np.int64) & _MASK
    return indices, np.frombuffer(indptr, dtype=np.int64)


def feature_words(entries: list[Word]) -> list[str]:
    """The words behind each feature of `feature_ids`, in its order: a word for a unigram or
    a slice of it, "first second" for a pair. How evidence names a bucket."""
    names = [entry[0] for entry in entries]
    names += [f"{a[0]} {b[0]}" for a, b in itertools.pairwise(entries)]
    for entry in entries:
        names += [entry[0]] * len(entry[4])
    return names


def bucket_ids(text: str) -> list[int]:
    """`list(buckets(text))` without the feature names: all the scorer needs, and cheaper."""
    ids = feature_ids(words(text))
    return list(dict.fromkeys(ids)) if len(set(ids)) < len(ids) else ids


def bucket(feature: str) -> int:
    index = _cache.get(feature)
    if index is None:
        index = zlib.crc32(feature.encode("utf-8")) & (N_FEATURES - 1)
        if len(_cache) < _CACHE_MAX:
            _cache[feature] = index
    return index


def buckets(text: str) -> dict[int, str]:
    """Distinct buckets of a message, each with one feature that falls in it (for evidence).

    A slice is named by its word ("c:noob" for "<noo"), so leaving a word out of a message
    (`LinearModel.probability_without`) leaves out its slices too."""
    entries = words(text)
    names = ["u:" + entry[0] for entry in entries]
    names += [f"b:{a[0]} {b[0]}" for a, b in itertools.pairwise(entries)]
    for entry in entries:
        names += ["c:" + entry[0]] * len(entry[4])
    return dict(zip(feature_ids(entries), names, strict=True))
