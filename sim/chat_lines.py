"""Honest table talk: greetings, reactions, moans, slang, small talk and card talk.

Lines come from small grammars (`[a|b]` picks one, `{slot}` fills a value) so the same intent is
worded many ways and a detector cannot learn a short list of strings. Honest talk deliberately
uses poker words that naive filters misread ("donk", "nuts", "suck out", "kill pot", "ship it").
"""

from __future__ import annotations

import random
import re

_ALT = re.compile(r"\[([^\[\]]*)\]")
RANK_WORDS = {
    "A": "ace",
    "K": "king",
    "Q": "queen",
    "J": "jack",
    "T": "ten",
    "9": "nine",
    "8": "eight",
    "7": "seven",
    "6": "six",
    "5": "five",
    "4": "four",
    "3": "three",
    "2": "deuce",
}
PLURAL = {"six": "sixes", "deuce": "deuces"}


def expand(template: str, rng: random.Random, **slots: str) -> str:
    """Pick one option from each `[a|b|c]` (innermost first), then fill `{slot}`s."""
    text = template
    while "[" in text:
        text = _ALT.sub(lambda m: rng.choice(m.group(1).split("|")), text)
    text = text.format(**slots) if slots else text
    return " ".join(text.split()).replace(" ,", ",")


def say(rng: random.Random, templates: tuple[str, ...], **slots: str) -> str:
    return casual(expand(rng.choice(templates), rng, **slots), rng)


def casual(text: str, rng: random.Random) -> str:
    """Online casing habits: mostly lower case, sometimes a capital or trailing punctuation."""
    roll = rng.random()
    if roll < 0.12:
        text = text[:1].upper() + text[1:]
    elif roll < 0.16:
        text += rng.choice(("!", "!!", "..", " :)", " lol"))
    return text


def cards_text(cards: tuple[str, str] | list[str], rng: random.Random) -> str:
    """Hole cards the ways players type them: `7h7c`, `77`, `pocket sevens`, `ace king`."""
    a, b = cards[0], cards[1]
    ra, rb = RANK_WORDS[a[0]], RANK_WORDS[b[0]]
    suited = a[1] == b[1]
    roll = rng.random()
    options: tuple[str, ...]
    if a[0] == b[0]:
        options = (
            f"{a}{b}",
            f"{a} {b}",
            a[0] * 2,
            f"pocket {PLURAL.get(ra, ra + 's')}",
            f"{a[0]}{b[0]}",
            PLURAL.get(ra, ra + "s"),
            f"{a[0]}-{b[0]}",
        )
    else:
        tail = "s" if suited else rng.choice(("o", ""))
        options = (
            f"{a}{b}",
            f"{a} {b}",
            f"{a[0]}{b[0]}{tail}",
            f"{ra} {rb}",
            f"{a[0]}{b[0]}",
            f"{ra}-{rb}{' suited' if suited and roll < 0.5 else ''}",
        )
    return rng.choice(options)


GREET = (
    "[hi|hey|hello|yo|evening|sup] [all|guys|everyone|table|folks|]",
    "[gl|good luck] [all|everyone|guys|]",
    "gl gl",
    "[hi|hey] from {place}",
    "[evening|morning] [all|table], gl",
)
NICE_HAND = (
    "nh",
    "nh",
    "n1",
    "[nice|good] hand",
    "nh {name}",
    "wp",
    "well played",
    "[nice|sick] [call|fold|bluff]",
    "gj",
    "nh sir",
    "ok nh",
)
GG = (
    "gg",
    "gg",
    "ggs",
    "gg [all|wp|guys|everyone]",
    "gg, gl [rest|all]",
    "[unlucky|bad luck], gg",
    "gg [was fun|see ya]",
    "[gl|good luck] all, [gone|out]",
)
THANKS = ("ty", "ty ty", "thx", "thanks", "ty [sir|all|guys]", "tyty", "[cheers|thx], lucky")
MOAN = (
    "[unreal|unbelievable|wow]",
    "every[ single|] time",
    "[how|why] does he call that",
    "[sick|brutal|filthy] river",
    "rivered [again|every time]",
    "cant win a flip [today|tonight|all day]",
    "suck out city",
    "[of course|ofc] the [river|turn]",
    "runner runner[ nice|, sure|]",
    "[2|3|one|two] outer[s|] [wow|lol|nice]",
    "the [dealer|rng] hates me",
    "cooler",
    "i [never|cant] hold",
    "[such a|what a] suck out",
    "[how|why] am i [always|] behind",
    "that donk [hit|got there] [again|]",
    "donk [call|shove] gets paid [again|as usual]",
)
SLANG = (
    "[ship it|ship it!!|ship!]",
    "[had|got] the nuts",
    "nut [flush|straight] [lol|baby|]",
    "[fish|donk] [on|at] this table[ lol|]",
    "run good",
    "variance[ lol|, man|]",
    "[ugh|meh|welp]",
    "[lol|lmao|haha]",
    "[nice|sweet] [bluff|hero call]",
    "[snap|hero] call",
    "[what a|nice] donk bet",
    "set over set [lol|ouch|]",
    "the nuts [every time|again]",
    "[we|im] [card dead|running bad]",
)
SMALL_TALK = (
    "[where|where's] everyone from",
    "anyone [watching|seen] the [game|match]",
    "brb",
    "back",
    "[coffee|beer|snack] time",
    "long day[ lol|]",
    "how many [left|players left]",
    "break soon[?|]",
    "blinds going up [fast|quick]",
    "[tired|sleepy] lol",
    "{place} here",
    "first time [playing|in] this one",
    "[my|] [wifi|internet] is [slow|laggy] today",
    "[dinner|pizza] [is here|arrived]",
    "[who|anyone] [else|] from {place}?",
    "[lol|haha] [my cat|the dog] just [walked on|jumped on] the keyboard",
)
BANTER = (  # friendly talk with mild words that naive filters flag
    "damn that [river|turn|flop] lol",
    "hell of a [hand|call|fold]",
    "god run [for you|today] lol",
    "kill pot [incoming|next] lol",
    "sick suck out lmao",
    "damn [son|dude]",
    "[holy|oh] crap",
    "balls of steel [calling that|on that call]",
    "what the heck [was that|lol]",
    "you lucky [sod|devil] haha",
    "[bloody hell|blimey] nice [hand|one]",
    "this [sucks|blows] lol gl",
    "crap cards all [night|day] lol",
    "nuts [again|every hand] you [bastard|rascal] lol",
    "[damn|dang] you got me good",
    "[shove|jam] it[ lol|!]",
    "lmao [that|the] [river|turn]",
)
IN_HAND_TALK = (  # a player still in the hand, about anything but the hand
    "[sry|sorry] [lag|slow|laggy]",
    "one sec[ sorry|]",
    "[my|] [wifi|internet|connection] [is|] [lagging|acting up]",
    "brb after this [hand|one]",
    "[door|phone] sorry",
)
SPILL_TALK = (  # late reactions to the hand that just ended, typed as the next one is dealt
    "nh",
    "nh",
    "ty",
    "thx",
    "gg",
    "[nice|good] hand",
    "wp",
    "ty ty",
    "gl [all|guys]",
)
OFF_TABLE_REACTION = (  # tournament chat about a bust-out somewhere else
    "gg {name}",
    "[rip|unlucky] {name}",
    "[wow|damn] {name} [out|busted]",
    "[nice|another] ko",
    "gg",
    "[bye|cya] {name}",
)
EMOJI_TALK = ("👍", "😂", "🙈", "🤣", "😎", "👏", "🔥", "😬", "🍀", "😅", "🙏", "😢", "🤦")
CARD_TALK = (
    "[had|i had] {cards} [lol|there|fwiw|]",
    "folded {cards} [there|preflop|lol|]",
    "[laid down|mucked] {cards}[ :(| ugh|]",
    "{cards} no good[ lol|]",
    "[good|nice] fold, i had {cards}",
    "[was|i was] [holding|on] {cards}",
    "{cards} [again|lol], cant win with it",
)
RAILBIRD_TALK = (
    "[gl|go get em|come on] {name}",
    "[sweating|railing] {name}[ lol|]",
    "[gogo|lets go] {name}",
    "[nice|wp] {name}",
    "{name} [ship it|take it down]",
)
TOURNEY_TALK = (
    "how many [left|to the money]",
    "[when|] [is|] the break[?|]",
    "gl all",
    "[bubble|money] soon?",
    "what [level|blinds] are we at",
    "[avg stack|average] [is|] [what|?]",
    "[gl|good luck] everyone",
)
LOBBY_TALK = (
    "anyone up for [heads up|hu]?",
    "[any|] good [tourneys|mtts] tonight?",
    "[hi|hey] lobby",
    "[which|what] [table|game] is [soft|juicy]",
    "[lol|ok] [nvm|never mind]",
    "gl everyone tonight",
)
PRIVATE_TALK = (
    "[gl|good luck] in the [tourney|mtt|game]",
    "how [deep|many chips] are you?",
    "[lol|haha] [saw|watched] that hand",
    "[wanna|want to] play [later|tomorrow]?",
    "[ugh|damn] [busted|out] [early|]",
    "[gg|nice run] man",
)
PLACES = (
    "texas",
    "berlin",
    "toronto",
    "sydney",
    "manchester",
    "ohio",
    "lisbon",
    "oslo",
    "dublin",
    "vegas",
    "quebec",
    "the uk",
    "brazil",
    "poland",
    "jersey",
    "cali",
)


def greeting(rng: random.Random) -> str:
    return say(rng, GREET, place=rng.choice(PLACES))


def small_talk(rng: random.Random) -> str:
    return say(rng, SMALL_TALK, place=rng.choice(PLACES))
