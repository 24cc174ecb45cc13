"""The buckets a message maps to are the shipped model's vocabulary: they must never drift
within a model version (these pin `chat_scorer-3`'s: words, word pairs, character slices).

`chat_scorer.npz` holds one weight row per bucket, so a change in cleaning, tokenising or hashing
silently re-labels every weight. These tests pin a few messages' buckets exactly, and compare the
fast production features with a frozen copy of the original implementation over every corpus
row we have (poker chat, Davidson tweets, SMS), so an optimisation can never shift a bucket.
"""

from __future__ import annotations

import itertools
import re
import zlib
from html import unescape

import pytest

from railbird.detectors.ml.features import (
    N_FEATURES,
    batch_buckets,
    bucket_ids,
    buckets,
    features,
    tokens,
)
from tests.corpora import POKER_CHAT, csv_texts
from tests.paths import DATA

PINNED: dict[str, dict[int, str]] = {
    "nh": {
        147639: "u:nh",
    },
    "Nice hand 1500": {
        41308: "c:nice",
        42683: "b:hand 0",
        47412: "c:hand",
        123363: "c:hand",
        131173: "u:hand",
        177992: "c:hand",
        202564: "b:nice hand",
        209865: "c:nice",
        212303: "c:nice",
        213210: "u:nice",
        236924: "u:0",
    },
    "WINNER!! call 09061701461 www.prize.com now": {
        60828: "b:0 xxurl",
        73356: "c:winner",
        80261: "c:call",
        86088: "c:xxurl",
        91945: "b:winner call",
        95436: "c:xxurl",
        97068: "u:winner",
        101458: "c:call",
        118603: "b:call 0",
        121101: "c:winner",
        124754: "c:call",
        159188: "u:call",
        164551: "c:now",
        169368: "c:winner",
        174560: "c:xxurl",
        192813: "c:winner",
        193364: "c:winner",
        216756: "c:now",
        223423: "c:xxurl",
        226533: "b:xxurl now",
        236924: "u:0",
        244728: "u:xxurl",
        259514: "u:now",
    },
    "@bob you are sooooo stupid &amp; lame": {
        8547: "u:you",
        20225: "c:stupid",
        29989: "c:xxuser",
        39533: "c:you",
        57690: "c:xxuser",
        71137: "c:lame",
        79404: "c:lame",
        82186: "c:stupid",
        89551: "u:soo",
        95436: "c:xxuser",
        97302: "c:xxuser",
        103177: "b:are soo",
        104310: "u:xxuser",
        118448: "u:stupid",
        119841: "c:stupid",
        124609: "c:soo",
        136413: "c:are",
        151086: "c:lame",
        155870: "c:xxuser",
        167779: "c:you",
        169436: "c:soo",
        171851: "c:stupid",
        176083: "u:are",
        193639: "u:lame",
        209185: "c:stupid",
        210299: "b:you are",
        239668: "b:soo stupid",
        250465: "c:are",
        258823: "b:stupid lame",
        259583: "b:xxuser you",
    },
    'RT @x: l\'amour  "quoted" http://t.co/abc': {
        9133: "c:l'amour",
        14145: "c:l'amour",
        18110: "c:l'amour",
        19760: "b:l'amour quoted",
        29989: "c:xxuser",
        51316: "c:quoted",
        57690: "c:xxuser",
        71200: "u:quoted",
        74691: "c:l'amour",
        86088: "c:xxurl",
        95436: "c:xxurl",
        97302: "c:xxuser",
        104310: "u:xxuser",
        110083: "u:l'amour",
        155870: "c:xxuser",
        166374: "c:quoted",
        174560: "c:xxurl",
        182857: "b:xxuser l'amour",
        192888: "c:quoted",
        211866: "b:quoted xxurl",
        213520: "c:l'amour",
        221450: "c:quoted",
        223423: "c:xxurl",
        244728: "u:xxurl",
        250751: "c:quoted",
        256646: "c:l'amour",
    },
    "Ünïcödé ２３ café naïve": {
        14751: "b:n c",
        16239: "b:c d",
        27541: "u:caf",
        42067: "u:ve",
        53403: "c:caf",
        57743: "u:n",
        62068: "b:na ve",
        67729: "u:d",
        88627: "b:0 caf",
        105778: "u:c",
        113671: "b:d 0",
        153698: "b:caf na",
        194579: "u:na",
        218112: "c:caf",
        236924: "u:0",
    },
}


@pytest.mark.parametrize("text", list(PINNED))
def test_pinned_buckets_never_change(text: str) -> None:
    assert buckets(text) == PINNED[text]
    assert list(buckets(text)) == list(_reference_buckets(text))  # same order too
    assert bucket_ids(text) == list(_reference_buckets(text))


# --- a frozen copy of the original implementation: the definition of the model's features ---
_URL = re.compile(r"(?:https?://|www\.)\S+|\b[\w\-]+\.(?:com|net|org|biz|ly|co|uk)\S*")
_MENTION = re.compile(r"@\w+")
_NUMBER = re.compile(r"\d+")
_RUNS = re.compile(r"([a-z])\1{2,}")
_TOKEN = re.compile(r"[a-z0-9']+")


def _reference_features(text: str) -> list[str]:
    lowered = unescape(text.lower())
    lowered = _URL.sub(" xxurl ", lowered)
    lowered = _MENTION.sub(" xxuser ", lowered)
    lowered = _RUNS.sub(r"\1\1", _NUMBER.sub("0", lowered))
    raw = (t.strip("'") for t in _TOKEN.findall(lowered))
    tokens = [t for t in raw if t and t != "rt"]
    return [
        *("u:" + t for t in tokens),
        *(f"b:{a} {b}" for a, b in itertools.pairwise(tokens)),
        *(f"c:{t}:{s}" for t in tokens for s in _reference_slices(t)),
    ]


def _reference_slices(token: str) -> list[str]:
    padded = f"<{token}>"
    return [padded[i : i + 4] for i in range(len(padded) - 3)] if len(token) >= 3 else []


def _reference_buckets(text: str) -> dict[int, str]:
    """Bucket -> feature; a slice ("c:word:<wor") hashes as "c:<wor" and is named "c:word"."""
    found: dict[int, str] = {}
    for feature in _reference_features(text):
        if feature.startswith("c:"):
            _, word, piece = feature.split(":", 2)
            feature, name = "c:" + piece, "c:" + word
        else:
            name = feature
        found[zlib.crc32(feature.encode("utf-8")) & (N_FEATURES - 1)] = name
    return found


TRICKY = [
    "",
    "'",
    "''rt''",
    "RT rt Rt",
    "aaa",
    "AAAAaaaa",
    "1a1a1a111aaa",
    "x.com/a?b=1&c=2",
    "a.b.c.d",
    "see www.x.org.",
    "@@a @b_c.d",
    "&lt;3 &#39;yo&#39; &bogus; &amp",
    "ﬁne ß İstanbul",  # lower() changes length
    "٣٤ dígitos ５",
    "émoji 😂😂😂 ok",
    "O'Neil's  ''quoted''",
    "tab\tnew\nline",
    "a\ud800b c",  # a lone surrogate (JSON allows one) separates like any other character
    "x\x1cy\u00a0z\u2003w",
    "ǅemal İi KELVIN \u212a",
]


def test_fast_features_equal_the_frozen_reference_on_every_corpus_row() -> None:
    texts = [
        *TRICKY,
        *csv_texts(POKER_CHAT),
        *csv_texts(DATA / "davidson_train.csv"),
        *csv_texts(DATA / "sms_spam_train.csv"),
    ]
    for text in texts:
        assert features(text) == [_hashed(f) for f in _reference_features(text)], text
        reference = _reference_buckets(text)
        assert list(buckets(text).items()) == list(reference.items()), text
        assert bucket_ids(text) == list(reference), text
        assert tokens(text) == [f[2:] for f in _reference_features(text) if f[0] == "u"], text
    indices, indptr = batch_buckets(texts)
    for k, text in enumerate(texts):
        assert sorted(set(indices[indptr[k] : indptr[k + 1]].tolist())) == sorted(
            bucket_ids(text)
        ), text


def _hashed(feature: str) -> str:
    """A reference feature as `features` writes it: a slice without its word."""
    return "c:" + feature.split(":", 2)[2] if feature.startswith("c:") else feature
