"""Reads chat for talk about cards, hand strength, reads on opponents and action advice.

Why a parser and not a keyword list: "77" is a pocket pair in "folded 77" but a head count in
"77 players left", "as" is a word unless it is the ace of spades in "As Kd", and "shove it lol"
after a hand is banter while "bob just shove, he has nothing" during one is advice. The parser
returns what was said in structured form; whether it matters is the detector's business (it
knows whether a hand is in play and who held what). A folded player's own hand is often said
in bare digits beside a folding phrase in any word order ("94 i folded", "let 10 4 go"):
`fold_phrases` reads those phrases by meaning and says which digits they govern.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from railbird.detectors.in_hand.fold_phrases import fold_phrases

RANKS = "23456789TJQKA"
_WORD_RANK = {
    "ace": "A", "king": "K", "queen": "Q", "jack": "J", "ten": "T", "nine": "9", "eight": "8",
    "seven": "7", "six": "6", "five": "5", "four": "4", "three": "3", "trey": "3", "deuce": "2",
}  # fmt: skip
_PLURAL = {f"{w}s": r for w, r in _WORD_RANK.items()} | {"sixes": "6", "deuces": "2", "twos": "2"}
_RANK_WORD = "|".join(sorted(_WORD_RANK, key=len, reverse=True))
_PLURAL_WORD = "|".join(sorted(_PLURAL, key=len, reverse=True))

_TWO_CARDS = re.compile(r"(?<![\w/])([2-9TJQKA][cdhs])[\s,]?([2-9TJQKA][cdhs])(?![\w/])")
_TWO_CARDS_LOWER = re.compile(r"(?<![\w/])([2-9tjqka][cdhs])([2-9tjqka][cdhs])(?![\w/])")
_ONE_CARD = re.compile(r"(?<![\w/])([2-9TJQKA][cdhs])(?![\w/])")
# Not inside a number or a name: "2.94", "1,94", "94,000" and "9.4" are amounts, "hugo.27" a
# screen name; after a word's comma or an ellipsis ("lol,94", "ugh...94") the pair stands alone.
_ALONE_BEFORE = r"(?<![\w/:$#-])(?<![^.]\.)(?<!\d,)"
_COMBO = re.compile(
    _ALONE_BEFORE + r"([2-9TJQKAtjqka])-?([2-9TJQKAtjqka])([so])?(?![\w/:%$])(?![.,]\d)"
)
# Two ranks typed as separate numbers ("9 4", "10 4", "4 10", "10-4 off"): read only where a
# folding phrase governs them, since "2 4 me" and "back in 10 4 sure" are words.
_SPACED = re.compile(
    _ALONE_BEFORE + r"(10|[2-9])(?:\s+|\s*-\s*)(10|[2-9])"
    r"(?:([so])\b|\s+(off(?:suit)?|suited)\b)?(?![\w/:%$])(?![.,]\d)",
    re.I,
)
_WORD_COMBO = re.compile(rf"\b({_RANK_WORD})[\s-]+({_RANK_WORD})\b(\s+suited)?", re.I)
_POCKET = re.compile(rf"\bpocket\s+(?:({_PLURAL_WORD})|([2-9tjqka])'?s)\b", re.I)
_PLURAL_ALONE = re.compile(rf"\b({_PLURAL_WORD})\b", re.I)
_SINGLE_RANK = re.compile(rf"\b(?:the|an|a|my|his|her)\s+({_RANK_WORD})\b(?!\s+(?:high|of))", re.I)
# Lower-case two-letter words that are also rank pairs: "at" (AT), "ja", "kk" (= ok), "jk".
_COMBO_STOP = frozenset({"at", "ta", "ja", "ka", "kk", "jk", "kj"})
_NUMBER_NEXT = re.compile(
    r"^\s*(?:players?|people|left|ppl|bb|big|chips?|k\b|mins?|minutes?|secs?|seconds?|hands?|"
    r"to go|percent|%|x\b|times|levels?|tables?|runners?|entries|left|am\b|pm\b|st\b|nd\b|th\b|"
    r"of (?:us|them|you|em)\b|hours?|hrs?|days?|years?|yrs?|outs|pts|points|bucks|dollars|"
    r"cents|grand|euros?|usd|spots?|places?|paid\b)",
    re.I,
)
_NUMBER_PREV = re.compile(r"(?:\b(?:level|lvl|seat|table|top|room|blinds?)|#)\s*$", re.I)
# Small words that make the number after them a count ("at 22", "only 72 of us", "in 10")
# unless a folding phrase governs it ("got rid of 94", "let go of 94").
_COUNT_PREV = re.compile(r"\b(?:at|in|of|only|over|under|about|like)\s*$", re.I)
_CARD_CONTEXT = re.compile(
    r"\b(?:had|have|has|holding|hold|holds|folded|fold|mucked|muck|threw|tossed|laid|gave|"
    r"pocket|with|on|got|suited|offsuit|dealt|gone)\b",
    re.I,
)

_FOLD_TALK = re.compile(
    r"\b(?:folded|fold(?:ed)?\s+(?:my|the)|mucked|muck|laid\s+down|lay\s+down|threw|tossed|"
    r"gave\s+up|in\s+the\s+muck|had|i\s+was\s+(?:holding|on)|was\s+holding|gone)\b",
    re.I,
)
_HOLDS = re.compile(
    r"\b(?:has|holds|is\s+holding|got|is\s+on|hes\s+on|he's\s+on|she's\s+on|holding)\b", re.I
)
# Cards named as someone else's: "bob has AK", "careful, hes on 77", "villain holds QQ"; not
# "i got AK", "you have 77?" (a guess at the listener's hand is a read, kept apart).
_OTHERS_HOLD = re.compile(
    r"\b(?!(?:i|im|i'm|ive|i've|we|u|you|ya|ur|just|still)\b)[a-z][\w'-]*\s+"
    r"(?:has|holds|is\s+holding|is\s+on|got)\b|\b(?:hes|he's|shes|she's|theyre|they're)\s+"
    r"(?:on|holding)\b|\b(?:his|her|their)\s+(?:hand|cards)\s+(?:is|are)\b",
    re.I,
)
_ACTION = re.compile(
    r"\b(?:call|calls|fold|shove|jam|raise|reraise|re-raise|3bet|3-bet|bet|check|push|"
    r"snap\s+call|slow\s+down|pay\s+(?:him|her|them)\s+off|all\s*in)\b",
    re.I,
)
_READ = re.compile(
    r"\b(?:he|she|they|villain|hes|he's|shes|she's|him|her)\b[^.!?]{0,24}?\b(?:bluff\w*|nothing|"
    r"air|weak|strong|trapping|trap|a\s+draw|on\s+a\s+draw|drawing|nuts|has\s+it|got\s+it|"
    r"monster|slowplay\w*|trash|junk|missed|scared)\b",
    re.I,
)
_YOU_READ = re.compile(
    r"\b(?:you(?:'re|\s+are|re)?|ur|u\s+are|your\s+hand\s+is)\s+(?:ahead|behind|beat|good|best|"
    r"winning|losing|crushed|dominated)\b",
    re.I,
)
_STRENGTH = re.compile(
    r"\b(?:two\s+pair|top\s+pair|overpair|over\s+pair|a\s+set|set\s+of|trips|flush\s+draw|"
    r"straight\s+draw|straight|flush|full\s+house|boat|quads|four\s+of\s+a\s+kind|gutshot|"
    r"open[\s-]ended|oesd|nut\s+flush|the\s+nuts|(?:ace|king|queen)\s+high)\b",
    re.I,
)
# An action verb said as a command: "dave just jam", "raise it", "fold now" — not "check out
# this site", "why does everyone call with trash", "ill check your hands".
_IMPERATIVE = re.compile(
    r"\b(?:call|fold|shove|jam|raise|reraise|check|bet|push|snap\s+call)"
    r"(?:\s+(?:it|now|here|him|her|again|pls|please|big))?\s*(?:[,.!?;]|\blol\b|$)",
    re.I,
)
_EMOJI = re.compile(r"[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]")


# The gate in front of the patterns. In ASCII text every pattern that makes talk `poker` needs
# one of: a digit 2-9; one of these words as a whole token; or a token made of rank and suit
# letters only ("AKs", "ahkd", the "a" and "k" of "a-k"). Tokens are split at every ASCII
# character that is not a letter or digit, which splits at least wherever the patterns' word
# boundaries do, so the gate can only say yes more often than the patterns, never less.
_GATE_WORDS = frozenset(
    word.encode("ascii")
    for word in (
        *_WORD_RANK, *_PLURAL, "pocket", "10",  # card words; "10" as in "folded 10 10"
        "call", "calls", "fold", "shove", "jam", "raise", "reraise", "bet", "check", "push",
        "snap", "slow", "pay", "all", "allin",  # actions
        "he", "she", "they", "villain", "hes", "shes", "him", "her",  # reads on a player
        "you", "youre", "ur", "u", "your",  # reads to a player
        "two", "top", "pair", "overpair", "over", "set", "trips", "flush", "straight", "full",
        "boat", "quads", "four", "gutshot", "open", "oesd", "nut", "nuts", "high",  # strength
    )
)  # fmt: skip
# Lower-cases letters and turns every other non-alphanumeric byte into a space.
_GATE_TABLE = bytes(
    ord(chr(b).lower()) if chr(b).isalnum() else ord(" ") for b in range(128)
) + bytes(128)
_RANK_DIGITS = b"23456789"
_RANK_SUIT_LETTERS = b"tjqkacdhso"


@dataclass(frozen=True, slots=True)
class CardMention:
    """Cards named in a message: exact cards when suits are given, otherwise ranks only."""

    text: str
    ranks: tuple[str, ...]  # sorted high first, e.g. ("A", "K") or ("7", "7") or ("A",)
    cards: tuple[str, ...] = ()  # exact cards ("7h", "7c") when suits were typed
    suited: bool | None = None

    def matches(self, hole: tuple[str, ...]) -> bool:
        """Whether `hole` (two exact cards) fits what was named."""
        if self.cards:
            return set(self.cards) <= set(hole)
        hole_ranks = sorted((c[0] for c in hole), key=RANKS.index, reverse=True)
        if len(self.ranks) == 1:
            return self.ranks[0] in hole_ranks
        if list(self.ranks) != hole_ranks:
            return False
        return self.suited is None or self.suited == (len({c[1] for c in hole}) == 1)


@dataclass(frozen=True, slots=True)
class CardTalk:
    """What a message says about the game."""

    mentions: tuple[CardMention, ...] = ()
    fold_talk: bool = False  # "folded", "mucked", "i had": speaks of one's own (folded) cards
    holds_talk: bool = False  # "X has ...", "he's on ...": speaks of someone's holding
    actions: tuple[str, ...] = ()  # action verbs said
    reads: tuple[str, ...] = ()  # reads on a player: "he's bluffing", "you are ahead"
    strength: tuple[str, ...] = ()  # "two pair", "flush draw"
    imperative: bool = False  # an action verb said as a command
    # Rank pairs said with no card word near ("i let 72 go", "my 98 would have hit", "j9s"),
    # and separate numbers a folding phrase governs ("mucked 9 4", "let 10-4 go"):
    # too ambiguous to flag on their own, unambiguous once the hand history shows the speaker
    # folded exactly those ranks (`verdicts.retro_verdict`).
    loose: tuple[CardMention, ...] = ()
    # A folding phrase governs a hand named here ("let 94 go", "94 i folded", "folded that 94
    # pre"): the speaker says what they folded (`fold_phrases`).
    fold_bound: bool = False
    others_cards: bool = False  # cards named as another player's holding ("bob has AK")

    @property
    def names_cards(self) -> bool:
        return any(len(m.ranks) == 2 or m.cards for m in self.mentions)

    @property
    def advice(self) -> bool:
        """A read, or an action verb backed by a read: talk meant to steer a decision."""
        return bool(self.reads)

    @property
    def strong(self) -> bool:
        """Influence whoever says it and whenever in the hand: reads, leaks, tells."""
        return self.advice or (bool(self.mentions) and (self.fold_talk or self.holds_talk))

    @property
    def poker(self) -> bool:
        """Anything about the cards or the action at all."""
        return bool(self.mentions or self.reads or self.actions or self.strength or self.loose)

    def describe(self) -> str:
        parts = [m.text for m in self.mentions] + list(self.reads) + list(self.strength)
        return ", ".join(dict.fromkeys(parts + list(self.actions)))


def _sorted_ranks(*ranks: str) -> tuple[str, ...]:
    return tuple(sorted((r.upper() for r in ranks), key=RANKS.index, reverse=True))


def _number_like(text: str, start: int, end: int, governed: bool) -> bool:
    """A digit pair that reads as a count, time or amount rather than a hand."""
    before = text[:start]
    return bool(
        _NUMBER_NEXT.match(text[end:])
        or _NUMBER_PREV.search(before)
        or (not governed and _COUNT_PREV.search(before))
    )


def _is_amount(a: str, b: str, tail: str | None) -> bool:
    """ "4k", "5K": thousands of chips, never the cards king-four (written high first)."""
    return a.isdigit() and b in "kK" and tail is None


def _mentions(text: str) -> tuple[list[CardMention], list[CardMention], bool]:
    """The card mentions of `text`, the loose ones (see `CardTalk.loose`), and whether a
    folding phrase governs one of them."""
    found: list[CardMention] = []
    loose: list[CardMention] = []
    taken: list[tuple[int, int]] = []
    folds = fold_phrases(text)
    bound = False

    def add(span: tuple[int, int], mention: CardMention) -> None:
        nonlocal bound
        if any(span[0] < e and s < span[1] for s, e in taken):
            return
        taken.append(span)
        found.append(mention)
        bound = bound or (bool(folds) and folds.governs(*span))

    loose_spans: list[tuple[int, int]] = []

    def add_loose(span: tuple[int, int], mention: CardMention) -> None:
        if any(span[0] < e and s < span[1] for s, e in (*taken, *loose_spans)):
            return
        loose_spans.append(span)
        loose.append(mention)

    for pattern in (_TWO_CARDS, _TWO_CARDS_LOWER):
        for m in pattern.finditer(text):
            a, b = m.group(1), m.group(2)
            if m.group(0).lower() in {"asks", "ahas"} or a.lower() == b.lower():
                continue  # words, or one card twice ("ahah" is a laugh)
            cards = (a[0].upper() + a[1], b[0].upper() + b[1])
            add(m.span(), CardMention(m.group(0), _sorted_ranks(a[0], b[0]), cards))
    for m in _POCKET.finditer(text):
        rank = _PLURAL[m.group(1).lower()] if m.group(1) else m.group(2).upper()
        add(m.span(), CardMention(m.group(0), (rank, rank)))
    for m in _WORD_COMBO.finditer(text):
        a, b = _WORD_RANK[m.group(1).lower()], _WORD_RANK[m.group(2).lower()]
        add(
            m.span(), CardMention(m.group(0), _sorted_ranks(a, b), (), True if m.group(3) else None)
        )
    context = _CARD_CONTEXT.search(text) is not None
    for m in _COMBO.finditer(text):
        token = m.group(0)
        a, b, tail = m.group(1), m.group(2), m.group(3)
        if token in _COMBO_STOP or _is_amount(a, b, tail):
            continue
        suited = None if tail is None else tail == "s"
        mention = CardMention(token, _sorted_ranks(a, b), (), suited)
        digits = a.isdigit() and b.isdigit()
        governed = bool(folds) and folds.governs(*m.span())
        if digits and _number_like(text, *m.span(), governed):
            continue
        if (token.islower() and not context) or (digits and a != b and not tail and not context):
            if a.isdigit() or b.isdigit() or tail:  # "72", "j9", "kqs"; not "ak" or "kq" alone
                add_loose(m.span(), mention)
            continue
        add(m.span(), mention)
    if folds:
        for m in _SPACED.finditer(text):
            if not folds.governs(*m.span()) or _number_like(text, *m.span(), True):
                continue
            a, b = ("T" if r == "10" else r for r in (m.group(1), m.group(2)))
            tail = (m.group(3) or m.group(4) or "").lower()
            suited = None if not tail else tail.startswith("s")
            mention = CardMention(m.group(0), _sorted_ranks(a, b), (), suited)
            if context and a == b:
                add(m.span(), mention)
            else:
                add_loose(m.span(), mention)
    for m in _PLURAL_ALONE.finditer(text):
        rank = _PLURAL[m.group(1).lower()]
        add(m.span(), CardMention(m.group(0), (rank, rank)))
    for m in _ONE_CARD.finditer(text):
        if m.start() == 0 and m.group(0) == "As":
            continue  # "As if", "As usual"
        add(m.span(), CardMention(m.group(0), (m.group(1)[0],), (m.group(1),)))
    for m in _SINGLE_RANK.finditer(text):
        add(m.span(1), CardMention(m.group(0), (_WORD_RANK[m.group(1).lower()],)))
    # A loose pair that a surer reading took ("t9s" beside "9s") is that reading's.
    kept = [
        (span, mention)
        for span, mention in zip(loose_spans, loose, strict=True)
        if not any(span[0] < e and s < span[1] for s, e in taken)
    ]
    bound = bound or any(folds.governs(*span) for span, _ in kept)
    return found, [mention for _, mention in kept], bound


def could_be_poker(text: str) -> bool:
    """False only when `parse(text).poker` is surely False: most chat ("gg", "nh", "lol ty")
    is settled in a few C calls instead of a dozen pattern scans."""
    if not text.isascii():
        return True  # the patterns' case-insensitive matching knows Unicode look-alikes
    data = text.encode("ascii").translate(_GATE_TABLE)
    tokens = data.split()
    if not _GATE_WORDS.isdisjoint(tokens):
        return True
    if len(data.translate(None, _RANK_DIGITS)) != len(data):
        return True
    # A token of rank and suit letters only disappears when those letters are deleted.
    return len(data.translate(None, _RANK_SUIT_LETTERS).split()) != len(tokens)


@lru_cache(maxsize=4096)
def parse(text: str) -> CardTalk:
    """Structured card/strength/advice talk in `text` (empty CardTalk for social chat)."""
    if not text or not any(ch.isalnum() for ch in text):
        return CardTalk()
    reads = [m.group(0) for m in _READ.finditer(text)]
    reads += [m.group(0) for m in _YOU_READ.finditer(text)]
    if re.search(r"\bpay\s+(?:him|her|them)\s+off\b", text, re.I):
        reads.append("pay him off")
    mentions, loose, fold_bound = _mentions(text)
    return CardTalk(
        mentions=tuple(mentions),
        fold_talk=bool(_FOLD_TALK.search(text)),
        fold_bound=fold_bound,
        others_cards=bool(mentions) and bool(_OTHERS_HOLD.search(text)),
        holds_talk=bool(_HOLDS.search(text)),
        actions=tuple(m.group(0).lower() for m in _ACTION.finditer(text)),
        reads=tuple(reads),
        strength=tuple(m.group(0).lower() for m in _STRENGTH.finditer(text)),
        imperative=bool(_IMPERATIVE.search(text)),
        loose=tuple(loose),
    )


@lru_cache(maxsize=8192)
def poker_talk(text: str) -> CardTalk | None:
    """`parse(text)` when it finds poker talk, else None; memoised per text so that a repeated
    "gg" during a hand is one C-level lookup instead of the gate's byte scans."""
    if not could_be_poker(text):
        return None
    talk = parse(text)
    return talk if talk.poker else None


def emoji_count(text: str) -> int:
    return len(_EMOJI.findall(text))
