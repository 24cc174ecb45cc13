"""Flags slurs and discrimination: attacks on people for who they are, not how they play.

Slurs come from the lexicon (with the same obfuscation handling as swearing). Discrimination
rarely uses a slur ("russians are animals", "no women at my table", "kill all immigrants"), so
`hate_patterns` reads a protected group named and then derogated, excluded or threatened, in
clause order, and a few phrase patterns here catch the rest ("go back to your country",
slogans). Counter-speech ("saying 'jews are vermin' is disgusting"), neutral statements and
identity mentions ("I'm gay") are not hate; a bare nationality next to a poker word ("the
chinese player shoved") is not a group.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from railbird.detectors.chat.hate_patterns import (
    Remark,
    counter_speech,
    may_hold_remark,
    quoted_spans,
    remarks,
    slur_mentioned,
)
from railbird.detectors.chat.reasons import (
    Reason,
    chat_finding,
    describe,
    memoised_per_text,
    reason_measures,
)
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import SEVERITY_RANK, Finding, Severity
from railbird.detectors.state import State
from railbird.detectors.text.abuse_lexicon import scan
from railbird.detectors.text.group_terms import (
    GROUP_ADJECTIVES,
    GROUP_PLURALS,
    GROUP_SINGULARS,
    SPACED_VOCABULARY,
)
from railbird.detectors.text.normalise import Normalised, normalise
from railbird.detectors.text.plain_text import plain_words

# The groups as a regex alternation, for the phrase patterns below that are not clause reads.
_GROUP = (
    "(?:"
    + "|".join(
        sorted(
            [*GROUP_PLURALS, *(f"{adj} (?:people|folks|men|women)" for adj in GROUP_ADJECTIVES)],
            key=len,
            reverse=True,
        )
    )
    + ")"
)
_ONE = "(?:" + "|".join(sorted(GROUP_SINGULARS | {"paki", "pole"}, key=len, reverse=True)) + ")"

# (pattern, label, severity): what the clause reading (`hate_patterns`) does not cover.
_PATTERNS: tuple[tuple[re.Pattern[str], str, Severity], ...] = tuple(
    (re.compile(p), label, cast(Severity, sev))
    for p, label, sev in (
        (
            rf"\bno {_GROUP} (?:at|in|on) (?:my|this) (?:table|game|site|room)\b",
            "exclusionary remark",
            "high",
        ),
        (
            rf"\b(?:typical|fucking|dirty|filthy|stinking|stinky|smelly|bloody|lazy|greedy) "
            rf"(?:{_GROUP}|{_ONE})\b",
            "group insult",
            "high",
        ),
        (
            rf"\b(?:all|dirty|filthy|these|those|the) {_GROUP} (?:always )?(?:cheat|cheating|"
            r"taking over)\b",
            "group insult",
            "high",
        ),
        (rf"\bone of (?:those|them|these) {_GROUP}\b", "group insult", "medium"),
        (
            r"\bgo back to (?:your|ur|yo) (?:own )?(?:country|village|cave|jungle|desert|hut|"
            r"homeland|shithole|tribe|reservation|ghetto|home country)\b",
            "xenophobic remark",
            "high",
        ),
        (
            r"\b(?:heil hitler|sieg heil|white power|white pride|"
            r"hitler (?:was|did) (?:right|nothing wrong)|gas the|gas chambers? (?:for|are)|"
            r"holocaust (?:was fake|didn t happen|didnt happen|never happened|is a lie|was a hoax)|"
            r"white genocide|race traitor)\b",
            "extremist slogan",
            "critical",
        ),
        (
            r"\b(?:get |go )?back (?:in|to) the kitchen\b|\bwomen belong in the kitchen\b",
            "sexist remark",
            "medium",
        ),
    )
)
# Every pattern needs one of these words; a set lookup rules out most messages cheaply.
_TRIGGERS = frozenset(
    [
        *re.sub(r"[^a-z ]", " ", _GROUP + _ONE).split(),
        "country",
        "village",
        "cave",
        "jungle",
        "desert",
        "hut",
        "homeland",
        "shithole",
        "tribe",
        "reservation",
        "ghetto",
        "heil",
        "sieg",
        "white",
        "hitler",
        "gas",
        "holocaust",
        "race",
        "kitchen",
    ]
)
_ANY = re.compile("|".join(f"(?:{p.pattern})" for p, *_ in _PATTERNS))
_SCORES: dict[str, float] = {"low": 0.55, "medium": 0.75, "high": 0.92, "critical": 0.99}
_DIRECTED = frozenset(["you", "u", "ur", "your", "youre", "ya"])
_QUOTES = frozenset("\"'\u201c\u201d\u2018\u2019\u00ab\u00bb")
# What sends a plain message to the full reading: quotes, and the ends of sentences.
_SENTENCE_MARKS = frozenset(".!?;")
_MARKS = _QUOTES | _SENTENCE_MARKS
_SENTENCE_END = re.compile("[.!?;]")


def hate_reasons(text: str) -> tuple[list[Reason], Severity | None]:
    reasons, worst = _verdict(text)
    return list(reasons), worst


def _read(text: str) -> tuple[list[Reason], Severity | None]:
    plain = plain_words(text)
    if plain is not None and not scan(text):
        # A plain message's words are its squeezed token forms, its stream them joined by
        # spaces; without a slur only the group remarks and patterns are left to read.
        if not may_hold_remark(plain) and _TRIGGERS.isdisjoint(plain):
            return [], None
        if _MARKS.isdisjoint(text):  # no quotes or sentence ends: the words are the reading
            reading = _Reading(text, list(plain), [], list(range(len(plain))))
        else:
            reading = _reading(normalise(text))
        return _group_reasons(reading, " ".join(plain), [], None)
    parsed = normalise(text)
    slurs = [h for h in scan(text) if h.entry.tier == "slur"]
    # The reading's words are these token forms and spaced-out runs, so a gate on them all is
    # a gate on the reading: most messages need no reading at all.
    words = [t.squeezed for t in parsed.tokens] + [r.squeezed for r in parsed.joined]
    if not slurs and not may_hold_remark(words) and _TRIGGERS.isdisjoint(words):
        return [], None
    reading = _reading(parsed)
    reasons: list[Reason] = []
    worst: Severity | None = None
    if slurs:
        quoted = _quoted_words(reading.text, reading.starts)
        token_starts = [t.start for t in parsed.tokens]
        for hit in slurs:
            at = reading.of_token[max(0, bisect_right(token_starts, hit.token.start) - 1)]
            if not slur_mentioned(reading.words, at, quoted):
                reasons.append(Reason("slur", hit.entry.term, hit.original, "slur"))
                worst = "high"
    if reasons and (
        any(t.mention for t in parsed.tokens) or any(t.form in _DIRECTED for t in parsed.tokens)
    ):
        worst = "critical"
    if not may_hold_remark(reading.words) and _TRIGGERS.isdisjoint(reading.words):
        return reasons, worst
    return _group_reasons(reading, parsed.stream, reasons, worst)


@dataclass(frozen=True, slots=True)
class _Reading:
    """A message's words as the remark reading sees them: a "." between sentences, where each
    word starts in the text (-1 for a "."), and the word each token became."""

    text: str
    words: list[str]
    starts: list[int]
    of_token: list[int]


def _reading(parsed: Normalised) -> _Reading:
    """The squeezed token forms with sentence ends marked, and a spaced-out run of letters read
    as one word when that word is a group or remark word ("w o m e n are a c a n c e r");
    slurs spelled so are the lexicon's business."""
    tokens = parsed.tokens
    spaced = [run for run in parsed.joined if run.squeezed in SPACED_VOCABULARY]
    if not spaced and _SENTENCE_MARKS.isdisjoint(parsed.text):  # most messages: one word a token
        forms = [t.squeezed for t in tokens]
        return _Reading(parsed.text, forms, [t.start for t in tokens], list(range(len(forms))))
    runs: dict[int, tuple[str, int]] = {}
    taken: set[int] = set()
    for run in spaced:
        covered = [i for i, t in enumerate(tokens) if run.start <= t.start < run.end]
        if covered and taken.isdisjoint(covered):
            runs[covered[0]] = (run.squeezed, covered[-1])
            taken.update(covered)
    words: list[str] = []
    starts: list[int] = []
    of_token = [0] * len(tokens)
    previous_end: int | None = None
    sentences = not _SENTENCE_MARKS.isdisjoint(parsed.text)
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if (
            sentences
            and previous_end is not None
            and _SENTENCE_END.search(parsed.text, previous_end, token.start)
        ):
            words.append(".")
            starts.append(-1)
        form, last = runs.get(i, (token.squeezed, i))
        for j in range(i, last + 1):
            of_token[j] = len(words)
        words.append(form)
        starts.append(token.start)
        previous_end = tokens[last].end
        i = last + 1
    return _Reading(parsed.text, words, starts, of_token)


def _group_reasons(
    reading: _Reading,
    stream: str,
    reasons: list[Reason],
    worst: Severity | None,
) -> tuple[list[Reason], Severity | None]:
    """`reasons` and `worst` with the remarks about groups found in the `reading` (its token
    `stream`, for the phrase patterns) added, unless they are quoted, reported or denounced."""
    words = reading.words
    found: list[tuple[Remark, str]] = []
    if may_hold_remark(words):
        found = [(r, " ".join(words[r.start : r.end])) for r in remarks(words)]
    if _ANY.search(stream) is not None:
        for pattern, label, severity in _PATTERNS:
            match = pattern.search(stream)
            if match is not None:
                first = stream.count(" ", 0, match.start())
                last = first + match.group().count(" ")
                span = reading.of_token[first], reading.of_token[last] + 1
                found.append((Remark(label, severity, *span), match.group()))
    if not found:
        return reasons, worst
    quoted = _quoted_words(reading.text, reading.starts)
    for remark, said in found:
        if counter_speech(words, remark, quoted):
            continue
        reasons.append(Reason(remark.label, said, said, remark.label))
        if worst is None or SEVERITY_RANK[remark.severity] > SEVERITY_RANK[worst]:
            worst = remark.severity
    return reasons, worst


def _quoted_words(text: str, starts: Sequence[int]) -> frozenset[int]:
    """Indices of the words (starting at `starts` in `text`) that sit inside quotation marks."""
    if _QUOTES.isdisjoint(text) or not starts:
        return frozenset()
    spans = quoted_spans(text)
    return frozenset(i for i, at in enumerate(starts) if any(a < at < b for a, b in spans))


_verdict = memoised_per_text(_read)


@dataclass(frozen=True, slots=True)
class Hate:
    name: ClassVar[str] = "hate"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or not event.text:
            return []
        found, severity = _verdict(event.text)
        if not found or severity is None:
            return []
        reasons = list(found)
        return [
            chat_finding(
                self.name,
                "hate",
                event,
                severity,
                _SCORES[severity],
                f"{describe(reasons)} in {event.channel} chat",
                reason_measures(reasons),
            )
        ]
