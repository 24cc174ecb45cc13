"""Hate without a slur: a protected group named, then derogated, excluded or threatened.

Most hate in chat uses no slur: "muslims are vermin", "women shouldn't be allowed to play",
"kill all immigrants". Read here on a message's words, in clause order: a group mention (a
plural noun, a generic singular, or an adjective with a people head: "gay people", "a trans
person", "female lives"), then within a short window of linking words a derogation ("are
vermin", "are not human", "disgust me"), an elimination ("should be deported", "should all
die") or an exclusion ("can't play", "have no place"); or, before the group, hatred ("I
despise", "sick of") or violence ("kill all", "death to"). Negation flips a derogation ("women
are not stupid" is not hate, "women are not human" is). Counter-speech is not hate: a remark
inside quotes, after a reporting frame ("saying...", "calling women trash", "comments like")
or beside a word that names it as bigotry ("racist", "homophobic"). A bare identity mention
("I'm gay", "as a muslim I...") and neutral statements hold no predicate, so never match.

The words are data, in `text.group_terms`. Every way a remark can be found needs a group word
and one of its `TRIGGERS`: `may_hold_remark` checks both with set operations before any
window is read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from railbird.detectors.findings import Severity
from railbird.detectors.text import group_terms as terms

_LONGEST = max(len(p.split()) for p in (*terms.AFTER, *terms.BEFORE))


def _phrase_at(words: Sequence[str], k: int, table: dict[str, str]) -> tuple[str, int] | None:
    """The longest phrase of `table` starting at `words[k]`: its kind and length."""
    for length in range(min(_LONGEST, len(words) - k), 0, -1):
        kind = table.get(" ".join(words[k : k + length]))
        if kind is not None:
            return kind, length
    return None


@dataclass(frozen=True, slots=True)
class Remark:
    """A remark about a group: what it is, how bad, and the words it spans."""

    label: str
    severity: Severity
    start: int
    end: int  # one past its last word


@dataclass(frozen=True, slots=True)
class _Mention:
    start: int
    end: int
    one_person: bool  # "that woman": derogation of one person is not hate of the group
    # "an immigrant today": the noun may be an adjective ("a muslim country"), so only what
    # comes before it ("rape an immigrant") reads as aimed at the group.
    before_only: bool = False
    pronoun: bool = False


def _mentions(words: Sequence[str]) -> list[_Mention]:
    found: list[_Mention] = []
    explicit: int | None = None  # where the last explicit mention ended
    i = 0
    while i < len(words):
        w = words[i]
        after = words[i + 1] if i + 1 < len(words) else None
        before = words[i - 1] if i > 0 else None
        if w in terms.GROUP_ADJECTIVES and after in terms.PEOPLE_HEADS:
            single = after in ("person", "man", "woman", "life")
            found.append(_Mention(i, i + 2, single and before in terms.ONE_PERSON))
            explicit = found[-1].end
            i += 2
            continue
        if w in terms.GROUP_PLURALS and not (
            w in terms.ALSO_ADJECTIVES and after is not None and not _continues(after)
        ):
            found.append(_Mention(i, i + 1, False))
            explicit = found[-1].end
        elif w in terms.GROUP_SINGULARS and (
            w in terms.NOUN_ONLY or after is None or after == "s" or _continues(after)
        ):
            found.append(_Mention(i, i + 1, before in terms.ONE_PERSON))
            explicit = found[-1].end
        elif w in terms.GROUP_SINGULARS and before in terms.GENERIC:
            found.append(_Mention(i, i + 1, False, before_only=True))
            explicit = found[-1].end
        elif (
            w in terms.GROUP_ADJECTIVES and before == "the" and (after is None or _continues(after))
        ):
            found.append(_Mention(i, i + 1, False))  # "the disabled"
            explicit = found[-1].end
        elif w in terms.PRONOUNS and explicit is not None and i - explicit < 16:
            found.append(_Mention(i, i + 1, False, pronoun=True))
        i += 1
    return found


def _continues(word: str) -> bool:
    """Whether `word` can follow a group noun in a remark, so the noun is not an adjective:
    "chinese are dirty" but not "the chinese player" or "muslim terrorists"."""
    return (
        terms.AFTER.get(word) in terms.LINKING or word in terms.NEGATORS or word in terms.CONTINUING
    )


def _after(words: Sequence[str], start: int, end: int) -> tuple[str, Severity, int] | None:
    """A remark predicated of the group at `start:end`: its label, severity and end."""
    # A negation just before the group blocks a derogation ("I don't think women are stupid",
    # "never support a politician that treats X like garbage"); it makes nothing hate.
    before = list(words[max(0, start - 6) : start])
    cuts = [
        i
        for i, w in enumerate(before)
        if w in terms.BREAKERS or (w == "that" and i > 0 and before[i - 1] in terms.SEEING)
    ]
    if cuts:  # "isn't it obvious that X are scum": the negation is the question's
        before = before[cuts[-1] + 1 :]
    blocked = not terms.NEGATORS.isdisjoint(before)
    negated = modal = can = False
    wish = not terms.WISHING.isdisjoint(words[:start])
    if end + 1 < len(words) and words[end] == "s" and words[end + 1] not in terms.OWN_NATURE:
        return None  # "a woman's story is trash" is said of the story
    unknown = 0
    k = end
    while k < len(words) and k < end + 10:
        if words[k] in terms.BREAKERS:
            return None
        found = _phrase_at(words, k, terms.AFTER)
        if found is None:
            if words[k] in terms.NEGATORS:
                negated = True
            else:
                unknown += 1
                if unknown > 1:
                    return None
            k += 1
            continue
        kind, length = found
        stop = k + length
        if kind in ("derog", "exclude", "verb"):
            if negated or blocked:
                return None
            label = {"derog": "dehumanising remark", "exclude": "exclusionary remark"}
            return label.get(kind, "group insult"), "high", stop
        if kind == "positive":
            if not negated or "less" in words[stop : stop + 3]:  # "not worth any less"
                return None
            return "dehumanising remark", "high", stop
        if unknown == 0:  # a modal right after the group: "X should...", not "X i would..."
            if kind == "modal" or (kind == "wish modal" and wish):
                modal = True
            elif kind == "not modal":
                modal = negated = True
            elif kind == "can":
                can = True
        if kind in ("rid", "expel") and modal:
            if negated or blocked:
                return None
            if kind == "rid":
                return "eliminationist remark", "critical", stop
            return "exclusionary remark", "high", stop
        if kind == "allow" and (modal or can) and negated:
            return "exclusionary remark", "high", stop
        k = stop
    return None


def _before(words: Sequence[str], mention: _Mention) -> tuple[str, Severity, int] | None:
    """Hatred or violence aimed at the group starting at `mention.start`: label, severity and
    the remark's first word."""
    ends = [mention.start]
    while len(ends) < 6 and ends[-1] > 0 and words[ends[-1] - 1] in terms.PASSED_BEFORE:
        ends.append(ends[-1] - 1)
    for end in ends:  # "kill all women": the verb may end at "kill" or at "fuck all"
        for start in range(max(0, end - _LONGEST), end):
            found = _phrase_at(words, start, terms.BEFORE)
            if found is None or start + found[1] != end:
                continue
            if words[end] == "of" and found[0] == "violence" and words[end - 1] != "of":
                return None  # "the rape of women" names a crime, it calls for nothing
            return _aimed_before(words, mention, found[0], start)
    start = ends[-1] - 1
    if (
        start >= 0
        and words[start] in terms.CAUSATIVES
        and terms.SUFFER & set(words[mention.end : mention.end + 2])
    ):
        return _aimed_before(words, mention, "violence", start)
    return None


def _aimed_before(
    words: Sequence[str], mention: _Mention, kind: str, start: int
) -> tuple[str, Severity, int] | None:
    window = words[max(0, start - 3) : start]
    if not terms.NEGATORS.isdisjoint(window) and "why" not in words[max(0, start - 5) : start]:
        return None  # "I would never hurt any woman", "I don't hate women"
    if kind == "violence":
        if mention.pronoun or not _intended(words, start):
            return None
        return "eliminationist remark", "critical", start
    if mention.one_person:
        return None
    if words[start] in terms.HATRED_NOUNS and not any(w in ("i", "me") for w in words[:start]):
        return None  # "your contempt for women", "the open hatred for women"
    if start > 0 and words[start - 1] in terms.OTHERS:
        return None  # "you hate women", "he hates women": told, not said
    return "group hatred", "high", start


def _intended(words: Sequence[str], start: int) -> bool:
    """Whether the violent verb at `start` is called for or threatened, not reported: an
    imperative ("kill all X", "death to X"), or after a wish, a plan or a modal ("I want to",
    "we should", "let's", "someone should"). "men rape women" and "the nazis tried to kill all
    the jews" describe."""
    if words[start] in terms.ALWAYS_CALLED:
        return True
    before = words[max(0, start - 4) : start]
    return not before or not terms.INTENT.isdisjoint(before) or before[-1] in terms.IMPERATIVE_LEAD


def remarks(words: Sequence[str]) -> list[Remark]:
    """Every remark about a protected group in `words`, counter-speech included (see
    `counter_speech`), without the word-set gate."""
    found: list[Remark] = []
    for mention in _mentions(words):
        before = _before(words, mention)
        if before is not None:
            label, severity, start = before
            found.append(Remark(label, severity, start, mention.end))
            continue
        if mention.one_person or mention.before_only or words[mention.start] == "them":
            continue
        after = _after(words, mention.start, mention.end)
        if after is not None:
            label, severity, stop = after
            found.append(Remark(label, severity, mention.start, stop))
    return found


def counter_speech(words: Sequence[str], remark: Remark, quoted: frozenset[int]) -> bool:
    """Whether `remark` is quoted, reported or denounced rather than made."""
    if remark.start in quoted:
        return True
    if not terms.DENOUNCING.isdisjoint(words[: remark.start]) or not terms.DENOUNCING.isdisjoint(
        words[remark.end :]
    ):
        return True
    earlier = words[: remark.start]
    for k, word in enumerate(earlier):
        if word in terms.REPORTING and terms.FIRST_PERSON.isdisjoint(words[max(0, k - 2) : k]):
            return True  # "saying ...", "calling people ...", but not "I'm calling you a ..."
        if word in terms.LIKE_HEADS and k + 1 < len(words) and words[k + 1] == "like":
            return True
        if (
            word in terms.SPEECH
            and k > 0
            and (words[k - 1] in terms.OTHERS or words[k - 1] in terms.NEGATORS)
        ):
            return True
    return False


def slur_mentioned(words: Sequence[str], at: int, quoted: frozenset[int]) -> bool:
    """Whether the slur at `words[at]` is named as a word rather than thrown at anyone: "the
    word X", "saying X", "calling people X", or quoted inside a frame that reports or denounces
    it (`He said this was "typical X behaviour", which is bigoted`). Stricter than
    `counter_speech`: "he called me a X" and a quoted retweet are still the slur."""
    before = words[max(0, at - 3) : at]
    if before[-1:] == ["word"] or before[-2:] == ["word", "like"]:
        return True
    for k, word in enumerate(before):
        rest = before[k + 1 :]
        if word in terms.NAMING_GERUNDS and all(w in terms.GENERIC_OBJECTS for w in rest):
            return True
    return at in quoted and counter_speech(words, Remark("slur", "high", at, at + 1), frozenset())


def may_hold_remark(words: frozenset[str] | set[str] | Sequence[str]) -> bool:
    """Whether `remarks` can find anything in a message of these words: a group word and a
    trigger word, both needed by every remark. Exact: a gate, never a change of verdict."""
    return not terms.GROUP_WORDS.isdisjoint(words) and not terms.TRIGGERS.isdisjoint(words)


_QUOTE = re.compile("[\"\u201c\u201d\u00ab\u00bb]|(?<![\\w])['\u2018]|['\u2019](?![\\w])")


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Spans of `text` inside quotation marks; an apostrophe inside a word is not one."""
    marks = [m.start() for m in _QUOTE.finditer(text)]
    return [(marks[i], marks[i + 1]) for i in range(0, len(marks) - 1, 2)]
