"""Chat that plans collusion: agreeing to sit out together, or to gang up on a bounty.

Planning chat alone is weak evidence (people joke), so the detectors treat it as a boost to the
statistical evidence from play, and flag it alone only at low severity. The patterns need both
the act (sit out / take out) and a sign of coordination (with me, together, both, signal), so a
player announcing their own break ("sitting out for dinner") or wishing to bust someone never
matches.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from datetime import timedelta
from functools import lru_cache

from railbird.detectors.events import AnyEvent, ChatEvent, HandEvent, TableEvent
from railbird.detectors.findings import Category, Evidence, Finding, MeasureValue
from railbird.detectors.state import State

TOURNAMENT_TTL = timedelta(hours=12)

_SITOUT_ACT = re.compile(r"\b(?:sit(?:ting)?\s*(?:out|back\s+in)|sitout)\b")
_SITOUT_COORD = re.compile(
    r"\b(?:with\s+me|together|both|we\s+all|all\s+of\s+us|signal|same\s+(?:as|time)|"
    r"like\s+last\s+time|let'?s|lets|ok\s+(?:now|go)|k\s+(?:now|go)|now\s+sit|go\s+sit|"
    r"in\s+\d+\s*(?:min|sec|s\b)?)"
)

_BOUNTY_ACT = re.compile(
    r"\b(?:take\s+out|bust|get|isolate|squeeze|sandwich|knock\s+out|eliminate|target|"
    r"check\s+it\s+down|dont\s+bet|don'?t\s+bet|never\s+(?:bet|raise))\b"
)
_BOUNTY_COORD = re.compile(
    r"\b(?:together|i\s*'?(?:ll)?\s+(?:raise|open|3bet|shove|jam)\s+you|you\s+(?:shove|jam)|"
    r"(?:bounty|head)\s+is\s+ours|split\s+(?:his|her|the)\s+bounty|if\s+\S+\s+is\s+all\s+in|"
    r"(?:same|usual)\s+plan|against\s+me|into\s+me)\b"
)
# Plans by meaning rather than by template: an attack on a person together with a sign of
# cooperation ("go after p12 together", "double team the chip leader", "you and me vs the big
# stack"), or a named player's bounty shared out ("we split his bounty", "50/50 on the ko").
# Every attack verb needs a person as its object ("lets go after the break", "we take out the
# trash", "we hit the big blind" are not plans), and a bounty must be someone's ("do bounties
# split?", "head to head, chop?" are not).
_PERSON = (
    r"(?:him|her|them|that\s+guy|the\s+(?:short\s*stack|big\s*stack|chip\s*leader|fish|donk)|"
    r"@\w+|p-?\d+|seat\s*\d+|\w+'s\s+(?:bounty|head|stack))"
)
_ATTACK = re.compile(
    r"\b(?:take\s+out|knock\s+out|eliminate|isolate|squeeze|sandwich|go\s+after|hunt\s+down|"
    r"double[\s-]?team|gang\s+up\s+on|team\s+up\s+on|put\s+pressure\s+on|get|bust|kill|hit|"
    rf"attack|target|crush|trap|vs|versus)\s+{_PERSON}"
)
_COOPERATE = re.compile(
    r"\b(?:together|both|we|us|lets|let'?s|with\s+me|help\s+me|you\s+and\s+(?:me|i)|"
    r"me\s+and\s+you|between\s+us|(?:double|tag)[\s-]?team|gang\s+up|team\s+up|"
    r"i\s*'?(?:ll)?\s+(?:raise|open|3bet|shove|jam)\s+you|you\s+(?:shove|jam)|"
    r"(?:same|usual)\s+plan|against\s+me|into\s+me)\b"
)
_BOUNTY = re.compile(
    r"\b(?:(?:his|her|their|\w+'s)\s+(?:bounty|ko|head)|(?:bounty|ko)\s+(?:on|of)\s+\S+|"
    r"(?:50\s*/\s*50|fifty\s+fifty)\s+on\s+the\s+(?:bounty|ko)|\S+\s+(?:bounty|head)\s+is\s+ours)"
)
# The second reader: a name the directory may not know after an attack that can only aim at a
# person, rules of play between members, a target named as such, and a knockout shared out.
_NOT_A_NAME = (
    r"(?!(?:the|a|an|this|that|it|its|out|me|my|your|our|his|her|some|someone|somebody|"
    r"everyone|anyone|everybody|anybody|dinner|food|lunch|break|bubble|level|money|game|"
    r"tourney|tournament|bounties|bounty|cards|chips|pot|pots|now|again|tonight|soon|early|"
    r"late|up|down|in|on|at|for|to|with|and|or|lol|together|both|every|each|all|any|one|time|"
    r"hand|hands|pre|preflop|light|wide|them|trash|garbage)\b)"
)
_NAMED_ATTACK = re.compile(
    r"\b(?:go\s+after|gang\s+up\s+on|team\s+up\s+(?:on|against)|"
    r"(?:double|tag)[\s-]?team(?:\s+(?:on|against))?|hunt(?:\s+down)?|lean\s+on|pile\s+on|"
    r"work\s+on|take\s+down|knock\s+out|take\s+out|bust|isolate|squeeze|"
    rf"focus(?:\s+on)?)\s+(?:{_PERSON}|{_NOT_A_NAME}@?[a-z][\w'-]{{2,}})"
)
_PLAY_RULE = re.compile(
    r"\b(?:(?:dont|don'?t|never|no)\s+(?:raise|3\s*bet|re-?raise|bet\s+into)\s+"
    r"(?:me|each\s*other|one\s+another)|"
    r"i\s*'?(?:ll)?\s+(?:open|raise)\s*,?\s*(?:you|u)\s+(?:call|flat|just\s+call)|"
    r"if\s+\w+\s+(?:shoves|jams|is\s+all\s*in|goes\s+all\s*in)\s*,?\s*(?:we\s+)?(?:just\s+)?"
    r"(?:check\s+(?:it\s+)?down|check|no\s+betting|dont\s+bet|don't\s+bet))"
)
_TARGET_NOUN = re.compile(
    r"\b(?:(?:is|are)\s+(?:our\s+(?:mark|target|victim)|the\s+(?:mark|target))|"
    r"(?:that\s+fish|he|she|him|her)\s+is\s+ours)\b"
)
_WHOEVER = re.compile(
    r"\bwhoever\s+(?:gets|takes|busts|kos|knocks\s+out)\s+\S+\s+(?:shares|splits|pays|gives)"
)
_SHARE = re.compile(r"\b(?:split|share|chop|divide|halves|50\s*/\s*50|fifty\s+fifty|is\s+ours)\b")
_WORD = re.compile(r"[a-z0-9]+")
# Necessary conditions, checked before any regex: every _SITOUT_ACT match contains "sit", and
# every match of _BOUNTY_ACT, _ATTACK and _BOUNTY one of the words in `_has_bounty_hint` (most
# chat contains none).
_SITOUT_HINT = "sit"


def _has_bounty_hint(folded: str) -> bool:
    # a chain of `in` (C substring search) is several times cheaper than a generator or regex
    return (
        "out" in folded
        or "after" in folded
        or "team" in folded
        or "gang" in folded
        or "bount" in folded
        or "ko" in folded
        or "head" in folded
        or "vs" in folded
        or "versus" in folded
        or "kill" in folded
        or "hit" in folded
        or "attack" in folded
        or "hunt" in folded
        or "crush" in folded
        or "trap" in folded
        or "pressure" in folded
        or "get" in folded
        or "bet" in folded
        or "take" in folded
        or "bust" in folded
        or "raise" in folded
        or "check" in folded
        or "target" in folded
        or "knock" in folded
        or "isolate" in folded
        or "squeeze" in folded
        or "sandwich" in folded
        or "eliminate" in folded
        or "pile" in folded
        or "focus" in folded
        or "lean" in folded
        or "work" in folded
        or "down" in folded
        or "bet" in folded
        or "open" in folded
        or "shove" in folded
        or "jam" in folded
        or "all" in folded
        or "mark" in folded
        or "victim" in folded
        or "ours" in folded
        or "whoever" in folded
    )


def fold_text(text: str) -> str:
    """Lower-case, strip accents and look-alike tricks that planners rarely bother with."""
    if text.isascii():  # NFKD leaves ASCII as it is
        return text.lower()
    normal = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return normal.lower().replace("\u2019", "'")


# The verdicts are memoised on the exact text: chat repeats itself ("gg", "ty", "nh", copied
# lines), both detectors read every message of the site, and a hit costs a fraction of the fold
# and the substring gate. Bounded, so a stream of unique text only pays the cache's bookkeeping.
_PLAN_CACHE = 1 << 14


@lru_cache(maxsize=_PLAN_CACHE)
def is_sitout_plan(text: str) -> bool:
    folded = fold_text(text)
    if _SITOUT_HINT not in folded:
        return False
    return bool(_SITOUT_ACT.search(folded) and _SITOUT_COORD.search(folded))


@lru_cache(maxsize=_PLAN_CACHE)
def is_bounty_plan(text: str) -> bool:
    folded = fold_text(text)
    if not _has_bounty_hint(folded):
        return False
    return reads_as_bounty_plan(folded)


def reads_as_bounty_plan(folded: str) -> bool:
    """The plan patterns on folded text, ungated: the simulator's own phrasings (act and
    coordination) or the intents (an attack on a person and cooperation, or a shared bounty)."""
    if _BOUNTY_ACT.search(folded) and _BOUNTY_COORD.search(folded):
        return True
    if _ATTACK.search(folded) and _COOPERATE.search(folded):
        return True
    if _BOUNTY.search(folded) and _SHARE.search(folded):
        return True
    if _NAMED_ATTACK.search(folded) and _COOPERATE.search(folded):
        return True
    return bool(_PLAY_RULE.search(folded) or _TARGET_NOUN.search(folded) or _WHOEVER.search(folded))


def name_keys(screen_name: str | None, player_id: str) -> set[str]:
    """The forms a player's name takes in someone else's message ("P-HAL" -> "phal", "hal")."""
    return set(known_name_keys(screen_name, player_id))


@lru_cache(maxsize=8192)
def known_name_keys(screen_name: str | None, player_id: str) -> tuple[str, ...]:
    """`name_keys`, memoised (a player's name comes with each of their messages), sorted.

    Every new sender of the site pays this once (the name directory's per-sender cost)."""
    keys: set[str] = set()
    for raw in (screen_name or "", player_id):
        words = _WORD.findall(fold_text(raw))  # once: the joined key and the words share it
        joined = "".join(words)
        if len(joined) >= 3:
            keys.add(joined)
        for word in words:
            if len(word) >= 3 and not word.isdigit():
                keys.add(word)
    return tuple(sorted(keys))


def mentioned_names(text: str) -> list[str]:
    """Candidate name keys in a message, for a lookup in the screen-name directory."""
    words = _WORD.findall(fold_text(text))
    pairs = [a + b for a, b in itertools.pairwise(words)]
    return [w for w in [*words, *pairs] if len(w) >= 3]


def group_key(tournament_id: str | None, group: tuple[str, ...] | list[str]) -> str:
    """One flag id per group and tournament, whatever evidence (chat, then play) found it."""
    return f"{tournament_id or '?'}:{','.join(sorted(group))}"


def remember_tournament(event: AnyEvent, state: State) -> None:
    """Note which tournament each player was last seen in (state keyed by player id), so a
    private planning message, which carries no tournament, can be filed under the right one."""
    tid = event.tournament_id
    if tid is None:
        return
    if isinstance(event, HandEvent):
        players: list[str] = [s.player_id for s in event.seats]
    elif isinstance(event, TableEvent):
        players = [p for p in (event.player_id, *(event.players or ())) if p is not None]
    else:
        players = [event.player_id]
    for pid in players:
        if state.get((pid, "tournament")) != tid:
            state.put((pid, "tournament"), tid, TOURNAMENT_TTL)


def remember_chat_tournament(event: ChatEvent, state: State) -> None:
    """`remember_tournament` for a chat message: one sender, no type dispatch (every message
    of the site goes through here, in two detectors)."""
    tid = event.tournament_id
    if tid is not None:
        key = (event.player_id, "tournament")
        if state.get(key) != tid:
            state.put(key, tid, TOURNAMENT_TTL)


def chat_tournament(event: ChatEvent, state: State) -> str | None:
    """The message's tournament, else the one its sender (or recipient) was last seen in."""
    if event.tournament_id is not None:
        return event.tournament_id
    for pid in (event.player_id, event.recipient_id):
        if pid is not None and (tid := state.get((pid, "tournament"))) is not None:
            return str(tid)
    return None


def planning_finding(
    *,
    detector: str,
    category: Category,
    event: ChatEvent,
    state: State,
    kind: str,
    score: float,
    summary: str,
    details: dict[str, MeasureValue] | None = None,
) -> list[Finding]:
    """The low-severity flag for a private planning message, filed under the pair's group key.

    Only private messages name a partner (the recipient); the flag shares its id with the later
    flag from play for the same pair and tournament, so evidence from play upgrades it.
    """
    if event.channel != "private" or event.recipient_id is None:
        return []
    players = tuple(sorted({event.player_id, event.recipient_id}))
    tid = chat_tournament(event, state)
    return [
        Finding(
            detector=detector,
            category=category,
            severity="low",
            score=score,
            ts=event.ts,
            player_ids=players,
            tournament_id=tid,
            message_ids=(event.message_id,),
            dedupe_key=group_key(tid, players),
            evidence=Evidence(
                kind=kind,
                summary=summary,
                event_ids=(event.message_id,),
                measures={"channel": event.channel},
                details=details or {},
            ),
        )
    ]
