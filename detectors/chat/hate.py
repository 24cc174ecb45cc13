"""Flags slurs and discrimination: attacks on people for who they are, not how they play.

Slurs come from the lexicon (with the same obfuscation handling as swearing). Discrimination
rarely uses a slur ("russians are animals", "no women at my table", "go back to your country"),
so phrase patterns pair a group with dehumanising or exclusionary words. Groups are named in
plural or as people; a bare nationality next to a poker word ("the chinese player shoved") is
not enough.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar, cast

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
from railbird.detectors.text.normalise import normalise
from railbird.detectors.text.plain_text import plain_words

_GROUP = (
    r"(?:jews|jewish people|muslims|moslems|blacks|black people|whites|white people|gays|gay "
    r"people|homosexuals|lesbians|trans people|transgenders|women|females|mexicans|latinos|"
    r"hispanics|asians|chinese|japanese|koreans|indians|pakistanis|arabs|africans|immigrants|"
    r"refugees|migrants|foreigners|gypsies|roma|romanians|russians|poles|ukrainians|turks|"
    r"christians|catholics|hindus|sikhs|jews|nigerians|filipinos|vietnamese|brazilians)"
)
_ONE = (
    r"(?:jew|muslim|moslem|mexican|latino|asian|chinese|indian|paki|arab|african|immigrant|"
    r"refugee|migrant|foreigner|gypsy|russian|pole|turk|nigerian|filipino|woman|female)"
)
_VILE = (
    r"(?:subhuman|sub human|animals|vermin|rats|dogs|pigs|apes|monkeys|parasites|cockroaches|"
    r"roaches|insects|scum|trash|garbage|filth|filthy|dirty|inferior|a disease|a plague|cancer|"
    r"thieves|cheaters|cheats|criminals|terrorists|rapists|retarded|stupid|idiots|disgusting|"
    r"worthless|savages|barbarians|evil|a virus|lazy|greedy|liars|bots)"
)
_RID = (
    r"(?:die|be gassed|gassed|be killed|killed|be shot|shot|be wiped out|wiped out|be wiped|"
    r"be exterminated|exterminated|be eradicated|be lynched|lynched|burn|be burned|hang|be "
    r"hanged|be gotten rid of|gotten rid of|be deported|deported|be removed|be locked up|be "
    r"kicked out|be banned|go back|leave|be sterilized)"
)
_MODAL = r"(?:should|shud|need to|needs to|must|deserve to|ought to|have to|gotta|oughta)"
_NOT_MODAL = r"(?:shouldnt|shouldn t|should not|dont deserve to|don t deserve to|cant|can t|cannot)"

# (pattern, label, severity)
_PATTERNS: tuple[tuple[re.Pattern[str], str, Severity], ...] = tuple(
    (re.compile(p), label, cast(Severity, sev))
    for p, label, sev in (
        (
            rf"\b{_GROUP} (?:are|r|re|is) (?:all |just |nothing but |such |literally |basically )*"
            rf"(?:a |an )?{_VILE}\b",
            "dehumanising remark",
            "high",
        ),
        (rf"\b{_GROUP} {_MODAL} (?:all )?{_RID}\b", "eliminationist remark", "critical"),
        (
            rf"\b(?:kill|gas|hang|shoot|deport|exterminate|wipe out|get rid of|lynch|burn|nuke) "
            rf"(?:all |the |those |these |every |all the )*{_GROUP}\b",
            "eliminationist remark",
            "critical",
        ),
        (
            rf"\b{_GROUP} {_NOT_MODAL} (?:be allowed|exist|play|vote|think|drive)\b",
            "exclusionary remark",
            "high",
        ),
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
            rf"\b(?:all|dirty|filthy|these|those|the) {_GROUP} (?:always )?(?:ruin|ruining|ruined|"
            r"ruins|cheat|cheating|steal|stealing|stink|smell|destroy|destroying|invading|taking "
            r"over)\b",
            "group insult",
            "high",
        ),
        (rf"\bone of (?:those|them|these) {_GROUP}\b", "group insult", "medium"),
        (rf"\b(?:i )?hate (?:all |the |those |these |fucking )*{_GROUP}\b", "group hatred", "high"),
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


def hate_reasons(text: str) -> tuple[list[Reason], Severity | None]:
    reasons, worst = _verdict(text)
    return list(reasons), worst


def _read(text: str) -> tuple[list[Reason], Severity | None]:
    plain = plain_words(text)
    if plain is not None and not scan(text):
        # A plain message's words are its squeezed token forms, its stream them joined by
        # spaces; without a slur only the patterns are left to run.
        if _TRIGGERS.isdisjoint(plain):
            return [], None
        return _pattern_reasons(" ".join(plain), [], None)
    parsed = normalise(text)
    reasons: list[Reason] = []
    worst: Severity | None = None
    for hit in scan(text):
        if hit.entry.tier == "slur":
            reasons.append(Reason("slur", hit.entry.term, hit.original, "slur"))
            worst = "high"
    if reasons and (
        any(t.mention for t in parsed.tokens) or any(t.form in _DIRECTED for t in parsed.tokens)
    ):
        worst = "critical"
    if _TRIGGERS.isdisjoint([t.squeezed for t in parsed.tokens]):
        return reasons, worst
    return _pattern_reasons(parsed.stream, reasons, worst)


def _pattern_reasons(
    stream: str, reasons: list[Reason], worst: Severity | None
) -> tuple[list[Reason], Severity | None]:
    """`reasons` and `worst` with the discrimination patterns found in `stream` added."""
    if _ANY.search(stream) is None:
        return reasons, worst
    for pattern, label, severity in _PATTERNS:
        found = pattern.search(stream)
        if found is not None:
            reasons.append(Reason(label, found.group(), found.group(), label))
            if worst is None or SEVERITY_RANK[severity] > SEVERITY_RANK[worst]:
                worst = severity
    return reasons, worst


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
