"""The abusive-word lists: better-profanity's words sorted into tiers, minus poker talk.

Data only, kept apart from the matcher (`abuse_lexicon`) so a moderator can review and edit the
words without reading matching code. Every list is a frozenset of lower-case terms as they look
after normalisation; `abuse_terms.lexicon()` adds better-profanity's own list and tiers it.
"""

from __future__ import annotations


def word_set(text: str) -> frozenset[str]:
    """The whitespace-separated words of a list written as one string."""
    return frozenset(text.split())


# Poker and everyday words in better-profanity's list: never flagged on their own. "monkey" is
# not here: it is a game-chat word (`game_insults`) that only "you monkey" makes abuse.
POKER_ALLOWLIST = word_set(
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
    yankees charlie ghetto hillbilly redneck oreo brownie cracker crackers
    spunk titties5 asianSanchez asanchez x-rated2g1c cipa escort sob"""
)
GIVEN_NAMES = frozenset({"dick", "randy", "fanny", "willy", "rod"})
# Titles before a surname ("Mr Dikshit"), and capitalised words that are never part of a name
# beside a term (pronouns, articles, the first words of an insult: "You Bitch", "Shut Up").
NAME_TITLES = word_set("mr mrs ms miss dr sir lady lord mister madam prof st")
NOT_NAMES = word_set(
    "i you your youre ur u he she it we they him her his them their this that these those "
    "the a an my our go get shut fuck fucking stupid dumb fat ugly little big dirty filthy "
    "lol lmao omg wtf gg nh ty what why who how hey oh yo and or but not so such"
)
# Words with an innocent life inside longer tokens that glued-swear matching must not break.
GLUED_ALLOWLIST = word_set(
    "scunthorpe shitake shiitake mishit retardant retardants snigger sniggers sniggering sniggered"
)

MILD = word_set(
    """ass arse arrse 4r5e asses bullshit bitchin bitching fuck fucked fuckin fucking fuckings
    fucks fuk fuks fukin fukkin fukking fcuk fcuking fvck fxck phuck phuk phuked phuking
    phukked phukking phuks phuq feck fook frigg frigga fux fux0r shit shits shitty shite
    shitting shitted shitt shited shiting shitings shittings shitfull shiz goddamn goddam godamn
    godamnit goddammit goddamned god-dam god-damned piss pisses pissin pissing pisser pissers
    turd terd bollocks bugger fack fucka fuckup fkn fking fckn fcking fckin fkin fuckn"""
)
WEAK_INSULTS = word_set(
    """stupid dumb loser losers clown clowns muppet trash garbage pathetic useless
    braindead jerk doofus bimbo bimbos floozy hussy nimrod ninny weirdo sissy schizo scum
    inbred idiots nobody joke jackass"""
)
INSULTS = word_set(
    """idiot moron morons imbecile cretin retard retards retarded reetard ritard rtard r-tard
    tard tards retad retads retared dumbass dumbasses dumass douche douchebag douchebags douchey
    doosh duche douch3
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
VULGAR_INSULTS = word_set(
    """asshole assholes arsehole asswhole assmunch bastard bastards bitch bitches bitchass
    cunt cunts dickhead dickheads prick pricks twat twats twathead twatty twunt twunter
    wanker wankers tosser bellend knobhead nobhead knobend whore whores wh0re slut sluts
    slutbucket skank motherfucker motherfuckers mothafucka mothafucker mofo fucker fuckers
    fuckface fuckhead fuckheads fucknut fucktard fuckwit fuckwhit fuckwad fucktoy fuckass
    shithead shitface dipshit cocksucker cockface cockhead fartknocker sumofabiatch
    son-of-a-bitch fatass jackhole punkass pussy pussies pussys pussi pusse dumbass dumbasses
    dumass jackass hoe hoes thot"""
)
SLURS = word_set(
    """nigger niggers nigga niggas niggaz niggah nigg nigg3r nigg4h n1gger n1gga n1gg n1g
    nig niglet nigguh faggot faggots fag fags fagg faggs fagot fagots faggit faggitt fagged
    fagging faig faigt kike kikes kyke heeb yid chink chinks gook gooks spic spics spick spik
    spiks wetback wetbacks beaner beaners coon coons jigaboo porchmonkey sandnigger raghead
    ragheads towelhead towelheads tranny trannies shemale dyke dykes lesbo lesbos lezbo lezbos
    lezzie lezzies lezzy homo homos h0m0 h0mo hom0 homoey paki pakis jap japs kraut krauts
    polack wop wops dago dagos honky honkies whitey wigger injun moolie negro negroes gyppo
    pikey carpetmuncher pillowbiter fudgepacker rumprammer gaylord fagget faggets muzzie
    muzzies mudslime mudslimes muzrat muzrats sheboon sheboons shitskin shitskins rapefugee
    rapefugees"""
)
# Slurs of two words, each innocent alone ("towel", "head"): matched only as the phrase.
SLUR_PHRASES = frozenset({"ching chong", "towel head", "rag head", "camel jockey"})
THREATS = word_set("kys foad gfy kms")  # kms is self-directed; kept so tests document it
NOT_THREATS = frozenset({"kms"})
TIERED = SLURS | SLUR_PHRASES | THREATS | INSULTS | WEAK_INSULTS | MILD

# Stems found glued inside longer tokens. Short or ambiguous stems (ass, cock, dick, tit, cum,
# spic, coon) are deliberately absent: they live inside ordinary words.
GLUED_STEMS: dict[str, str] = {
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

# Other languages' words that meet an English term once their accents are folded away: German
# "höre" (I hear) folds to "hore". Only these, as typed: any other accent on an English term is a
# disguise ("fück", "you mörön", "ur a fàg") and still matches.
ACCENTED_FOREIGN_WORDS = word_set("höre hörer hört")

# English terms that are ordinary words of another language, by that language: in a message
# the language identifier places in it, they are that language's word ("negro" is the colour
# black in Spanish, Portuguese and Italian; "puto" is "angry" in Brazilian Portuguese; "homo"
# and "porno" are plain German; "nad" is Polish and Czech "above"; "teste" Portuguese "test").
HOMOGRAPHS: dict[str, frozenset[str]] = {
    "es": word_set("negro negros"),
    "pt": word_set("negro negros puto teste"),
    "it": word_set("negro negri"),
    "de": word_set("homo homos porno"),
    "nl": word_set("homo porno"),
    "pl": word_set("nad porno"),
    "cs": word_set("nad porno"),
    "tr": word_set("porno"),
}
# The languages whose messages are read that way: those of the multilingual tier, and Dutch.
ROOM_LANGUAGES = word_set("ru pl cs de es pt fr tr it el ar nl uk")
# English endings an English term may carry in a message in another language; any other
# ending is that language's inflection of a borrowed word ("retardada", "idioten"), which the
# multilingual tier reads with its own language's meaning.
ENGLISH_ENDINGS = ("", "s", "es", "ed", "d", "ing", "in", "er", "ers", "y", "ies", "ish")

# German "Ass" is the ace: after an article, a possessive or a count it is never the English
# word ("fürchte das Ass", "zwei Asse", "mein Ass").
GERMAN_ACE_BEFORE = word_set(
    "das ein kein mein dein sein ihr unser euer jedes zwei drei vier beide"
)
