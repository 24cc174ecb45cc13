"""The abusive-word lexicon: better-profanity's list, sorted into tiers, minus poker talk.

better-profanity's list is the base because it is what the site's moderators already know, but
about a third of it is not abuse in a poker room (`pot`, `kill`, `god`, `suck`, anatomy, drugs,
identity words such as `gay` or `lesbians`), and none of it says how bad a word is. Here every
entry carries a tier (mild swearing < vulgar < insult < threat/slur) and whether it is vulgar,
so the profanity, harassment and hate detectors can each read their part of one match.

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
from importlib import resources
from typing import Literal

from detectors.events import ChatEvent
from detectors.findings import Category, Evidence, Finding, MeasureValue, Severity
from detectors.text_normalise import (
    Normalised,
    Token,
    normalise,
    only_separators,
    plain_words,
    squeeze_all,
)

Tier = Literal["mild", "vulgar", "insult", "weak_insult", "threat", "slur"]


@dataclass(frozen=True, slots=True)
class Entry:
    term: str
    tier: Tier
    vulgar: bool  # counts as profanity whatever else it is


@dataclass(frozen=True, slots=True)
class Hit:
    entry: Entry
    original: str  # the span of the message as typed
    token: Token
    how: str  # exact | stretched | masked | spaced | glued


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Poker and everyday words in better-profanity's list: never flagged on their own.
POKER_ALLOWLIST = _words(
    """pot pots kill kills killed killing god gods hell damn damned suck sucks sucked sucking
    sucker lmao lmfao omg wtf cum balls ball nuts nut fish donk donkey shove sick hardcore sex
    sexy drunk weed stoned crap crappy pissed ugly fat gay gays gai gae gey ghey ghay queer
    queers lesbians lesbian transsexual hemp heroin meth pcp opium opiate peyote valium vodka
    rum reefer ganja hooch toke pawn organ oral orally revue sandbar seaman seamen maxi len
    nob nobs niggle dink dinks dong hump humped humping hooter hooters playboy pimp pimpis
    screw screwed screwing strip stripclub stroke snatch sniper snuff slave slope thrust tinkle
    undies unwed urinal urine uterus womb vomit voyeur vulgar vulva vagina penis anus anal
    breasts busty crotch loin loins hymen glans gonad gonads labia nipple nipples tampon
    testes testis testee testical testicle phalli phallic ovary ovum ovums menses menstruate
    menstruation rectal rectum rectus pubic pubis penial penile scrotum semen sperm foreskin
    erect erection erotic erotism enlargement facial fart fingering fisted fisty flange foobar
    fondle freex fubar gigolo gringo guido hamflap hebe herp herpes herpy hiv homey
    homoerotic hookah howtokill howtomurdep hoare junkie junky kinbaku kinky klan lech leper
    lust lusting lusty masochist massa murder napalm naked nude nappy nazi nazism opiate paddy
    pantie panties panty pastie pasty pee peepee penetrate penetration perversion pinko pms
    poop potty prig prostitute prude quicky racy raunch reich rump ruski sadism sadist
    sausagequeen scag scantily scrotum scrud seduce sexual shibari shibary skag sleaze sleazy
    smut smutty sodom souse soused spunk steamy stripclub tawdry teabagging teat teets teez
    threesome thug titi toots tramp trashy tush uzi v14gra v1gra viagra virgin vixen wad wang
    wazoo wedgie weenie weewee weiner wench whiz willies willy woody xx xxx yaoi yury hitler
    cowgirl cowgirls bondage lube pollock aryan arian extacy extasy dummy dopey dogging doggin
    fanny fanyy f4nny hemp kkk heshe molest chick chicks bird birds colored yankee
    yankees monkey monkeys charlie ghetto hillbilly redneck oreo brownie cracker crackers
    spunk titties5 asianSanchez asanchez x-rated2g1c cipa escort sob"""
)
GIVEN_NAMES = frozenset({"dick", "randy", "fanny", "willy", "rod"})
# Words with an innocent life inside longer tokens that glued-swear matching must not break.
GLUED_ALLOWLIST = _words(
    "scunthorpe shitake shiitake mishit retardant retardants snigger sniggers sniggering sniggered"
)

MILD = _words(
    """ass arse arrse 4r5e asses bullshit bitchin bitching fuck fucked fuckin fucking fuckings
    fucks fuk fuks fukin fukkin fukking fcuk fcuking fvck fxck phuck phuk phuked phuking
    phukked phukking phuks phuq feck fook frigg frigga fux fux0r shit shits shitty shite
    shitting shitted shitt shited shiting shitings shittings shitfull shiz goddamn goddam godamn
    godamnit goddammit goddamned god-dam god-damned piss pisses pissin pissing pisser pissers
    turd terd bollocks bugger fack fucka fuckup fkn fking fckn fcking fckin fkin fuckn"""
)
WEAK_INSULTS = _words(
    """stupid dumb loser losers clown clowns muppet noob trash garbage pathetic useless
    braindead jerk doofus bimbo bimbos floozy hussy nimrod ninny weirdo sissy schizo scum
    inbred idiots nobody joke jackass"""
)
INSULTS = _words(
    """idiot moron morons imbecile cretin retard retards retarded reetard ritard rtard r-tard
    tard dumbass dumbasses dumass douche douchebag douchebags douchey doosh duche douch3
    scumbag scumbags asshole assholes arsehole asswhole assmunch bastard bastards bitch
    bitches bitchass cunt cunts dickhead dickheads prick pricks twat twats twathead twatty
    twunt twunter wanker wankers tosser bellend knobhead nobhead knobend knobead knobed
    whore whores wh0re slut sluts slutbucket skank hoe hoes thot motherfucker motherfuckers
    mothafucka mothafucker mofo fucker fuckers fuckface fuckhead fuckheads fucknut fucktard
    fuckwit fuckwhit fuckwad fucktoy fuckass shithead shitface dipshit cocksucker cockface
    cockhead pedo pedophile nonce spaz spastic puto hobag fartknocker numbnuts mafugly
    sumofabiatch son-of-a-bitch s.o.b. sob s0b fatass jackhole punkass pussy pussies pussys
    pussi pusse"""
)
VULGAR_INSULTS = _words(
    """asshole assholes arsehole asswhole assmunch bastard bastards bitch bitches bitchass
    cunt cunts dickhead dickheads prick pricks twat twats twathead twatty twunt twunter
    wanker wankers tosser bellend knobhead nobhead knobend whore whores wh0re slut sluts
    slutbucket skank motherfucker motherfuckers mothafucka mothafucker mofo fucker fuckers
    fuckface fuckhead fuckheads fucknut fucktard fuckwit fuckwhit fuckwad fucktoy fuckass
    shithead shitface dipshit cocksucker cockface cockhead fartknocker sumofabiatch
    son-of-a-bitch fatass jackhole punkass pussy pussies pussys pussi pusse dumbass dumbasses
    dumass jackass hoe hoes thot"""
)
SLURS = _words(
    """nigger niggers nigga niggas niggaz niggah nigg nigg3r nigg4h n1gger n1gga n1gg n1g
    nig niglet nigguh faggot faggots fag fags fagg faggs fagot fagots faggit faggitt fagged
    fagging faig faigt kike kikes kyke heeb yid chink chinks gook gooks spic spics spick spik
    spiks wetback wetbacks beaner beaners coon coons jigaboo porchmonkey sandnigger raghead
    ragheads towelhead towelheads tranny trannies shemale dyke dykes lesbo lesbos lezbo lezbos
    lezzie lezzies lezzy homo homos h0m0 h0mo hom0 homoey paki pakis jap japs kraut krauts
    polack wop wops dago dagos honky honkies whitey wigger injun moolie negro negroes gyppo
    pikey carpetmuncher pillowbiter fudgepacker rumprammer gaylord"""
)
THREATS = _words("kys foad gfy kms")  # kms is self-directed; kept so tests document it
_NOT_THREATS = frozenset({"kms"})
_TIERED = SLURS | THREATS | INSULTS | WEAK_INSULTS | MILD

# Stems found glued inside longer tokens. Short or ambiguous stems (ass, cock, dick, tit, cum,
# spic, coon) are deliberately absent: they live inside ordinary words.
_GLUED_STEMS: dict[str, str] = {
    "motherfuck": "motherfucker",
    "fuck": "fuck",
    "shit": "shit",
    "bitch": "bitch",
    "cunt": "cunt",
    "nigger": "nigger",
    "nigga": "nigga",
    "faggot": "faggot",
    "asshole": "asshole",
    "dickhead": "dickhead",
    "cocksuck": "cocksucker",
    "whore": "whore",
    "wanker": "wanker",
    "retard": "retard",
    "slut": "slut",
}
_GLUED = re.compile("|".join(sorted(_GLUED_STEMS, key=len, reverse=True)))


def _tier_of(term: str) -> Entry:
    if term in SLURS:
        return Entry(term, "slur", False)
    if term in THREATS:
        return Entry(term, "threat", False)
    if term in INSULTS:
        return Entry(term, "insult", term in VULGAR_INSULTS)
    if term in WEAK_INSULTS:
        return Entry(term, "weak_insult", term in VULGAR_INSULTS)
    if term in MILD:
        return Entry(term, "mild", True)
    if any(stem in term for stem in ("fuck", "shit")) and term.endswith(
        ("head", "face", "wit", "whit", "tard", "wad", "nut", "er", "ers")
    ):
        return Entry(term, "insult", True)
    if any(stem in term for stem in ("fuck", "shit", "fuk", "phuk")):
        return Entry(term, "mild", True)
    return Entry(term, "vulgar", True)


def _canonical(raw: str) -> str:
    """A list entry in the form tokens take after normalisation ("sh!t" -> "shit")."""
    parsed = normalise(raw.lower())
    if (
        parsed.joined
        and len(parsed.joined) == 1
        and len(parsed.tokens) == len(parsed.joined[0].form)
    ):
        return parsed.joined[0].form
    return " ".join(t.form for t in parsed.tokens)


def _base_terms() -> set[str]:
    text = resources.files("better_profanity").joinpath("profanity_wordlist.txt").read_text()
    return {line.strip().lower() for line in text.splitlines() if line.strip()}


@dataclass(frozen=True, slots=True)
class Lexicon:
    exact: dict[str, Entry]
    stretched: dict[str, Entry]  # squeeze_all(term) -> entry, for "fuuuuck" and "asss"
    by_length: dict[int, tuple[Entry, ...]]  # for masked spellings ("f*ck", "b*llsh*t")
    # Multi-word entries by first word, so only phrases that could start here are searched.
    phrases: dict[str, tuple[tuple[re.Pattern[str], Entry], ...]]

    def lookup(self, form: str) -> Entry | None:
        return self.exact.get(form)


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    """Built once per process: the base list, tiered, with the allowlist removed."""
    terms = _base_terms() | MILD | INSULTS | WEAK_INSULTS | SLURS | THREATS
    exact: dict[str, Entry] = {}
    phrases: dict[str, Entry] = {}
    for raw in sorted(terms):
        if raw in POKER_ALLOWLIST:
            continue
        canonical = _canonical(raw)
        glued = canonical.replace(" ", "")
        if len(canonical) < 3 or canonical in POKER_ALLOWLIST or glued in POKER_ALLOWLIST:
            continue
        tiered = _tier_of(canonical if canonical in _TIERED else raw)
        entry = Entry(canonical, tiered.tier, tiered.vulgar)
        if " " in canonical:
            phrases.setdefault(canonical, entry)
            exact.setdefault(glued, Entry(glued, entry.tier, entry.vulgar))
        else:
            exact.setdefault(canonical, entry)
    stretched: dict[str, Entry] = {}
    by_length: dict[int, list[Entry]] = {}
    for term, entry in exact.items():
        stretched.setdefault(squeeze_all(term), entry)
        if len(term) >= 4 and entry.tier != "weak_insult":
            by_length.setdefault(len(term), []).append(entry)
    ordered = {
        n: tuple(sorted(es, key=lambda e: _MASK_ORDER[e.tier])) for n, es in by_length.items()
    }
    by_start: dict[str, list[tuple[re.Pattern[str], Entry]]] = {}
    for term, entry in phrases.items():
        pattern = re.compile(rf"\b{re.escape(term)}\b")
        by_start.setdefault(term.split()[0], []).append((pattern, entry))
    starts = {word: tuple(found) for word, found in by_start.items()}
    return Lexicon(exact, stretched, ordered, starts)


# A masked word is read as the mildest word it could be: "s**t" is "shit" before it is "slut".
_MASK_ORDER: dict[str, int] = {"mild": 0, "insult": 1, "vulgar": 2, "slur": 3, "threat": 4}


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
        if token.squeezed in POKER_ALLOWLIST:
            return None
        entry = lex.exact.get(token.squeezed) or lex.stretched.get(squeeze_all(form))
        if entry is not None:
            return entry, "stretched"
    if len(form) > 4 and not token.pair and form not in GLUED_ALLOWLIST:
        found = _GLUED.search(token.squeezed)
        if found is not None:
            return lex.exact[_GLUED_STEMS[found.group()]], "glued"
    return None


@lru_cache(maxsize=512)
def scan(text: str) -> tuple[Hit, ...]:
    """Every lexicon hit in `text`, in order; cached for the detectors that share a message."""
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
        if found is not None and not _is_name(parsed, index, found[0]):
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
    entry, a phrase's first word, a glued stem anywhere, or a short word that forms an entry
    with its neighbour ("fu ck"). True only when none can apply, so skipping is exact.
    """
    exact = lex.exact
    if not exact.keys().isdisjoint(words) or not lex.phrases.keys().isdisjoint(words):
        return False
    if _GLUED.search(" ".join(words)) is not None:
        return False
    return not any(
        (len(a) <= 2 or len(b) <= 2) and a + b in exact for a, b in itertools.pairwise(words)
    )


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
    glued = _GLUED.search(parsed.stream) is not None
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


def _is_name(parsed: Normalised, index: int, entry: Entry) -> bool:
    """ "nice hand Dick": a capitalised given name mid-sentence, or before a possessive."""
    if entry.term not in GIVEN_NAMES:
        return False
    token = parsed.tokens[index]
    typed = parsed.text[token.start : token.end]
    return typed.istitle() and (
        index > 0 or parsed.text[token.end : token.end + 1] in ("'", "\u2019")
    )


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


def is_threat_term(entry: Entry) -> bool:
    return entry.tier == "threat" and entry.term not in _NOT_THREATS


@dataclass(frozen=True, slots=True)
class Reason:
    """One thing a detector found in a message: what, as normalised and as typed, how bad."""

    label: str  # e.g. "directed insult", "threat", "slur"
    term: str
    original: str
    tier: str


def describe(reasons: list[Reason]) -> str:
    """ "directed insult 'idiot'; threat 'kys'": the reasons as an analyst reads them."""
    parts: list[str] = []
    for reason in reasons:
        part = f"{reason.label} '{reason.term}'"
        if reason.original.lower() != reason.term:
            part += f" (typed '{reason.original}')"
        if part not in parts:
            parts.append(part)
    return "; ".join(parts)


def reason_measures(reasons: list[Reason]) -> dict[str, MeasureValue]:
    return {
        "terms": [r.term for r in reasons],
        "originals": [r.original for r in reasons],
        "tiers": [r.tier for r in reasons],
        "count": len(reasons),
    }


def chat_finding(
    detector: str,
    category: Category,
    event: ChatEvent,
    severity: Severity,
    score: float,
    summary: str,
    measures: dict[str, MeasureValue],
    dedupe_key: str | None = None,
) -> Finding:
    return Finding(
        detector=detector,
        category=category,
        severity=severity,
        score=score,
        ts=event.ts,
        player_ids=(event.player_id,),
        table_id=event.table_id,
        tournament_id=event.tournament_id,
        message_ids=(event.message_id,),
        dedupe_key=dedupe_key,
        evidence=Evidence(
            kind=category,
            summary=summary,
            event_ids=(event.message_id,),
            measures={**measures, "severity": severity},
        ),
    )
