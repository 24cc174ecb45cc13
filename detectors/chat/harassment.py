"""Flags abuse aimed at someone: directed insults, "kys", threats, telling players to shut up.

An insult is harassment when it is aimed: a second person ("you idiot", "ur a clown"), a
mention, or a pointing phrase ("what an idiot", "absolute muppet"). Aimed at oneself ("I'm such
an idiot") it is not. Game-chat words ("noob", "trash", "bot") are insults only as far as
`insult_aim` reads them aimed: "you noob", "noob team" and "report this trash" are harassment,
"he's a noob at this" a low-severity insult, "noob question" and "trash hand" nothing. Threats
are harassment even when poker-flavoured words surround them, except the table's own idiom:
"I'll kill you this hand" and "kill pot" are poker, "I know where you live" never is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from railbird.detectors.chat.harassment_gate import possible_patterns
from railbird.detectors.chat.harassment_patterns import (
    ALL_PATTERNS,
    ANY_PATTERN,
    FIRST_PERSON,
    INTENSIFIERS,
    PATTERNS,
    POINTERS,
    POKER_CONTEXT,
    SECOND_PERSON,
    SELF_PATTERNS,
    TRIGGERS,
)
from railbird.detectors.chat.insult_aim import AIMED, Strength, aim_of, near
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
from railbird.detectors.text.abuse_lexicon import Hit, scan
from railbird.detectors.text.abuse_terms import Entry, is_threat_term
from railbird.detectors.text.game_insults import GAME_LABELS, GAME_WEAKEST, REPORT_VERBS, TEAM_WORDS
from railbird.detectors.text.normalise import Normalised, normalise
from railbird.detectors.text.plain_text import plain_words


def _stream_index(parsed: Normalised, start: int) -> int:
    return next((i for i, t in enumerate(parsed.tokens) if t.start >= start), len(parsed.tokens))


def harassment_reasons(text: str) -> tuple[list[Reason], Severity | None]:
    """Why `text` is harassment (empty if it is not) and the worst severity found."""
    reasons, worst = _verdict(text)
    return list(reasons), worst


def _read(text: str) -> tuple[list[Reason], Severity | None]:
    plain = plain_words(text)
    if plain is not None and not scan(text):
        # A plain message's words are its squeezed token forms and its stream is them joined
        # by spaces, with no mention: without lexicon hits only the patterns are left to run.
        if TRIGGERS.isdisjoint(plain):
            return [], None
        reasons: list[Reason] = []
        return reasons, _pattern_reasons(list(plain), " ".join(plain), reasons, None)
    parsed = normalise(text)
    words = [t.squeezed for t in parsed.tokens]
    mention = any(t.mention for t in parsed.tokens)
    reasons = []
    worst: Severity | None = None

    def add(reason: Reason, severity: Severity) -> None:
        nonlocal worst
        reasons.append(reason)
        if worst is None or SEVERITY_RANK[severity] > SEVERITY_RANK[worst]:
            worst = severity

    question = "?" in text
    for hit in scan(text):
        _insult_or_threat(hit, parsed, words, mention, question, add)
    if TRIGGERS.isdisjoint(words):
        return reasons, worst
    return reasons, _pattern_reasons(words, parsed.stream, reasons, worst)


def _pattern_reasons(
    words: list[str], stream: str, reasons: list[Reason], worst: Severity | None
) -> Severity | None:
    """Adds the threat and put-down patterns found in `stream` to `reasons`; the worst
    severity after them."""
    possible: Sequence[int]
    if "*" in stream:
        if ANY_PATTERN.search(stream) is None:
            return worst
        possible = range(len(ALL_PATTERNS))
    else:
        possible = possible_patterns(words)  # the only patterns that can match
        if not possible:
            return worst
    poker_talk = any(w in POKER_CONTEXT for w in words)
    found_worst = worst

    def add(reason: Reason, severity: Severity) -> None:
        nonlocal found_worst
        reasons.append(reason)
        if found_worst is None or SEVERITY_RANK[severity] > SEVERITY_RANK[found_worst]:
            found_worst = severity

    others = len(PATTERNS)
    for index in possible:
        if index < others:
            pattern, label, severity, exempt = PATTERNS[index]
            found = pattern.search(stream)
            if found is not None and not (exempt and poker_talk):
                add(Reason(label, found.group(), found.group(), label), severity)
            continue
        pattern, label = SELF_PATTERNS[index - others]
        found = pattern.search(stream)
        if found is None:
            continue
        index = stream.count(" ", 0, found.start())
        if not near(words, index, FIRST_PERSON, 3, 0):
            add(Reason(label, found.group(), found.group(), label), "medium")
    return found_worst


def _insult_or_threat(
    hit: Hit,
    parsed: Normalised,
    words: list[str],
    mention: bool,
    question: bool,
    add: Callable[[Reason, Severity], None],
) -> None:
    entry = hit.entry
    if is_threat_term(entry):
        add(Reason("threat", entry.term, hit.original, "threat"), "high")
        return
    if entry.tier not in ("insult", "weak_insult", "game"):
        return
    index = _stream_index(parsed, hit.token.start)
    if entry.tier != "insult":  # "you're trash" is aimed; "trash hand" and "I'm a noob" aren't
        strength = _strength(entry)
        mentions = frozenset(i for i, t in enumerate(parsed.tokens) if t.mention)
        aim = aim_of(words, index, mentions=mentions, strength=strength, question=question)
        if aim in AIMED:
            add(Reason("directed insult", entry.term, hit.original, entry.tier), "medium")
        elif strength == "label" and aim in ("third", "unclear"):
            add(Reason("insult", entry.term, hit.original, entry.tier), "low")
        return
    aimed = mention or near(words, index, SECOND_PERSON, 4, 2)
    pointed = near(words, index, POINTERS, 2, 0)
    own = near(words, index, FIRST_PERSON, 4, 3)
    if aimed or (pointed and not own):
        intense = entry.vulgar or near(words, index, INTENSIFIERS, 2, 0)
        severity: Severity = "high" if intense else "medium"
        add(Reason("directed insult", entry.term, hit.original, entry.tier), severity)
    elif not own and (
        near(words, index, REPORT_VERBS, 4, 0) or near(words, index, TEAM_WORDS, 2, 2)
    ):  # "report this idiot", "team of morons"
        add(Reason("directed insult", entry.term, hit.original, entry.tier), "medium")
    elif not own and not entry.vulgar:
        add(Reason("insult", entry.term, hit.original, entry.tier), "low")


def _strength(entry: Entry) -> Strength:
    """How clearly a weak or game-chat insult must be aimed (see `insult_aim`)."""
    if entry.term in GAME_WEAKEST:
        return "weakest"
    return "label" if entry.term in GAME_LABELS else "weak"


_SCORES: dict[str, float] = {"low": 0.55, "medium": 0.75, "high": 0.9, "critical": 0.98}


_verdict = memoised_per_text(_read)


@dataclass(frozen=True, slots=True)
class Harassment:
    name: ClassVar[str] = "harassment"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.kind != "text" or not event.text:
            return []
        found, severity = _verdict(event.text)
        if not found or severity is None:
            return []
        reasons = list(found)
        target = "a mentioned player" if "@" in event.text else "the table"
        if event.channel == "private":
            target = "a private recipient"
        summary = f"{describe(reasons)} aimed at {target}"
        return [
            chat_finding(
                self.name,
                "harassment",
                event,
                severity,
                _SCORES[severity],
                summary,
                reason_measures(reasons),
            )
        ]
