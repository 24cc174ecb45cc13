"""The words and patterns harassment reads: who a message is aimed at, insults, threats.

Kept apart from the detector (`harassment.py`) so the detector reads as its rules, and the
vocabulary as one table that reviewers can audit and extend.
"""

from __future__ import annotations

import re
from typing import cast

from railbird.detectors.findings import Severity

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
# "uninstall the old client" is tech support, "uninstall the game" a put-down.
_SOFTWARE = (
    r"(?! (?:the |this |that |my |your |ur |it |and |then )?(?:old |new |latest |current )?"
    r"(?:client|app|update|program|software|driver|drivers|version|patch|mod|mods|addon|plugin|"
    r"extension|browser|antivirus|vpn|launcher|hud|tracker)\b)(?!.*\breinstall)"
)
# "fuck off river" swears at the cards, not at anyone.
_AT_THINGS = (
    r"(?! (?:the |this |that )?(?:river|flop|turn|board|deck|cards|variance|rng|lag|server|site|"
    r"game|poker)\b)"
)

# (pattern, label, severity, exempt when poker words are present)
PATTERNS: tuple[tuple[re.Pattern[str], str, Severity, bool], ...] = tuple(
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
            rf"\b(?:fuck|screw|fk|fck|f) (?:you|u|ya|off\b{_AT_THINGS}|"
            rf"{_YOU} (?:mom|mum|mother|family))\b(?! c k)",
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
        (
            r"\b(?:you|u)(?: guys| all| two| 2)? (?:really |fucking |so )?suck\b(?! out)",
            "put-down",
            "low",
            False,
        ),
        (
            rf"\b{_YOU} (?:are |r |re )?(?:so |such |really |just )*(?:a |an )?"
            r"(?:bad|terrible|awful|"
            r"horrible|worthless|disgusting|disgrace|embarrassment|waste)\b",
            "put-down",
            "low",
            False,
        ),
        (
            r"\b(?:team|teams|teammates) (?:really |fucking |so |just )?sucks?\b(?! out)",
            "put-down",
            "low",
            False,
        ),
    )
)
SELF_PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), label)
    for p, label in (
        (rf"\buninstall\b{_SOFTWARE}", "put-down"),
        (
            r"\b(?:worst|dumbest|stupidest) (?:player|donk|fish|noob|human)s? "
            r"(?:ever|alive|here|on)\b",
            "put-down",
        ),
        (r"\bquit (?:poker|playing|the game|life)\b", "put-down"),
        (r"\b(?:learn (?:how )?to play|l2p|git gud|get a life)\b", "put-down"),
    )
)

# Every pattern above needs one of these words: a set lookup rules out most messages before
# any regex runs (a long alternation costs a regex attempt per branch per character).
TRIGGERS = frozenset(
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
        "sucks",
        "learn",
        "l2p",
        "gud",
        "life",
    ]
)
ALL_PATTERNS = (*(t[0] for t in PATTERNS), *(t[0] for t in SELF_PATTERNS))
ANY_PATTERN = re.compile("|".join(f"(?:{p.pattern})" for p in ALL_PATTERNS))
