"""Cheap fingerprints of chat lines, for telling repeats and bot waves from ordinary chat.

Lower-case letters and digits only, letter runs collapsed ("heyyyy" = "heyy"), so trivial
variations of one line share a fingerprint; near-duplicates are then compared by character
trigrams (Jaccard). ASCII text, nearly all chat, takes a bytes path of C-level `translate`
calls; the regexes run only on the lines that need them.
"""

from __future__ import annotations

import re

_NOT_ALNUM = re.compile(r"[\W_]+", re.UNICODE)
_RUNS = re.compile(r"(.)\1{2,}", re.UNICODE)
_DIGITS = re.compile(r"\d+")
_CHUNKS = re.compile(r"...", re.DOTALL)
_NO_PROBE: tuple[set[str], float] = (set(), float("inf"))
ASCII_NOT_ALNUM = bytes(c for c in range(128) if not chr(c).isalnum())
_ASCII_DIGITS = b"0123456789"
_from_bytes = int.from_bytes
# Lower-cases ASCII in the same `translate` that deletes the rest: one C pass, not two.
ASCII_LOWER = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")


def fingerprint(text: str) -> tuple[str, int]:
    """Lower-case alphanumerics with letter runs collapsed (emoji-only text keeps its symbols),
    and the length before collapsing, which is what the minimum length applies to.

    ASCII text (nearly all chat) takes a bytes path: one `translate` deletes what the regex
    would, and runs are looked for with a big-int XOR of the bytes against themselves shifted
    by one, which is zero exactly where neighbours are equal, so a run of three shows as two
    zero bytes in a row (the last byte XORs with nothing and stays non-zero: no NUL is kept).
    The regex runs only on the rare line that has a run to collapse."""
    if text.isascii():  # lowered in the translate, as `text.lower()` would
        kept = text.encode("ascii").translate(ASCII_LOWER, ASCII_NOT_ALNUM)
        size = len(kept)
        if size > 2:  # `collapse_runs`, without the call: every line with letters comes here
            value = _from_bytes(kept)
            if (value ^ (value >> 8)).to_bytes(size).find(b"\0\0") >= 0:
                return _RUNS.sub(r"\1\1", kept.decode("ascii")), size
            return kept.decode("ascii"), size
        if kept:
            return kept.decode("ascii"), size
        lowered = text.lower()
    else:
        lowered = text.lower()
        if lowered.isascii():  # "\u212a" (Kelvin) lowers to "k"
            kept = lowered.encode("ascii").translate(None, ASCII_NOT_ALNUM)
            if kept:
                return collapse_runs(kept), len(kept)
    core = _NOT_ALNUM.sub("", lowered)
    if not core:
        core = "".join(lowered.split())
    return _RUNS.sub(r"\1\1", core), len(core)


def collapse_runs(kept: bytes) -> str:
    """`_RUNS.sub` on ASCII alphanumerics, the regex only where a run of three exists."""
    size = len(kept)
    if size > 2:
        value = _from_bytes(kept)  # `find`, not `in`: see `loud_text.may_flood`
        if (value ^ (value >> 8)).to_bytes(size).find(b"\0\0") >= 0:
            return _RUNS.sub(r"\1\1", kept.decode("ascii"))
    return kept.decode("ascii")


def strip_digits(fp: str) -> str:
    """`fp` without its digits, so bot waves that number their lines still match."""
    if fp.isalpha():
        return fp
    if fp.isascii():
        return fp.encode("ascii").translate(None, _ASCII_DIGITS).decode("ascii")
    return _DIGITS.sub("", fp)


# A fingerprint's character trigrams, each as a tuple of its three characters (a line shorter
# than three characters is one 1-tuple of itself): `zip` builds them in C, faster than slicing
# each substring out in a Python loop (docs/design-numbers.md). The tuples stand one-to-one for the
# substrings `fp[i : i + 3]`, so every Jaccard value is the one the substrings give.
Grams = frozenset[tuple[str, ...]]


def trigrams(fp: str) -> Grams:
    if len(fp) < 3:
        return frozenset(((fp,),))
    return frozenset(zip(fp, fp[1:], fp[2:], strict=False))


def jaccard(a: Grams, b: Grams) -> float:
    if not a or not b:
        return 0.0
    inter = len(a & b)
    return inter / (len(a) + len(b) - inter)


def probe(fp: str, similarity: float) -> tuple[set[str], float]:
    """What rules most other lines out before any trigram set is built: `fp`'s distinct
    trigrams at positions 0, 3, 6, ... (cut in C) and how many of them another line may lack.

    Jaccard at least `similarity` (s) needs the intersection I at least s times the union, which
    is at least this line's own set A: A lacks at most (1 - s)|A| of the other line's set, and
    |A| <= len(fp) - 2. Every chunk is in A, so more chunks missing from the other line than
    that rules it out (a millionth added against the rounding of the division it stands for).
    Only for 0 < s (at s <= 0 every pair matches) and lines of three characters or more."""
    if not similarity > 0 or len(fp) < 3:
        return _NO_PROBE
    return set(_CHUNKS.findall(fp)), (1.0 - similarity) * (len(fp) - 2) + 1e-6


def misses(chunks: set[str], other: str) -> int:
    """How many of `chunks` (three characters each) are no trigram of `other`: a chunk is one
    exactly when it occurs in `other` (a shorter `other` has none)."""
    return len(chunks) - sum(map(other.__contains__, chunks))
