"""The game-chat insult tier: what online players call each other without a swear word.

Public game chat is insulted mostly in game words ("noob", "trash", "report this bot") that
better-profanity's list never held, and poker chat uses several of the same words innocently
("noob question", "trash hand", "bot at seat 3", "report the hand"). So the words here are
never abuse on their own: each has a strength that says how clearly a message must aim it at
someone (`chat.insult_aim` reads the aim), and the context words below are what the aim is
read from. Data only, like `abuse_words`, so a moderator can review and extend it.

- `GAME_LABELS`: words that are a put-down of a player whatever follows them. Aimed ("you
  noob", "noob team", "gg noob") they are harassment; said of a third person or of players in
  general ("he's a noob at this") they are low-severity insults; of oneself ("I'm such a
  noob"), or as a modifier of a thing ("noob question"), nothing.
- `GAME_WEAKEST`: words with a common innocent sense at a poker table or in game talk ("bot"
  is software or a lane, "monkey" a nickname): only a second person calling someone one is
  harassment ("you bot", "ur a monkey").

The weak insults already in `abuse_words.WEAK_INSULTS` ("trash", "garbage", "clown") sit in
between: aimed at someone, at teammates or through a report they are harassment; alone they
are not ("trash" after a look at one's cards).
"""

from __future__ import annotations

from railbird.detectors.text.abuse_words import word_set

GAME_LABELS = word_set(
    "noob noobs nub nubs noobie noobies nooby noobish noobest newb newbs leecher leechers"
)
GAME_WEAKEST = word_set("bot bots monkey monkeys")
GAME_WORDS = GAME_LABELS | GAME_WEAKEST

# A word after the insult that makes it describe a thing, not a person: "noob question",
# "trash hand", "garbage river", "bot lane", "noob friendly table".
THING_HEADS = word_set(
    """question questions mistake mistakes move moves trap traps friendly tip tips guide
    tables table tourney tourneys tournament tournaments stakes level levels lobby mode
    room rooms area zone tier league deck hand hands holding holdings cards card river
    rivers flop flops turn turns board boards kicker combo combos range ranges starting
    offsuit suited preflop draw draws luck beat beats run runs bet bets call calls raise
    shove play plays line lines spot spots talk talking talker talkers can cans bin bins bag heap
    pile fire day days night tv stuff account accounts program programs software script
    scripts detection farm farms ring rings net nets check checker lane lanes tower towers
    side rune runes camp camps build builds item items pick picks hero heroes game games
    site sites app apps client server rng"""
)
# Nouns whose "is/was" makes the insult a verdict on a thing: "my hand is trash", "that
# river was garbage", "this is trash".
THING_SUBJECTS = THING_HEADS | word_set("it this that these those everything something")
# Teammates and the people a game puts beside you: "noob team", "my team is trash".
TEAM_WORDS = word_set("team teams teammate teammates mates squad allies")
# A person head after the insult: "trash players", "noob player", "garbage teammates".
PEOPLE_HEADS = word_set("player players guy guys kid kids people dude dudes teammate teammates")
THIRD_PERSON = word_set("he hes she shes they theyre him her them his guy dude")
REPORT_VERBS = word_set("report reported reporting reports rep")
# Linking words between a subject and the insult it is called: "you are such a noob".
COPULAS = word_set("is are am was were be being r re s m")
LINKERS = word_set(
    """a an so such just really literally absolute absolutely total totally complete
    completely pure utter fucking fking fkn effing freaking big huge little fat still
    always also too"""
)
# What a bare name-calling message holds besides the insult: "gg noob", "noob lol", "ez noob".
FILLERS = word_set(
    """gg ez lol lmao lmfao haha hahaha xd wp ty omg wtf ok okay pls plz wow nice go well
    played hi hello bye cya lul kek rofl bro dude man"""
)
# Before a label, these make it players in general, not anyone here: "any noobs here?",
# "for noobs", "fellow noobs", "noob friendly".
GENERIC_BEFORE = word_set("any for fellow other new some most many all every")
# After a label at the start of a message, these make it a self-introduction: "noob here".
SELF_AFTER = word_set("here question")
