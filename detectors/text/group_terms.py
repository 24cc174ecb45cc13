"""The words hate reads when no slur is typed: protected groups, what is said of them, and the
frames that report or deny it.

Data only, kept apart from the reader (`chat.hate_patterns`) so that moderators can review
and extend the lists without reading matching code, as `abuse_words` is for the lexicon.
Groups are named with explicit plural and singular forms and adjectives that need a people
head ("gay people"); every predicate phrase is filed under the kind of remark it makes. All
words are as they look after normalisation: lower case, apostrophes split ("can t").
"""

from __future__ import annotations

from collections.abc import Sequence

from railbird.detectors.text.abuse_words import word_set

# -- the groups ------------------------------------------------------------------------------------
GROUP_PLURALS = word_set(
    """women females muslims moslems jews christians catholics hindus sikhs buddhists blacks
    whites asians africans arabs latinos latinas hispanics mexicans chinese japanese koreans
    vietnamese indians pakistanis gypsies romanians russians poles ukrainians turks nigerians
    filipinos brazilians immigrants migrants refugees foreigners illegals gays lesbians
    homosexuals bisexuals transgenders transsexuals"""
)
GROUP_SINGULARS = word_set(
    """woman female muslim moslem jew christian catholic hindu sikh buddhist asian african arab
    latino latina hispanic mexican indian pakistani gypsy romanian turk nigerian filipino
    immigrant migrant refugee foreigner lesbian homosexual bisexual transgender"""
)
# Need a people head: "gay people", "a trans person", "disabled folks", "female lives".
GROUP_ADJECTIVES = word_set(
    """black white gay trans transgender disabled handicapped jewish muslim islamic asian arab
    african mexican chinese indian female bisexual lesbian autistic immigrant"""
)
PEOPLE_HEADS = word_set(
    """people person persons men man women woman folk folks guys kids children individuals
    community lives life"""
)
# Plural nouns that are also adjectives ("the chinese player"): a group only when what
# follows them could continue a remark.
ALSO_ADJECTIVES = word_set("chinese japanese vietnamese")
# After an explicit group, these stand for it: "women think they're special. I hate them",
# "those women look human but they are parasites". Only as the subject of a derogation
# ("they") or the object of hatred ("them"): "...or hang them" is too often someone else.
PRONOUNS = word_set("they theyre them")
# Singular mentions after these are one person, not the group: "that woman is rude".
ONE_PERSON = word_set("that this the my his her your our their")
# Singulars that are never adjectives, and articles that make any singular a generic mention
# ("an immigrant", "every muslim"); otherwise "a muslim country" would be one.
NOUN_ONLY = word_set("woman jew migrant refugee foreigner gypsy turk")
GENERIC = word_set("a an any every no each next one")

# -- what is said of them --------------------------------------------------------------------------
# Kinds: derog (a derogation), exclude ("have no place"), positive (hate when negated: "not
# human"), modal, not modal ("shouldnt"), rid (an elimination after a modal), expel (an
# exclusion after a modal), can, allow (an exclusion when negated after a modal or "can":
# "can't play"), verb (a derogatory verb: "disgust me"), filler (linking words the window
# passes over).
AFTER: dict[str, str] = {}


def _kind(kind: str, phrases: str, table: dict[str, str] = AFTER) -> None:
    """Files the comma-separated `phrases` under `kind` in `table`."""
    for phrase in phrases.split(","):
        words = " ".join(phrase.split())
        if words:
            table[words] = kind


_kind(
    "derog",
    """vermin, rats, pests, a pest, parasites, cockroaches, roaches, insects, leeches, maggots,
    scum, scumbags, trash, garbage, filth, filthy, dirt, refuse, a disease, diseased, a cancer,
    cancer, a plague, plague, a virus, an infestation, a tumour, a tumor, abominations, an
    abomination, savages, barbarians, barbaric, subhuman, sub human, subhumans, lesser beings,
    less than human, freaks, degenerates, perverts, criminals, terrorists, rapists, thieves,
    cheaters, animals, apes, monkeys, pigs, dogs, mongrels, bots, inferior, worthless,
    stupid, stupidest, dumb, dumbest, idiots, morons, brainless, retarded, retards, evil,
    violent, uncivilised, uncivilized, primitive, backward, ignorant, lazy, greedy,
    disgusting, repulsive, revolting, repugnant, vile, despicable, sickening, gross,
    pathetic, smelly, dirty, mentally ill, a mental illness, sick in the head, fucked in the
    head, a threat, a danger, a burden, the worst, the absolute worst, no better than,
    assholes, bastards, pricks, an annoying prick, dickheads, motherfuckers, shitheads,
    useless, human garbage, human trash, a disgrace, no value""",
)
_kind("exclude", "no right, no rights, no place, no business, not welcome")
_kind(
    "positive",
    """human, humans, human beings, people, worth, worthy, valuable, equal, equals, matter,
    welcome, intelligent, smart, capable, trusted""",
)
_kind("modal", "should, shud, must, need to, needs to, ought to, deserve to, deserves to")
_kind("modal", "have to, has to, gotta, oughta")
_kind("can", "can, could")
_kind("not modal", "shouldnt, shouldn t, mustnt, mustn t")
# A modal only in a wish: "I wish all X would be shot", "better off if those X were eradicated".
_kind("wish modal", "would, would all, were, will")
_kind(
    "rid",
    """die, rot, burn, hang, be killed, killed, be shot, shot, be hanged, hanged, be hung, be
    gassed, gassed, be deported, deported, be exterminated, exterminated, be eradicated,
    eradicated, be executed, executed, be burned, burned, be burnt, be lynched, lynched, be
    slaughtered, be murdered, be tortured, be drowned, be sterilised, be sterilized,
    sterilized, be wiped out, wiped out, be put down, be castrated, be stoned, be euthanized,
    be culled, be purged, be dead, dead, be gotten rid of, be got rid of, suffer""",
)
# Told to go, not to die: exclusion.
_kind(
    "expel",
    """leave, go back, get out, fuck off, be removed, be banned, banned, be locked up, locked
    up, be caged, caged, be thrown out, be kicked out, kicked out, be dumped, dumped, shut up,
    shut the fuck up""",
)
_kind("allow", "be allowed, allowed, exist, play, vote, think, drive, live, marry, work, breed")
_kind(
    "verb",
    """disgust, disgusts, disgust me, make me sick, makes me sick, make me furious, make me so
    angry, make me angry, piss me off, ruin, ruins, ruined, ruining, infest, infesting, invade,
    invading, destroy, destroying, pollute, polluting, stink, smell, steal, stealing, belong in
    a zoo, belong in cages, belong in a cage, can t be trusted, cannot be trusted""",
)
_kind(
    "filler",
    """are, is, r, re, were, was, be, being, all, just, nothing but, such, so, really, truly,
    absolutely, literally, basically, totally, completely, utterly, simply, a, an, the, like
    you, like them, like that, like these, most, of, them, other, s, nature, to, in, always,
    also, still, only, seriously, pretty, very, way, too, just plain, without a doubt,
    without exception, fucking, kinda, kind of, sort of, actually, honestly, clearly, who,
    massive, complete, total, utter, that""",
)

# Before the group: hatred and violence, and the words they pass over to reach it.
BEFORE: dict[str, str] = {}
_kind(
    "hatred",
    """hate, despise, loathe, detest, can t stand, cant stand, cannot stand, sick of, tired of,
    disgusted by, nothing worse than, contempt for, disdain for, hatred for, hatred of, scorn
    for, fuck all, fuck these, fuck those, pissed off by""",
    BEFORE,
)
_kind(
    "violence",
    """kill, murder, shoot, stab, hang, gas, lynch, burn, exterminate, eradicate, slaughter,
    deport, execute, torture, rape, hurt, drown, strangle, behead, nuke, bomb, massacre,
    castrate, get rid of, wipe out, put an end to, death to, cut the throats of, snap the
    necks of, beat up, attacking, killed all, solution for""",
    BEFORE,
)
# "make those women suffer", "see them die": violence when the group is then told to suffer.
CAUSATIVES = word_set("make let see watch")
SUFFER = word_set("suffer die rot burn hang")
# Words before a remark that make it a wish: the only context where "would" is a modal.
WISHING = word_set("wish wishing hope if world")
PASSED_BEFORE = word_set(
    """all the those these every any more some a an that this next of them single one each you
    other kinds kind such so much most many for by around being near off every last"""
)
# Nouns of hatred describe someone else's unless the speaker has them: "your contempt for
# women" is counter-speech, "I feel nothing but contempt for women" is not.
HATRED_NOUNS = word_set("contempt disdain hatred scorn")

NEGATORS = word_set(
    """not never no t nt dont wont cant cannot shouldnt wouldnt isnt arent aint doesnt didnt
    opposite far"""
)
# What a group's possessive may be derogated through: "women's nature", "female lives".
OWN_NATURE = word_set("nature lives life kind")
# "... obvious that X": the negation before these belongs to the question, not the remark.
SEEING = word_set(
    "obvious clear apparent evident realise realize recognise recognize agree notice see"
)
# A clause ends here; "." is what the reader puts between sentences.
BREAKERS = word_set("but because though although unless while whereas yet except .")
# -- counter-speech --------------------------------------------------------------------------------
# A remark after one of these is reported or denounced, not made.
REPORTING = word_set(
    """saying calling writing telling claiming tweeting posting statements statement comments
    comment remarks threats"""
)
# ... or after one of these followed by "like": "things like", "messages like".
LIKE_HEADS = word_set("things stuff words messages message tweets posts jokes")
# ... or after these with someone else (or a negation) as their subject: "you said", "people
# who call", "I never said".
SPEECH = word_set("say says said call calls called write writes wrote claim claims tell told")
OTHERS = word_set("you u he she they people someone somebody who anyone everyone others")
FIRST_PERSON = word_set("i im m me we")
DENOUNCING = word_set(
    """racist racism bigot bigots bigoted bigotry hateful homophobic homophobia homophobes
    homophobe sexist sexism misogynist misogynistic misogyny transphobic transphobia
    xenophobic xenophobia islamophobic islamophobia antisemitic antisemitism"""
)
# After a group noun, these (and the linking kinds of `AFTER`) show it is a noun, not an
# adjective: "chinese are dirty", "muslims who", but not "the chinese player".
CONTINUING = word_set("like who can could would will do don have has had think deserve")
LINKING = frozenset({"filler", "modal", "not modal", "can", "wish modal"})

# -- calls for violence ----------------------------------------------------------------------------
# "death to X" and "the solution for X" call for violence whoever says them.
ALWAYS_CALLED = word_set("death solution")
INTENT = word_set(
    """i we ill ll will gonna wanna want should must lets let someone somebody need needs gotta
    love shall imma ima going would d"""
)
# A message that starts with these before the verb is still an imperative: "just kill them".
IMPERATIVE_LEAD = word_set("just pls please plz go gg lol and so")

# -- slurs named, not used -------------------------------------------------------------------------
# "saying X", "calling people X": the gerund names the word; "calling you X" uses it.
NAMING_GERUNDS = word_set("saying calling using writing")
GENERIC_OBJECTS = word_set("people someone somebody others anyone a an the")


# -- the gate --------------------------------------------------------------------------------------


def _words_of(phrases: Sequence[str]) -> set[str]:
    return {w for p in phrases for w in p.split() if w not in _COMMON}


# Words too common to gate on; every phrase keeps at least one other word (checked below).
_COMMON = word_set("a an the to be of in no not any me all is are were")
GROUP_WORDS = GROUP_PLURALS | GROUP_SINGULARS | GROUP_ADJECTIVES
_DECISIVE = ("derog", "exclude", "positive", "verb", "rid", "expel", "allow")
TRIGGERS = frozenset(
    _words_of([p for p, k in AFTER.items() if k in _DECISIVE]) | _words_of(list(BEFORE))
)
if any(not _words_of([p]) for p, k in [*AFTER.items(), *BEFORE.items()] if k in _DECISIVE):
    raise ValueError("a remark phrase made only of common words would slip past the gate")


# What a spaced-out run of letters is read as, when it spells one of these ("w o m e n").
SPACED_VOCABULARY = GROUP_WORDS | TRIGGERS | PEOPLE_HEADS
