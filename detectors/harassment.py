"""Flags abuse aimed at someone: directed insults, "kys", threats, telling players to shut up.

An insult is harassment when it is aimed: a second person ("you idiot", "ur a clown"), a
mention, or a pointing phrase ("what an idiot", "absolute muppet"). Aimed at oneself ("I'm such
an idiot") it is not. Threats are harassment even when poker-flavoured words surround them,
except the table's own idiom: "I'll kill you this hand" and "kill pot" are poker, "I know where
you live" never is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, cast

from detectors.abuse_lexicon import Hit, is_threat_term, scan
from detectors.chat_reasons import (
    Reason,
    chat_finding,
    describe,
    memoised_per_text,
    reason_measures,
)
from detectors.events import AnyEvent, ChatEvent
from detectors.findings import SEVERITY_RANK, Finding, Severity
from detectors.harassment_gate import possible_patterns
from detectors.state import State
from detectors.text_normalise import Normalised, normalise, plain_words

SECOND_PERSON = frozenset(
    [
        "you",
        "u",
        "ur",
        "your",
        "youre",
        "yours",
        "ya",
        "yourself",
        "urself",
        "yourselves",
        "thou",
        "yall",
        "ure",
    ]
)
FIRST_PERSON = frozenset(["i", "im", "m", "me", "my", "myself", "mine"])
# Words that point an insult at someone without naming them.
POINTERS = frozenset(
    [
        "what",
        "such",
        "these",
        "those",
        "absolute",
        "total",
        "complete",
        "utter",
        "fucking",
        "fking",
        "effing",
        "stupid",
        "dumb",
        "braindead",
        "clueless",
        "pathetic",
        "little",
        "typical",
        "biggest",
    ]
)
# Determiners that make a weak insult word an object ("the trash", "my garbage"), not a label.
OBJECT_WORDS = frozenset(["the", "my", "his", "her", "their", "our", "this", "that", "of"])
INTENSIFIERS = frozenset(["fucking", "fuckin", "fking", "fkn", "effing", "absolute", "utter"])
POKER_CONTEXT = frozenset(
    [
        "pot",
        "pots",
        "hand",
        "hands",
        "river",
        "flop",
        "turn",
        "chips",
        "chip",
        "stack",
        "table",
        "tourney",
        "tournament",
        "game",
        "next",
        "aces",
        "kings",
        "queens",
        "cards",
        "deck",
        "bounty",
        "shove",
        "felt",
        "showdown",
        "bluff",
        "final",
        "ft",
        "heads",
        "hu",
        "round",
        "level",
        "blinds",
        "tonight",
    ]
)
_YOU = r"(?:you|u|ya|ur|your|you re|youre|ure)"
_SELF = r"(?:your ?self|ur ?self|yourselves|urselves|yo ?self)"
_WILL = (
    r"(?:i ll|ill|i will|i m gonna|im gonna|i am gonna|i m going to|im going to|ima|imma|gonna|"
    r"will|i d|i would|i can)"
)
_VIOLENT = r"(?:murder|shoot|stab|rape|strangle|choke|hunt|dox|doxx|swat|behead)"
_BANTER_VERBS = r"(?:kill|hurt|beat|destroy|end|smash|punch|slap|bury|find)"

# (pattern, label, severity, exempt when poker words are present)
_PATTERNS: tuple[tuple[re.Pattern[str], str, Severity, bool], ...] = tuple(
    (re.compile(p), label, cast(Severity, sev), exempt)
    for p, label, sev, exempt in (
        (rf"\b(?:kill|neck|hang|shoot|off|unalive|end) {_SELF}\b", "threat", "high", False),
        (r"\b(?:go|pls|please|just|should) (?:die|drown|hang)\b", "threat", "high", False),
        (r"\bdie in a (?:fire|hole|ditch|car crash)\b", "threat", "high", False),
        (
            rf"\b(?:hope|wish|pray) (?:that )?{_YOU} (?:\w+ )?(?:die|dies|get cancer|gets "
            r"cancer|get aids|get hit by|get raped|burn|rot|choke|drown|crash)\b",
            "threat",
            "high",
            False,
        ),
        (rf"\b{_WILL} (?:\w+ )?{_VIOLENT} {_YOU}\b", "threat", "critical", False),
        (rf"\b{_WILL} (?:\w+ )?{_BANTER_VERBS} {_YOU}\b", "threat", "high", True),
        (r"\bi know where (?:you|u) (?:live|are|sleep|work)\b", "threat", "critical", False),
        (rf"\b(?:find|found|finding) (?:out )?where {_YOU} live\b", "threat", "critical", False),
        (
            rf"\b(?:come|coming|show up) to {_YOU} (?:house|home|door|place)\b",
            "threat",
            "critical",
            False,
        ),
        (rf"\bwatch {_YOU} back\b", "threat", "high", False),
        (rf"\b(?:slit|cut) {_YOU} throat\b", "threat", "critical", False),
        (rf"\b(?:break|snap) {_YOU} (?:legs|neck|arms|face|jaw|knees)\b", "threat", "high", False),
        (rf"\b(?:beat|kick|whoop) {_YOU} (?:ass|face|head)\b", "threat", "high", True),
        (
            r"\b(?:drink bleach|jump off a (?:bridge|building|cliff|roof))\b",
            "threat",
            "high",
            False,
        ),
        (rf"\b{_YOU} (?:re |are |r )?(?:a )?dead (?:man|meat)\b", "threat", "high", True),
        (rf"\bgo (?:fuck|f) {_SELF}\b", "directed profanity", "high", False),
        (
            rf"\b(?:fuck|screw|fk|fck|f) (?:you|u|ya|off|{_YOU} (?:mom|mum|mother|family))"
            r"\b(?! c k)",
            "directed profanity",
            "high",
            False,
        ),
        (r"\bsuck (?:my|a) (?:dick|cock|balls|d)\b", "directed profanity", "high", False),
        (
            r"\b(?:stfu|gtfo|shut (?:the )?(?:fuck|f|hell|fk|f u c k|fuk) up|piss off|bugger off|"
            r"sod off|eat shit)\b",
            "directed profanity",
            "medium",
            False,
        ),
        (
            r"\b(?:shut up(?! and)|get lost|nobody (?:asked|cares|likes (?:you|u)))\b",
            "put-down",
            "medium",
            False,
        ),
        (
            rf"\b{_YOU} (?:play|played|playing) like (?:a |an )?(?:\w+ )?(?:child|kid|girl|monkey|"
            r"clown|idiot|moron|retard|toddler|baby|grandma|noob)\b",
            "put-down",
            "medium",
            False,
        ),
        (r"\bwaste of (?:oxygen|space|air|skin|sperm)\b", "put-down", "medium", False),
        (
            rf"\b(?:go )?(?:cry|run) (?:to |for )?(?:{_YOU} )?(?:mom|mommy|mum|mummy|mama|momma|"
            rf"daddy)\b|\bask {_YOU} (?:mommy|mummy|momma|daddy)\b",
            "put-down",
            "medium",
            False,
        ),
        (
            r"\b(?:hope|wish) (?:you|u) (?:go broke|lose everything|lose it all|get banned|"
            r"never win)\b",
            "put-down",
            "medium",
            False,
        ),
        (r"\b(?:you|u) (?:really |fucking )?suck\b(?! out)", "put-down", "low", False),
        (
            rf"\b{_YOU} (?:are |r |re )?(?:so |such |really |just )*(?:a |an )?"
            r"(?:bad|terrible|awful|"
            r"horrible|worthless|disgusting|disgrace|embarrassment|waste)\b",
            "put-down",
            "low",
            False,
        ),
    )
)
_SELF_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), label)
    for p, label in (
        (r"\buninstall\b", "put-down"),
        (
            r"\b(?:worst|dumbest|stupidest) (?:player|donk|fish|noob|human)s? "
            r"(?:ever|alive|here|on)\b",
            "put-down",
        ),
        (r"\bquit (?:poker|playing|the game|life)\b", "put-down"),
    )
)

# Every pattern above needs one of these words: a set lookup rules out most messages before
# any regex runs (a long alternation costs a regex attempt per branch per character).
_TRIGGERS = frozenset(
    [
        "yourself",
        "urself",
        "ur",
        "self",
        "yourselves",
        "urselves",
        "yoself",
        "die",
        "drown",
        "hang",
        "hope",
        "wish",
        "pray",
        "murder",
        "shoot",
        "stab",
        "rape",
        "strangle",
        "choke",
        "hunt",
        "dox",
        "doxx",
        "swat",
        "behead",
        "kill",
        "hurt",
        "beat",
        "destroy",
        "end",
        "smash",
        "punch",
        "slap",
        "bury",
        "find",
        "found",
        "finding",
        "live",
        "house",
        "home",
        "door",
        "place",
        "back",
        "throat",
        "legs",
        "neck",
        "arms",
        "face",
        "jaw",
        "knees",
        "ass",
        "head",
        "bleach",
        "jump",
        "dead",
        "fuck",
        "f",
        "screw",
        "fk",
        "fck",
        "suck",
        "stfu",
        "gtfo",
        "shut",
        "piss",
        "bugger",
        "sod",
        "eat",
        "lost",
        "nobody",
        "waste",
        "play",
        "played",
        "playing",
        "mom",
        "mommy",
        "mum",
        "mummy",
        "mama",
        "momma",
        "daddy",
        "bad",
        "terrible",
        "awful",
        "horrible",
        "worthless",
        "disgusting",
        "disgrace",
        "embarrassment",
        "uninstall",
        "worst",
        "dumbest",
        "stupidest",
        "quit",
        "unalive",
        "off",
    ]
)
_ALL_PATTERNS = (*(t[0] for t in _PATTERNS), *(t[0] for t in _SELF_PATTERNS))
_ANY = re.compile("|".join(f"(?:{p.pattern})" for p in _ALL_PATTERNS))


def _near(
    words: list[str], index: int, vocabulary: frozenset[str], before: int, after: int
) -> bool:
    """Whether a word of `vocabulary` is within `before` words before or `after` words after."""
    window = words[max(0, index - before) : index] + words[index + 1 : index + after + 1]
    return any(w in vocabulary for w in window)


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
        if _TRIGGERS.isdisjoint(plain):
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

    for hit in scan(text):
        _insult_or_threat(hit, parsed, words, mention, add)
    if _TRIGGERS.isdisjoint(words):
        return reasons, worst
    return reasons, _pattern_reasons(words, parsed.stream, reasons, worst)


def _pattern_reasons(
    words: list[str], stream: str, reasons: list[Reason], worst: Severity | None
) -> Severity | None:
    """Adds the threat and put-down patterns found in `stream` to `reasons`; the worst
    severity after them."""
    possible: Sequence[int]
    if "*" in stream:
        if _ANY.search(stream) is None:
            return worst
        possible = range(len(_ALL_PATTERNS))
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

    others = len(_PATTERNS)
    for index in possible:
        if index < others:
            pattern, label, severity, exempt = _PATTERNS[index]
            found = pattern.search(stream)
            if found is not None and not (exempt and poker_talk):
                add(Reason(label, found.group(), found.group(), label), severity)
            continue
        pattern, label = _SELF_PATTERNS[index - others]
        found = pattern.search(stream)
        if found is None:
            continue
        index = stream.count(" ", 0, found.start())
        if not _near(words, index, FIRST_PERSON, 3, 0):
            add(Reason(label, found.group(), found.group(), label), "medium")
    return found_worst


def _insult_or_threat(
    hit: Hit,
    parsed: Normalised,
    words: list[str],
    mention: bool,
    add: Callable[[Reason, Severity], None],
) -> None:
    entry = hit.entry
    if is_threat_term(entry):
        add(Reason("threat", entry.term, hit.original, "threat"), "high")
        return
    if entry.tier not in ("insult", "weak_insult"):
        return
    index = _stream_index(parsed, hit.token.start)
    if entry.tier == "weak_insult":  # "you're trash" is aimed; "you take out the trash" isn't
        aimed = _near(words, index, SECOND_PERSON, 3, 0) and words[index - 1] not in OBJECT_WORDS
    else:
        aimed = mention or _near(words, index, SECOND_PERSON, 4, 2)
    pointed = _near(words, index, POINTERS, 2, 0)
    own = _near(words, index, FIRST_PERSON, 4, 3)
    if aimed or (pointed and not own):
        intense = entry.vulgar or _near(words, index, INTENSIFIERS, 2, 0)
        severity: Severity = "high" if intense and entry.tier == "insult" else "medium"
        add(Reason("directed insult", entry.term, hit.original, entry.tier), severity)
    elif entry.tier == "insult" and not own and not entry.vulgar:
        add(Reason("insult", entry.term, hit.original, entry.tier), "low")


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
