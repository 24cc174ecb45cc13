"""The buckets a message maps to are the shipped model's vocabulary: they must never drift.

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

from railbird.detectors.ml.features import N_FEATURES, bucket_ids, buckets, features, tokens
from tests.corpora import POKER_CHAT, csv_texts
from tests.paths import DATA

PINNED: dict[str, dict[int, str]] = {
    "nh": {147639: "u:nh"},
    "Nice hand 1500": {
        42683: "b:hand 0",
        131173: "u:hand",
        202564: "b:nice hand",
        213210: "u:nice",
        236924: "u:0",
    },
    "WINNER!! call 09061701461 www.prize.com now": {
        60828: "b:0 xxurl",
        91945: "b:winner call",
        97068: "u:winner",
        118603: "b:call 0",
        159188: "u:call",
        226533: "b:xxurl now",
        236924: "u:0",
        244728: "u:xxurl",
        259514: "u:now",
    },
    "@bob you are sooooo stupid &amp; lame": {
        8547: "u:you",
        89551: "u:soo",
        103177: "b:are soo",
        104310: "u:xxuser",
        118448: "u:stupid",
        176083: "u:are",
        193639: "u:lame",
        210299: "b:you are",
        239668: "b:soo stupid",
        258823: "b:stupid lame",
        259583: "b:xxuser you",
    },
    'RT @x: l\'amour  "quoted" http://t.co/abc': {
        19760: "b:l'amour quoted",
        71200: "u:quoted",
        104310: "u:xxuser",
        110083: "u:l'amour",
        182857: "b:xxuser l'amour",
        211866: "b:quoted xxurl",
        244728: "u:xxurl",
    },
    "Ünïcödé ２３ café naïve": {
        14751: "b:n c",
        16239: "b:c d",
        27541: "u:caf",
        42067: "u:ve",
        57743: "u:n",
        62068: "b:na ve",
        67729: "u:d",
        88627: "b:0 caf",
        105778: "u:c",
        113671: "b:d 0",
        153698: "b:caf na",
        194579: "u:na",
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
    return ["u:" + t for t in tokens] + [f"b:{a} {b}" for a, b in itertools.pairwise(tokens)]


def _reference_buckets(text: str) -> dict[int, str]:
    found: dict[int, str] = {}
    for feature in _reference_features(text):
        found[zlib.crc32(feature.encode("utf-8")) & (N_FEATURES - 1)] = feature
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
        assert features(text) == _reference_features(text), text
        reference = _reference_buckets(text)
        assert list(buckets(text).items()) == list(reference.items()), text
        assert bucket_ids(text) == list(reference), text
        assert tokens(text) == [f[2:] for f in _reference_features(text) if f[0] == "u"], text
