"""Violating chat, one generator per contract category, with the evasions real abusers use.

Obfuscation (spacing, symbols, repeated letters, Cyrillic look-alikes, leetspeak) is applied to a
share of lines so that detectors are measured on what moderators actually see.
"""

from __future__ import annotations

import random

from railbird.sim.chat_lines import casual, expand

_CYRILLIC = {  # look-alike letters
    "a": "\u0430",
    "c": "\u0441",
    "e": "\u0435",
    "o": "\u043e",
    "p": "\u0440",
    "x": "\u0445",
    "y": "\u0443",
    "i": "\u0456",
    "s": "\u0455",
}
_LEET = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "$", "t": "7"}
_SYMBOL = {"i": "!", "a": "@", "s": "$", "u": "*", "o": "0"}


def obfuscate(word: str, rng: random.Random) -> str:
    """One of the evasions seen in moderation queues, chosen at random."""
    trick = rng.randrange(7)
    if trick == 0:
        return rng.choice((" ", ".", "_", "-")).join(word)
    if trick == 1:
        vowels = [i for i, ch in enumerate(word) if ch in "aeiou"]
        if vowels:
            i = rng.choice(vowels)
            return word[: i + 1] + word[i] * rng.randint(2, 5) + word[i + 1 :]
        return word + word[-1] * 3
    if trick == 2:
        return "".join(_CYRILLIC.get(ch, ch) if rng.random() < 0.6 else ch for ch in word)
    if trick == 3:
        return "".join(_LEET.get(ch, ch) for ch in word)
    if trick == 4:
        out = list(word)
        for i, ch in enumerate(out):
            if ch in _SYMBOL:
                out[i] = _SYMBOL[ch]
                break
        return "".join(out)
    if trick == 5:
        return word[0] + "*" * (len(word) - 2) + word[-1] if len(word) > 3 else word
    return word.upper()


def _maybe(word: str, rng: random.Random, share: float = 0.4) -> str:
    return obfuscate(word, rng) if rng.random() < share else word


def _lines(block: str) -> tuple[str, ...]:
    return tuple(line.strip() for line in block.strip().splitlines())


def _words(joined: str) -> tuple[str, ...]:
    return tuple(joined.split("|"))


def _pick(rng: random.Random, templates: tuple[str, ...], **slots: str) -> str:
    return casual(expand(rng.choice(templates), rng, **slots), rng)


_SWEAR = _words("fuck|shit|fucking|bullshit|asshole|dickhead|motherfucker|cunt|bitch|prick|wanker")
_INSULT = _words(
    "idiot|moron|clown|loser|braindead fish|waste of oxygen|donkey brain|"
    "absolute muppet|pathetic nobody|trash human|imbecile"
)
_GROUPS = _words(
    "russians|women|muslims|jews|gays|asians|mexicans|africans|indians|immigrants|"
    "arabs|chinese|poles|gypsies"
)
_PROFANITY = _lines("""
    what the {s}
    {s} this [site|rng|game|river]
    [this|that] [river|deck|shuffle] is {s}
    {s} {s2}
    [oh|ah|omg] {s}
    [such|total] {s} [cards|luck|beat]
    {s}ing [river|turn|donks]
    rigged {s} [site|software]
    {s}!!!
    are you {s} kidding me
""")
_HARASSMENT = _lines("""
    {t} you [absolute|complete|total] {i}
    [kys|k y s|kill yourself] {t}
    uninstall [you|] {i}
    {t} is the worst [player|donk] [ever|here], [quit|go away]
    i hope you [lose everything|go broke] {t}
    i [know|will find] where you live {t}
    [go cry to|ask] your [mom|mommy] {t}
    {t} [braindead|clueless] {i}
    [shut up|stfu] {t} nobody [asked|cares]
    {t} {s} {i}
    [you play like|ur] a {i} {t}
    {t} [ur|you're] a {s}
""")
_HATE = _lines("""
    {g} [shouldnt|should not] be allowed to [play|exist]
    typical {g}, [all|always] [cheaters|thieves]
    go back to your [country|village] {t}
    {g} are [subhuman|animals|vermin]
    no {g} at my table
    [of course|ofc] {t} is one of those {g}
    [all|dirty] {g} [ruin|ruining] this [site|game]
    {g} [need to|should] be [wiped out|gotten rid of]
""")
_SHOUT = _lines("""
    WHY DOES EVERYONE CALL WITH [TRASH|GARBAGE] ON THIS [SITE|TABLE]
    [THIS SITE|THIS GAME] IS [RIGGED|A JOKE] [100%|I SWEAR|!!!]
    [HURRY|PLAY] [UP|FASTER] [ALREADY|PEOPLE]!!!
    [WAKE UP|ACT] [TABLE|PEOPLE] [COME ON|!!]
    [I AM DONE|NEVER AGAIN] WITH THIS [SITE|GARBAGE] [!!!|!!]
""")
_FLOOD = _words("lol|LOL|?|??|hurry|come on|zzz|click|act|...|wake up|cmon|yawn|omg|ffs play|1")
_ADS = _lines("""
    [cheap|discount|fast] chips [for sale|here], {d}
    rakeback [30|40|45|50|60]% [dm|msg|text] me on [telegram|tg|signal] {h}
    [best|pro] poker coaching [at|on] {d}, [first lesson free|50% off]
    selling [accounts|chips|stakes] [cheap|!!] {h}
    join my [club|private game] on [pppoker|a private app|telegram], code {n}
    [staking|backing] available, [message|pm] {h}
    [visit|check out|go to] {d} [for|=] [free rolls|bonus|the best odds]
    [buy|get] [tourney|mtt] tickets [cheap|half price] at {d}
""")
_PHISH = _lines("""
    free [10k|50k|100k] chips, claim [here|now] {u}
    your hand history [is here|replay] {u}
    [vote|click] for me [pls|please] {u}
    bonus code expiring [today|soon] {u}
    [lol|omg] look at this [hand|video] {u}
    [claim|get] your [rakeback|reward] {u}
    [sign|log] in [here|at] {u} to [unlock|get] [the freeroll|your prize]
""")
_ASK_PII = _lines("""
    {t} [whats|what's|what is] your [email|e-mail|phone number|number|real name]
    [send|dm|give] me your [number|email|address|phone] {t}
    {t} add me on [discord|snap|insta|telegram|facebook]
    [where|what city] do you live [exactly|{t}|]
    {t} [whats|tell me] your [password|login] [lol|], ill [check|fix] your [hands|stats]
    {t} [how old|what age] are you and where [from|do you live]
    [can i|lemme] get your [cell|mobile|number] {t}
""")
_TELL_PII = _lines("""
    my [number|cell|phone] is {p} [text me|call me|]
    [email|mail] me [at|:] {e}
    {t} is really {r}, lives [at|on] {a}
    {t}s real name is {r} [lol|fyi|]
    i live at {a}, come [find|get] me
    {t} [number|phone] is {p} [lol|call him|]
    [my|] [card|visa] [is|] 4{c} [exp|] [0{m}/2{y}|]
""")
_STAFF = _lines("""
    [Support|Support team|SUPPORT]: {t} account [is locked|was flagged], [verify|confirm] at {u}
    [Admin|Moderator|Security] here, {t} [send|confirm] your [password|login] to [avoid a ban|me]
    [Official|Site] notice: [you won|congrats, you got] a [bonus|prize], [claim|log in] at {u}
    [Security team|Account security]: unusual activity on {t}, reply with your [email|password]
    this is [cashier|VIP] support, {t} your payout is on hold, [send|verify] your [card|id]
""")


def profanity(rng: random.Random, target: str) -> str:
    return _pick(
        rng, _PROFANITY, s=_maybe(rng.choice(_SWEAR), rng), s2=_maybe(rng.choice(_SWEAR), rng)
    )


def harassment(rng: random.Random, target: str) -> str:
    return _pick(
        rng,
        _HARASSMENT,
        t=target,
        i=_maybe(rng.choice(_INSULT), rng, 0.25),
        s=_maybe(rng.choice(_SWEAR), rng),
    )


def hate(rng: random.Random, target: str) -> str:
    return _pick(rng, _HATE, g=_maybe(rng.choice(_GROUPS), rng, 0.2), t=target)


def shouting(rng: random.Random) -> str:
    return expand(rng.choice(_SHOUT), rng)


def flood_line(rng: random.Random) -> str:
    return rng.choice(_FLOOD)


def emoji_spam(rng: random.Random) -> str:
    return rng.choice("🤑😂💩🖕🤡🔥💰😴🐟🐳") * rng.randint(6, 20)


def _domain(rng: random.Random, shady: bool) -> str:
    left = rng.choice(("chip", "poker", "rake", "ace", "bonus", "stack", "vip", "free", "royal"))
    right = rng.choice(("dealz", "zone", "king", "hub", "4u", "club", "mart", "pro", "plus"))
    tlds = (".xyz", ".top", ".ru", ".biz", ".click", ".win") if shady else (".com", ".net", ".io")
    return f"{left}{right}{rng.randint(1, 99) if rng.random() < 0.4 else ''}{rng.choice(tlds)}"


def advertising(rng: random.Random) -> str:
    domain = _domain(rng, shady=False)
    if rng.random() < 0.3:
        domain = domain.replace(".", rng.choice((" . ", " dot ", "(.)")))
    handle = (
        rng.choice(("@", ""))
        + rng.choice(("chip", "rake", "stake", "coach"))
        + rng.choice(("seller", "_pro", "deals", "master", "king"))
        + str(rng.randint(1, 999))
    )
    return _pick(rng, _ADS, d=domain, h=handle, n=str(rng.randint(1000, 99999)))


def bad_link(rng: random.Random) -> str:
    if rng.random() < 0.25:
        alphabet = "abcdefghijkmnpqrstuvwxyzABCDEFGH23456789"
        return "bit.ly/" + "".join(rng.choice(alphabet) for _ in range(7))
    path = rng.choice(("/login", "/claim", "/verify", "/bonus", "/free", "/hh", "/gift"))
    scheme = rng.choice(("http://", "https://", "hxxp://", "", "www."))
    return f"{scheme}{_domain(rng, shady=True)}{path}"


def malicious_link(rng: random.Random) -> str:
    return _pick(rng, _PHISH, u=bad_link(rng))


def pii_solicitation(rng: random.Random, target: str) -> str:
    return _pick(rng, _ASK_PII, t=target)


def pii_disclosure(rng: random.Random, target: str, real_name: str) -> str:
    phone = f"{rng.randint(200, 989)}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}"
    first = real_name.split()[0].lower()
    host = rng.choice(("gmail", "yahoo", "outlook", "hotmail"))
    email = f"{first}{rng.choice(('.', '_', ''))}{rng.randint(1, 99)}@{host}.com"
    if rng.random() < 0.2:
        email = email.replace("@", rng.choice((" at ", "[at]"))).replace(".com", " dot com")
    street = rng.choice(("oak", "maple", "main", "high", "elm", "park"))
    address = f"{rng.randint(1, 999)} {street} {rng.choice(('st', 'street', 'ave', 'road'))}"
    card = " ".join(str(rng.randint(1000, 9999)) for _ in range(3)) + f" {rng.randint(100, 999)}"
    return _pick(
        rng,
        _TELL_PII,
        p=phone,
        e=email,
        t=target,
        r=real_name,
        a=address,
        c=card,
        m=str(rng.randint(1, 9)),
        y=str(rng.randint(6, 9)),
    )


def impersonation(rng: random.Random, target: str) -> str:
    return expand(rng.choice(_STAFF), rng, t=target, u=bad_link(rng))


def real_name(rng: random.Random) -> str:
    first = rng.choice(_words("John|Maria|Peter|Laura|Kevin|Sandra|Tomasz|Aisha|Marcus|Elena"))
    last = rng.choice(_words("Miller|Kowalski|Nguyen|Smith|Garcia|Brown|Jensen|Okafor|Rossi"))
    return f"{first} {last}"
