# ruff: noqa: RUF002
# (Cyrillic and Latin look-alike letters are the point of the reading tables below.)
"""Abuse in the room's other languages: the lexicon built from glin-profanity's dictionaries and
`multilingual_words`, looked up on a message as `multilingual_reading` reads it.

How a match becomes a finding is the detector's job (`chat/multilingual_abuse`); `abuse_in`
gives it the matches with whether each is aimed at a person.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import NamedTuple

from railbird.detectors.text.language_id import language_of
from railbird.detectors.text.multilingual_reading import Word, read, read_word
from railbird.detectors.text.multilingual_words import (
    ALLOWED,
    DICTIONARIES,
    DROPPED,
    DROPPED_PHRASES,
    FIRST_PERSON,
    FIRST_PERSON_OBJECTS,
    KEPT_SHORT,
    MOTHER,
    MOTHER_WITH_YOUR,
    PHRASES,
    RULES,
    SECOND_PERSON,
    TURKISH_YOU,
    Entry,
    Tier,
)


@dataclass(frozen=True, slots=True)
class Lexicon:
    exact: dict[str, Entry]  # dictionary word as typed with its accents -> entry
    plain: dict[str, Entry]  # accent-free dictionary word -> entry
    squeezed: dict[str, Entry]  # the same with doubled letters single, for stretched words
    phrases: dict[str, tuple[tuple[tuple[str, ...], Entry], ...]]  # first word -> the rest
    rules: re.Pattern[str]
    rule_meta: tuple[tuple[tuple[str, ...], Tier, bool], ...]
    # Every ASCII word that can be or start a dictionary match: the English fast path.
    ascii_words: frozenset[str]

    def classify(self, form: str) -> Entry | None:
        """The stem rule that `form` (one accent-free word) falls under, if any."""
        if form in ALLOWED:
            return None
        found = self.rules.fullmatch(form)
        if found is None or found.lastgroup is None:
            return None
        languages, tier, directed = self.rule_meta[int(found.lastgroup[1:])]
        return Entry(form, languages, tier, directed)


_TIER_RANK: dict[str, int] = {"weak": 0, "swear": 1, "insult": 2, "slur": 3, "threat": 4}


def glin_words(language: str) -> list[str]:
    """One language's list from the installed glin-profanity package (its data files only:
    none of its matcher is imported, so none of its dependencies matter)."""
    folder = resources.files("glin_profanity").joinpath("data", "dictionaries")
    text = folder.joinpath(DICTIONARIES[language]).read_text(encoding="utf-8")
    return [str(word) for word in json.loads(text)["words"]]


def _merge(table: dict[str, Entry], key: str, entry: Entry) -> None:
    """Add `entry` under `key`; a word in two languages' lists keeps both, and the worse tier."""
    old = table.get(key)
    if old is None:
        table[key] = entry
        return
    languages = tuple(sorted({*old.languages, *entry.languages}))
    worst = old if _TIER_RANK[old.tier] >= _TIER_RANK[entry.tier] else entry
    table[key] = Entry(worst.term, languages, worst.tier, old.directed or entry.directed)


def _compiled_rules() -> tuple[re.Pattern[str], tuple[tuple[tuple[str, ...], Tier, bool], ...]]:
    meta = tuple((tuple(lang.split()), tier, directed) for lang, tier, directed, _ in RULES)
    rules = re.compile("|".join(f"(?P<r{i}>{p})" for i, (*_, p) in enumerate(RULES)))
    return rules, meta


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """Built once per process from the installed dictionaries, the rules and the phrases."""
    rules, meta = _compiled_rules()
    tiers = Lexicon({}, {}, {}, {}, rules, meta, frozenset())  # only its rules, to tier entries
    exact: dict[str, Entry] = {}
    plain: dict[str, Entry] = {}
    squeezed: dict[str, Entry] = {}
    phrases: dict[str, list[tuple[tuple[str, ...], Entry]]] = {}
    for language, tier, directed, text in PHRASES:  # first: they outrank the lists' own
        words = read(text)
        entry = Entry(text, (language,), tier, directed)
        phrases.setdefault(words[0].plain, []).append((tuple(w.plain for w in words[1:]), entry))
    for language in DICTIONARIES:
        dropped = DROPPED[language]
        for raw in glin_words(language):
            words = read(raw)
            if len(words) > 1 and all(len(w.plain) <= 2 for w in words):
                words = read("".join(w.plain for w in words))  # "a.q" is "aq", not a phrase
            if len(words) > 1:
                key = " ".join(w.plain for w in words)
                if key in DROPPED_PHRASES or all(w.plain in dropped for w in words):
                    continue
                entry = Entry(" ".join(w.form for w in words), (language,), "swear", False)
                ruled = [tiers.classify(w.plain) for w in words]
                worst = max((e.tier for e in ruled if e), key=_TIER_RANK.__getitem__, default=None)
                if worst is not None and worst != "weak":
                    entry = entry._replace(tier=worst)
                rest = tuple(w.plain for w in words[1:])
                phrases.setdefault(words[0].plain, []).append((rest, entry))
                continue
            if not words or words[0].form in dropped or words[0].plain in ALLOWED:
                continue
            word = words[0]
            if len(word.plain) <= 3 and not KEPT_SHORT.intersection((word.plain, word.form)):
                continue
            ruled_word = tiers.classify(word.plain)
            entry = Entry(word.form, (language,), "swear", False)
            if ruled_word is not None:
                entry = entry._replace(tier=ruled_word.tier, directed=ruled_word.directed)
            _merge(exact, word.form, entry)
            if word.plain not in dropped:
                _merge(plain, word.plain, entry)
                if word.squeezed not in dropped and word.squeezed not in ALLOWED:
                    _merge(squeezed, word.squeezed, entry)
    starts = {first: tuple(found) for first, found in phrases.items()}
    # A phrase cannot match without its longest word: that one word stands for it.
    anchors = [max((first, *rest), key=len) for first, found in starts.items() for rest, _ in found]
    ascii_words = frozenset(k for k in [*plain, *anchors] if k.isascii())
    return Lexicon(exact, plain, squeezed, starts, rules, meta, ascii_words)


class Hit(NamedTuple):
    entry: Entry
    start: int  # its first word's place among the message's words
    width: int  # how many words it covers
    typed: str


def lookup(word: Word) -> Entry | None:
    """The entry one word is: a dictionary word (accented, accent-free, squeezed) or a stem."""
    lex = lexicon()
    found = lex.exact.get(word.form) or lex.plain.get(word.plain)
    if found is not None or word.plain in ALLOWED:
        return found
    if word.squeezed == word.plain:
        return lex.classify(word.plain)
    return (
        lex.squeezed.get(word.squeezed) or lex.classify(word.plain) or lex.classify(word.squeezed)
    )


def find(words: tuple[Word, ...]) -> list[Hit]:
    """Every lexicon entry in `words`: phrases first, then the words they leave."""
    lex = lexicon()
    hits: list[Hit] = []
    covered: set[int] = set()
    plains = tuple(w.plain for w in words)
    for i, word in enumerate(words):
        for rest, entry in lex.phrases.get(word.plain, ()):
            end = i + 1 + len(rest)
            if plains[i + 1 : end] == rest:
                hits.append(Hit(entry, i, end - i, " ".join(w.typed for w in words[i:end])))
                covered.update(range(i, end))
                break
    for i, word in enumerate(words):
        if i not in covered:
            single = lookup(word)
            if single is not None:
                hits.append(Hit(single, i, 1, word.typed))
    return hits


# Traces of obfuscation in ASCII text: a digit or symbol inside a word, a letter three times,
# letters spaced out. An ASCII message without them is read word by word (`ascii_may_match`).
_ASCII_SUSPECT = re.compile(
    r"[a-z][0-9@$!*]+[a-z]|([a-z])\1\1"
    r"|(?<![a-z0-9])[a-z][ .\-_*+]{1,3}[a-z][ .\-_*+]{1,3}[a-z](?![a-z0-9])"
)
_ASCII_WORDS = re.compile(r"[a-z]+")
# Each ASCII word's verdict (stem rules, stretched dictionary words), learnt once: table chat
# reuses a small vocabulary, so a message's words are dict hits. Bounded: past the cap words are
# not learnt.
_ascii_rule_memo: dict[str, bool] = {}
_ASCII_MEMO_MAX = 65536


def ascii_may_match(lowered: str) -> bool:
    """False when an ASCII message (lower-cased) certainly holds nothing of the lexicon."""
    lex = lexicon()
    words = _ASCII_WORDS.findall(lowered)
    if not lex.ascii_words.isdisjoint(words) or _ASCII_SUSPECT.search(lowered) is not None:
        return True
    memo = _ascii_rule_memo
    for word in words:
        ruled = memo.get(word)
        if ruled is None:
            as_read = read_word(word)  # a rule, or a stretched dictionary word ("kurrwa")
            ruled = as_read is not None and lookup(as_read) is not None
            if len(memo) < _ASCII_MEMO_MAX:
                memo[word] = ruled
        if ruled:
            return True
    return False


class Found(NamedTuple):
    """One piece of abuse in a message, and whether it was aimed at someone."""

    term: str
    typed: str
    tier: Tier
    languages: tuple[str, ...]
    aimed: bool
    family: bool = False  # an insult about the player's mother


# How far (in words) a second-person word may be from a swear word for the swearing to count
# as aimed ("ты сука", "du Arsch"), and from a weak insult ("eres un inútil").
_SWEAR_REACH = 2
_WEAK_REACH = 3


def _near(plains: tuple[str, ...], hit: Hit, vocabulary: frozenset[str], reach: int) -> bool:
    before = plains[max(0, hit.start - reach) : hit.start]
    after = plains[hit.start + hit.width : hit.start + hit.width + reach]
    return not vocabulary.isdisjoint(before) or not vocabulary.isdisjoint(after)


def _union(table: dict[str, frozenset[str]], languages: tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*(table[language] for language in languages))


_ANY_SECOND = _union(SECOND_PERSON, tuple(SECOND_PERSON))
_ANY_MOTHER = _union(MOTHER, tuple(MOTHER))


# What the annotators of each language made of a lexicon word, learnt by `railbird train`
# from the rows it fits on (`lexicon_usage`): how many rows held it as the lexicon's only
# word, and the share of them they marked offensive.
USAGE_FILE = "lexicon_usage.json"
# A word stops counting unless a second person stands next to it, in a language whose
# annotators marked fewer than half the rows holding it offensive, over at least this many
# (Brazilian "porra", "pqp", even "vsf": exclamations more often than insults).
USAGE_MIN_ROWS = 8
USAGE_MIN_SHARE = 0.5
# A word of another language than the message's is read only if it is at least this long:
# "fica" (Italian vulgar, Portuguese "stays"), "aq" (Turkish, Portuguese "aqui"), "mal".
FOREIGN_MIN_LETTERS = 5


@lru_cache(maxsize=1)
def lexicon_usage() -> dict[str, dict[str, tuple[int, float]]]:
    """Per language, per term: rows holding it unaimed in training, and their offensive share
    (shipped beside this module, rewritten by `railbird train`)."""
    path = resources.files("railbird.detectors.text").joinpath(USAGE_FILE)
    if not path.is_file():
        return {}
    raw = json.loads(path.read_text(encoding="utf-8"))
    return {
        language: {term: (int(n), float(share)) for term, (n, share) in terms.items()}
        for language, terms in raw["languages"].items()
    }


def mild_in(language: str, term: str) -> bool:
    """Whether `language`'s annotators mostly did not mark rows with `term` offensive."""
    found = lexicon_usage().get(language, {}).get(term)
    return found is not None and found[0] >= USAGE_MIN_ROWS and found[1] < USAGE_MIN_SHARE


def _your_mother(plains: tuple[str, ...]) -> bool:
    """A player's mother named: a mother word that says "your" itself, or one with a second
    person within two words ("tu madre", "твою мамку")."""
    for i, word in enumerate(plains):
        if word in MOTHER_WITH_YOUR:
            return True
        if word in _ANY_MOTHER and not _ANY_SECOND.isdisjoint(plains[max(0, i - 2) : i + 3]):
            return True
    return False


def abuse_in(text: str, learnt: bool = True) -> tuple[Found, ...]:
    """The abuse in `text` in the room's other languages, each piece aimed or not.

    When the message's language is told (`text.language_id`) and is one of the lexicon's, a
    short word of another language is not read as that language's insult, and, with
    `learnt`, a word that the language's annotators mostly did not mark offensive counts only
    with a second person beside it (`mild_in`).

    Aimed: the term is aimed by its own form ("spierdalaj", a vocative, "siktir"), it is a
    threat, a second-person word or a mention is in the message (near the word, for swearing
    and for words that are insults only when aimed), Turkish "you are" is on the word, the
    player's mother is named beside vulgarity, or the insult is the whole message. An insult
    beside a first-person word and no second person is about the speaker ("я лох") and is
    dropped; words that are insults only when aimed are dropped when they are not.
    """
    if text.isascii() and not ascii_may_match(text.lower()):
        return ()
    words = read(text)
    hits = find(words)
    if not hits:
        return ()
    plains = tuple(w.plain for w in words)
    present = frozenset(plains)
    mention = any(w.mention for w in words)
    covered = sum(h.width for h in hits)
    bare = len(words) - covered <= 1
    last = len(words) - 1
    mother = _your_mother(plains)
    # The message's language when the identifier is sure of it: which language's meaning a
    # word takes, and whose short words are read at all. An unsure guess was tried for both
    # and cost more than it saved (Portuguese "pica" read through the Czech list's "piča").
    language = language_of(text)
    known = language if language in SECOND_PERSON else ""
    found: list[Found] = []
    for hit in hits:
        entry = hit.entry
        own = entry.languages
        if (
            known
            and known not in own
            and entry.tier not in ("slur", "threat")
            and len(entry.term.replace(" ", "")) < FOREIGN_MIN_LETTERS
        ):
            continue
        context = tuple(
            lang
            for lang in own
            if not (SECOND_PERSON[lang] | FIRST_PERSON[lang] | MOTHER[lang]).isdisjoint(present)
        )
        languages = context or own
        second = not _ANY_SECOND.isdisjoint(present)
        speakers = (*own, known) if known in FIRST_PERSON and known not in own else own
        first = not (_union(FIRST_PERSON, speakers) - FIRST_PERSON_OBJECTS).isdisjoint(present)
        family = (
            mother
            and entry.tier in ("swear", "insult")
            and not _union(MOTHER, languages).isdisjoint(present)
        )
        turkish_you = "tr" in own and TURKISH_YOU.fullmatch(words[hit.start].plain) is not None
        if entry.tier == "weak":
            aimed = turkish_you or _near(plains, hit, _union(SECOND_PERSON, own), _WEAK_REACH)
            if not aimed:
                continue
        elif entry.tier == "slur":
            aimed = entry.directed or second or mention
        elif entry.tier == "insult":
            if first and not second and not entry.directed and not mention:
                continue
            # First or last word: where a message addresses someone ("pendejo, aprende").
            address = hit.start == 0 or hit.start + hit.width - 1 == last
            aimed = entry.directed or second or mention or turkish_you or bare or family or address
        elif entry.tier == "threat":
            aimed = True
        else:
            # A mention alone does not aim a swear word: "@bob porra, que river" swears at
            # the cards in a message to bob (a reply, on most platforms).
            aimed = (
                entry.directed
                or family
                or _near(plains, hit, _union(SECOND_PERSON, own), _SWEAR_REACH)
            )
        if (
            learnt
            and known
            and entry.tier != "threat"
            and entry.tier != "slur"
            and mild_in(known, entry.term)
            and not _near(plains, hit, SECOND_PERSON[known], _WEAK_REACH)
        ):
            continue
        found.append(Found(entry.term, hit.typed, entry.tier, languages, aimed, family))
    return tuple(found)


def addressed(text: str, language: str = "") -> bool:
    """Whether `text` speaks to someone: a mention, a second-person word of `language` (of any
    of the lexicon's languages when it is not one of them), or Turkish "you are" on a word
    ("salaksın"). How a model's verdict, which knows what was said but not to whom, is graded:
    abuse spoken to someone is harassment, abuse at nobody is profanity."""
    words = read(text)
    if any(w.mention for w in words):
        return True
    plains = frozenset(w.plain for w in words)
    second = SECOND_PERSON.get(language, _ANY_SECOND)
    if not second.isdisjoint(plains):
        return True
    if language in ("tr", ""):
        return any(TURKISH_YOU.fullmatch(w.plain) is not None for w in words)
    return False


_CLITIC_ME = frozenset({"me"})


def about_the_speaker(
    text: str, language: str, word: str = "", reach: int = 3, max_words: int = 9
) -> bool:
    """A line that speaks to nobody, with a first-person word of `language` ("ich", "ben",
    "soy", "mnie") within `reach` words of `word` (the word that made it abusive): about its
    speaker ("dumm gespielt von mir", "ben salak gibi call ettim", "ale ze mnie idiota"),
    which insults nobody whatever its words (without `word`: anywhere in the line). Chat
    lines only, `max_words` or fewer: a post with "eu" in it is about many things ("eu odeio
    esse governo de merda e todos os corruptos")."""
    first = FIRST_PERSON.get(language)
    if first is None or addressed(text, language):
        return False
    first = first - _CLITIC_ME  # "me" is done to the speaker: "me roubou, filho da puta"
    words = read(text)
    plains = [w.plain for w in words]
    if len(words) > max_words:
        return False
    if not word:
        return not first.isdisjoint(plains)
    target = read_word(word)
    spots = [i for i, p in enumerate(plains) if target is not None and p == target.plain]
    return any(not first.isdisjoint(plains[max(0, i - reach) : i + reach + 1]) for i in spots)
