"""Finding the abusive-word lexicon's entries (`abuse_terms`) in a message: `scan`.

Matching is one pass over the normalised tokens: set lookups for the word, its stretched and
masked spellings, spaced-out letter runs, and one compiled regex for swear words glued into
longer tokens ("shitshitshit", "fuckyou"). Nothing here is ever a substring match on a short
word, which is how `Scunthorpe`, `Hancock`, `cockpit` and `assassin` stay clean.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache

from railbird.detectors.text.abuse_terms import Entry, Lexicon, lexicon
from railbird.detectors.text.abuse_words import (
    ACCENTED_FOREIGN_WORDS,
    ENGLISH_ENDINGS,
    GERMAN_ACE_BEFORE,
    GIVEN_NAMES,
    GLUED_ALLOWLIST,
    GLUED_STEMS,
    HOMOGRAPHS,
    NAME_TITLES,
    NOT_NAMES,
    POKER_ALLOWLIST,
    ROOM_LANGUAGES,
)
from railbird.detectors.text.language_id import language_of
from railbird.detectors.text.normalise import (
    Normalised,
    Token,
    normalise,
    only_separators,
    squeeze_all,
)
from railbird.detectors.text.plain_text import plain_words


@dataclass(frozen=True, slots=True)
class Hit:
    entry: Entry
    original: str  # the span of the message as typed
    token: Token
    how: str  # exact | stretched | masked | spaced | glued


_GLUED = re.compile("|".join(sorted(GLUED_STEMS, key=len, reverse=True)))


def _by_first_letter(stems: list[str]) -> str:
    """The stems as one alternation grouped by first letter ("f(?:uck|aggot)|..."): the same
    strings match, but the engine tries one branch per letter instead of every stem."""
    groups: dict[str, list[str]] = {}
    for stem in sorted(stems, key=len, reverse=True):
        groups.setdefault(stem[0], []).append(stem[1:])
    return "|".join(
        f"{first}(?:{'|'.join(map(re.escape, rests))})" for first, rests in groups.items()
    )


# Whether any glued stem occurs at all (where `_GLUED` would find one), found faster.
_HAS_GLUED = re.compile(_by_first_letter(list(GLUED_STEMS)))


def _unmask(lex: Lexicon, form: str) -> Entry | None:
    if form[0] == "*" or sum(c != "*" for c in form) < 2:
        return None
    for entry in lex.by_length.get(len(form), ()):
        if all(c == "*" or c == t for c, t in zip(form, entry.term, strict=True)):
            return entry
    return None


def _match_token(lex: Lexicon, token: Token) -> tuple[Entry, str] | None:
    form = token.form
    if form in POKER_ALLOWLIST:
        return None
    entry = lex.exact.get(form)
    if entry is not None:
        return entry, "spaced" if token.joined else "exact"
    if token.alt:
        entry = lex.exact.get(token.alt)
        if entry is not None:
            return entry, "exact"
    if "*" in form:
        entry = _unmask(lex, form)
        return (entry, "masked") if entry is not None else None
    if token.squeezed != form:  # stretched: a letter typed three or more times
        if token.squeezed in POKER_ALLOWLIST:  # "nooob" squeezes to "nob": a game word first
            entry = lex.stretched.get(squeeze_all(form))
            return (entry, "stretched") if entry is not None and entry.tier == "game" else None
        entry = lex.exact.get(token.squeezed) or lex.stretched.get(squeeze_all(form))
        if entry is not None:
            return entry, "stretched"
    if len(form) > 4 and not token.pair and form not in GLUED_ALLOWLIST:
        found = _GLUED.search(token.squeezed)
        if found is not None:
            return lex.exact[GLUED_STEMS[found.group()]], "glued"
    return None


@lru_cache(maxsize=512)
def scan(text: str) -> tuple[Hit, ...]:
    """Every lexicon hit in `text`, in order; cached for the detectors that share a message.

    In a message the language identifier places in another language, a hit that is that
    language's own word (`HOMOGRAPHS`), a handle (`@DerBrainfucker`), or a borrowed term with a
    foreign ending ("retardada") is not English abuse: the multilingual tier reads those."""
    hits = _scan(text)
    if not hits:
        return hits
    language = language_of(text)
    if language not in ROOM_LANGUAGES:  # English, unsure, or a language the room does not
        return hits  # speak (obfuscated English reads as Finnish: "f u c k shitshitshit")
    return tuple(hit for hit in hits if not _foreign_reading(hit, language))


def _foreign_reading(hit: Hit, language: str) -> bool:
    typed = hit.original.lower()
    if typed.startswith("@") or hit.entry.term in HOMOGRAPHS.get(language, ()):
        return True
    if hit.how not in ("exact", "glued") or not typed.isalpha():
        return False
    term = hit.entry.term
    if not typed.startswith(term) or term in typed[len(term) :]:
        return False
    return typed[len(term) :] not in ENGLISH_ENDINGS


def _scan(text: str) -> tuple[Hit, ...]:
    lex = lexicon()
    words = plain_words(text)
    if words is not None and _plainly_clean(lex, words):
        return ()
    parsed = normalise(text)
    hits: list[Hit] = []
    covered: set[int] = set()
    for token in parsed.joined:
        found = _match_token(lex, token)
        if found is not None:
            hits.append(Hit(found[0], parsed.span(token), token, found[1]))
            covered.update(range(token.start, token.end))
    for index in _candidates(lex, parsed):
        token = parsed.tokens[index]
        if token.start in covered:
            continue
        found = _match_token(lex, token)
        if (
            found is not None
            and not _is_name(parsed, index, found[0])
            and not _is_foreign_word(parsed, index, found[0])
        ):
            hits.append(Hit(found[0], parsed.span(token), token, found[1]))
    hits.extend(_split_word_hits(lex, parsed, covered))
    if lex.phrases.keys().isdisjoint(parsed.stream.split(" ")):
        return _in_order(hits)
    for hit in _phrase_hits(parsed, lex):
        if not any(h.token.start < hit.token.end and hit.token.start < h.token.end for h in hits):
            hits.append(hit)
    return _in_order(hits)


def _plainly_clean(lex: Lexicon, words: tuple[str, ...]) -> bool:
    """Whether a plain message (see `plain_words`) can have no hit, without building tokens.

    Mirrors every way `scan` finds a hit on tokens whose form is the word itself: an exact
    entry, a phrase, a glued stem anywhere, or a short word that forms an entry with its
    neighbour ("fu ck"). True only when none can apply, so skipping is exact. A phrase's first
    word alone ("hand", "deep", "dog") is common table talk: only the whole phrase counts.
    """
    if _dead_words.issuperset(words):  # half of plain chat: no word can take part in a hit
        return True
    if not _inert_words.issuperset(words):  # else no exact entry and no glued stem
        if not lex.exact.keys().isdisjoint(words):
            return False
        if _HAS_GLUED.search(" ".join(words)) is not None:
            return False
        _learn_inert(lex, words)
    if not lex.phrases.keys().isdisjoint(words) and _holds_phrase(lex, words):
        return False
    # Any pair (a, b) with a short half and a + b an entry is one of the entry's short splits.
    return lex.short_splits.isdisjoint(itertools.pairwise(words))


def _holds_phrase(lex: Lexicon, words: tuple[str, ...]) -> bool:
    """Whether a multi-word entry's words follow one another in `words`: where a plain
    message's stream (its words joined by single spaces, every word a run of word characters)
    matches the entry's pattern (`\bhand job\b`), and nowhere else."""
    rests = lex.phrase_rests
    for index, word in enumerate(words):
        for rest in rests.get(word, ()):
            if words[index + 1 : index + 1 + len(rest)] == rest:
                return True
    return False


# Words that hold no lexicon entry on their own: not an exact entry, no glued stem inside. A
# plain message of such words can only hit as a phrase or a split word ("fu ck"), so
# `_plainly_clean` skips the other checks with one subset test. Stems never span a space, so
# checking the words one by one is checking their stream. Bounded, cleared when full.
_INERT_MAX = 50_000
_inert_words: set[str] = set()


# Inert words that also start no phrase and are neither half of any short split ("ck" is,
# "gg" is not... see `is_dead_word`): a plain message of them alone is clean with one subset
# test, and it skips the phrase and pair checks too. Always a subset of `_inert_words`.
_dead_words: set[str] = set()


def is_inert_word(lex: Lexicon, word: str) -> bool:
    return word not in lex.exact and _HAS_GLUED.search(word) is None


def is_dead_word(lex: Lexicon, word: str) -> bool:
    """An inert word that no phrase starts with and no short split has as a half: no pair or
    phrase check of `_plainly_clean` can fire on a message made of such words."""
    return is_inert_word(lex, word) and word not in lex.phrases and word not in lex.split_halves


def _learn_inert(lex: Lexicon, words: tuple[str, ...]) -> None:
    known = _inert_words
    if len(known) > _INERT_MAX:
        known.clear()
        _dead_words.clear()
    new = [w for w in words if w not in known and is_inert_word(lex, w)]
    known.update(new)
    _dead_words.update(w for w in new if w not in lex.phrases and w not in lex.split_halves)


def _in_order(hits: list[Hit]) -> tuple[Hit, ...]:
    hits.sort(key=lambda h: h.token.start)
    return tuple(hits)


def _candidates(lex: Lexicon, parsed: Normalised) -> list[int]:
    """Indices of the tokens `_match_token` could match; most words of most messages are not.

    One comprehension over the tokens instead of a function call per token. A token is skipped
    only when every branch of `_match_token` would return None for it: not a lexicon word, no
    second leet reading, not masked, not stretched, and no glued stem anywhere in the message.
    """
    exact = lex.exact
    glued = _HAS_GLUED.search(parsed.stream) is not None
    masked = "*" in parsed.stream
    return [
        i
        for i, t in enumerate(parsed.tokens)
        if t[0] in exact
        or t[4]
        or t[1] != t[0]
        or (glued and len(t[0]) > 4)
        or (masked and "*" in t[0])
    ]


def _typed(parsed: Normalised, index: int) -> str:
    token = parsed.tokens[index]
    return parsed.text[token.start : token.end]


def _is_name(parsed: Normalised, index: int, entry: Entry) -> bool:
    """A person's or a place's name that holds a term: "nice hand Dick", a capitalised given
    name mid-sentence or before a possessive; "Dick Van Dyke", "Alan Cumming", "Mr Dikshit",
    a capitalised word beside another capitalised word that is no term and no pronoun, or
    after a title, in a message that is not all capitals or all capitalised (where "You Fat
    Cunt" would otherwise pass as a name)."""
    typed = _typed(parsed, index)
    if not (typed.istitle() and typed.isalpha()) or entry.tier == "threat":
        return False
    if entry.term in GIVEN_NAMES and (
        index > 0
        or parsed.text[parsed.tokens[index].end : parsed.tokens[index].end + 1] in ("'", "\u2019")
    ):
        return True
    words = [_typed(parsed, i) for i in range(len(parsed.tokens))]
    if all(w.istitle() or not w.isalpha() for w in words):
        return False
    lex = lexicon()
    for near in (index - 1, index + 1):
        if not 0 <= near < len(words):
            continue
        word = words[near]
        if near == index - 1 and word.rstrip(".").lower() in NAME_TITLES:
            return True
        lowered = word.lower()
        if (
            word.istitle()
            and word.isalpha()
            and lowered not in NOT_NAMES
            and lowered not in lex.exact
        ):
            return True
    return False


def _is_foreign_word(parsed: Normalised, index: int, entry: Entry) -> bool:
    """German "ich höre auf" or "das Ass": a word of another language that folds onto a term.

    The other languages' own abuse is `multilingual_abuse`'s to find; here only the known
    collisions are spared, so an accent added to an English insult never hides it."""
    token = parsed.tokens[index]
    if entry.term == "ass" and index > 0:
        return parsed.tokens[index - 1].form in GERMAN_ACE_BEFORE
    typed = parsed.text[token.start : token.end]
    return not typed.isascii() and typed.lower() in ACCENTED_FOREIGN_WORDS


def _split_word_hits(lex: Lexicon, parsed: Normalised, covered: set[int]) -> list[Hit]:
    """A swear word broken in two by a separator ("fu ck", "Fuuuu-ck"), one half short."""
    hits: list[Hit] = []
    tokens = parsed.tokens
    # Only pairs with a short half qualify: find those indices without a call per pair.
    short = [i for i, t in enumerate(tokens) if len(t[0]) <= 2]
    if not short:
        return hits
    pairs = sorted({p for i in short for p in (i - 1, i) if 0 <= p < len(tokens) - 1})
    for left, right in ((tokens[p], tokens[p + 1]) for p in pairs):
        form = left.squeezed + right.squeezed
        entry = lex.exact.get(form)
        if (
            entry is not None
            and len(form) >= 4
            and left.start not in covered
            and left.form.isalpha()
            and right.form.isalpha()
            and only_separators(parsed.text[left.end : right.start])
        ):
            token = Token(form, form, left.start, right.end, joined=True, pair=True)
            hits.append(Hit(entry, parsed.text[left.start : right.end], token, "split"))
            covered.update((left.start, right.start))
    return hits


def _phrase_hits(parsed: Normalised, lex: Lexicon) -> list[Hit]:
    hits = []
    candidates = [p for t in parsed.tokens for p in lex.phrases.get(t.squeezed, ())]
    for pattern, entry in dict.fromkeys(candidates):
        for found in pattern.finditer(parsed.stream):
            first = parsed.stream.count(" ", 0, found.start())
            last = first + found.group().count(" ")
            start, end = parsed.tokens[first].start, parsed.tokens[last].end
            token = Token(entry.term, entry.term, start, end)
            hits.append(Hit(entry, parsed.text[start:end], token, "phrase"))
    return hits
