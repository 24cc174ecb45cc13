"""The abusive-word lexicon: better-profanity's list, sorted into tiers, minus poker talk.

better-profanity's list is the base because it is what the site's moderators already know, but
about a third of it is not abuse in a poker room (`pot`, `kill`, `god`, `suck`, anatomy, drugs,
identity words such as `gay` or `lesbians`), and none of it says how bad a word is. Here every
entry carries a tier (mild swearing < vulgar < insult < threat/slur) and whether it is vulgar,
so the profanity, harassment and hate detectors can each read their part of one match. The
game-chat tier (`game_insults`: "noob", "bot") is matched the same way, spelled any way, and
is never abuse by itself: harassment reads who it is aimed at. The word lists themselves are
data (`abuse_words`, `game_insults`); how messages are matched against the result is
`abuse_lexicon`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Literal

from railbird.detectors.text.abuse_words import (
    INSULTS,
    MILD,
    NOT_THREATS,
    POKER_ALLOWLIST,
    SLUR_PHRASES,
    SLURS,
    THREATS,
    TIERED,
    VULGAR_INSULTS,
    WEAK_INSULTS,
)
from railbird.detectors.text.game_insults import GAME_WORDS
from railbird.detectors.text.normalise import normalise, squeeze_all

Tier = Literal["mild", "vulgar", "insult", "weak_insult", "game", "threat", "slur"]


@dataclass(frozen=True, slots=True)
class Entry:
    term: str
    tier: Tier
    vulgar: bool  # counts as profanity whatever else it is


def _tier_of(term: str) -> Entry:
    if term in SLURS or term in SLUR_PHRASES:
        return Entry(term, "slur", False)
    if term in THREATS:
        return Entry(term, "threat", False)
    if term in INSULTS:
        return Entry(term, "insult", term in VULGAR_INSULTS)
    if term in WEAK_INSULTS:
        return Entry(term, "weak_insult", term in VULGAR_INSULTS)
    if term in GAME_WORDS:
        return Entry(term, "game", False)
    if term in MILD:
        return Entry(term, "mild", True)
    if any(stem in term for stem in ("fuck", "shit")) and term.endswith(
        ("head", "face", "wit", "whit", "tard", "wad", "nut", "er", "ers")
    ):
        return Entry(term, "insult", True)
    if any(stem in term for stem in ("fuck", "shit", "fuk", "phuk")):
        return Entry(term, "mild", True)
    return Entry(term, "vulgar", True)


def _canonical(raw: str) -> str:
    """A list entry in the form tokens take after normalisation ("sh!t" -> "shit")."""
    parsed = normalise(raw.lower())
    if (
        parsed.joined
        and len(parsed.joined) == 1
        and len(parsed.tokens) == len(parsed.joined[0].form)
    ):
        return parsed.joined[0].form
    return " ".join(t.form for t in parsed.tokens)


def _base_terms() -> set[str]:
    text = resources.files("better_profanity").joinpath("profanity_wordlist.txt").read_text()
    return {line.strip().lower() for line in text.splitlines() if line.strip()}


@dataclass(frozen=True, slots=True)
class Lexicon:
    exact: dict[str, Entry]
    stretched: dict[str, Entry]  # squeeze_all(term) -> entry, for "fuuuuck" and "asss"
    by_length: dict[int, tuple[Entry, ...]]  # for masked spellings ("f*ck", "b*llsh*t")
    # Multi-word entries by first word, so only phrases that could start here are searched.
    phrases: dict[str, tuple[tuple[re.Pattern[str], Entry], ...]]
    # Every split of an entry into two words, one of them at most two letters long ("fu",
    # "ck"): a plain message holds a split word only if one of its word pairs is in here.
    short_splits: frozenset[tuple[str, str]]
    # The multi-word entries as words: first word -> the words that must follow it.
    phrase_rests: dict[str, tuple[tuple[str, ...], ...]]
    # Every word of a pair in `short_splits`, either side.
    split_halves: frozenset[str]

    def lookup(self, form: str) -> Entry | None:
        return self.exact.get(form)


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """Built once per process: the base list, tiered, with the allowlist removed."""
    terms = _base_terms() | MILD | INSULTS | WEAK_INSULTS | SLURS | SLUR_PHRASES | THREATS
    terms |= GAME_WORDS
    exact: dict[str, Entry] = {}
    phrases: dict[str, Entry] = {}
    for raw in sorted(terms):
        if raw in POKER_ALLOWLIST:
            continue
        canonical = _canonical(raw)
        glued = canonical.replace(" ", "")
        if len(canonical) < 3 or canonical in POKER_ALLOWLIST or glued in POKER_ALLOWLIST:
            continue
        tiered = _tier_of(canonical if canonical in TIERED or canonical in GAME_WORDS else raw)
        entry = Entry(canonical, tiered.tier, tiered.vulgar)
        if " " in canonical:
            phrases.setdefault(canonical, entry)
            exact.setdefault(glued, Entry(glued, entry.tier, entry.vulgar))
        else:
            exact.setdefault(canonical, entry)
    stretched: dict[str, Entry] = {}
    by_length: dict[int, list[Entry]] = {}
    for term, entry in exact.items():
        stretched.setdefault(squeeze_all(term), entry)
        if len(term) >= 4 and entry.tier not in ("weak_insult", "game"):
            by_length.setdefault(len(term), []).append(entry)
    ordered = {
        n: tuple(sorted(es, key=lambda e: _MASK_ORDER[e.tier])) for n, es in by_length.items()
    }
    by_start: dict[str, list[tuple[re.Pattern[str], Entry]]] = {}
    for term, entry in phrases.items():
        pattern = re.compile(rf"\b{re.escape(term)}\b")
        by_start.setdefault(term.split()[0], []).append((pattern, entry))
    starts = {word: tuple(found) for word, found in by_start.items()}
    splits = frozenset(
        (term[:k], term[k:])
        for term in exact
        for k in range(1, len(term))
        if k <= 2 or len(term) - k <= 2
    )
    rests: dict[str, list[tuple[str, ...]]] = {}
    for term in phrases:
        first, *rest = term.split(" ")
        rests.setdefault(first, []).append(tuple(rest))
    phrase_rests = {word: tuple(found) for word, found in rests.items()}
    halves = frozenset(word for pair in splits for word in pair)
    return Lexicon(exact, stretched, ordered, starts, splits, phrase_rests, halves)


# A masked word is read as the mildest word it could be: "s**t" is "shit" before it is "slut".
_MASK_ORDER: dict[str, int] = {"mild": 0, "insult": 1, "vulgar": 2, "slur": 3, "threat": 4}


def is_threat_term(entry: Entry) -> bool:
    return entry.tier == "threat" and entry.term not in NOT_THREATS
