"""Screen names that look like a real lobby: handles, first names with digits, poker puns.

A handful of accounts use staff-like names, because impersonators rely on the name as much as
on the text.
"""

from __future__ import annotations

import random

_FIRST = (
    "mike",
    "dave",
    "anna",
    "jess",
    "tom",
    "lena",
    "carlos",
    "yuki",
    "olga",
    "sam",
    "nina",
    "raj",
    "pete",
    "mia",
    "joao",
    "lars",
    "ivan",
    "chloe",
    "amir",
    "kate",
    "ben",
    "sofia",
    "marco",
    "emma",
    "hugo",
    "zoe",
    "leo",
    "tara",
    "finn",
    "ines",
    "kofi",
    "priya",
    "sven",
)
_ADJ = (
    "Lucky",
    "Silent",
    "Crazy",
    "Big",
    "Lil",
    "Sneaky",
    "Royal",
    "Wild",
    "Cold",
    "Golden",
    "Salty",
    "Tilted",
    "Sharp",
    "Lazy",
    "Iron",
    "Happy",
    "Grumpy",
    "Flying",
    "Deep",
    "Fishy",
)
_NOUN = (
    "Shark",
    "Donk",
    "River",
    "Ace",
    "Bluff",
    "Nuts",
    "Fish",
    "Whale",
    "Grinder",
    "Rounder",
    "Stack",
    "Chip",
    "Kicker",
    "Flush",
    "Jack",
    "Queen",
    "King",
    "Rat",
    "Cowboy",
    "Hammer",
    "Tiger",
    "Wizard",
    "Ninja",
    "Panda",
    "Viking",
    "Ghost",
    "Rocket",
    "Bandit",
    "Maverick",
)
_POKER = (
    "AceHunter",
    "RiverRat",
    "PocketRockets",
    "SuitedConnector",
    "CheckRaiser",
    "AllInAndy",
    "FoldEmFred",
    "NutLow",
    "GutShot",
    "BigSlick",
    "DeuceSeven",
    "QuadQueen",
    "SetMiner",
    "OvercallOllie",
    "BubbleBoy",
    "FloatKing",
    "ShoveMonkey",
    "TiltProof",
    "CoolerMagnet",
)
STAFF_NAMES = (
    "Support_Team",
    "PokerSupport",
    "Admin_Desk",
    "Moderator_Kim",
    "SecurityDept",
    "Cashier-Help",
    "TableHost_Official",
    "VIP_Manager",
    "Supp0rt_Team",
    "AdminTeam01",
)


def screen_name(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.3:
        sep = rng.choice(("", "_", ".", ""))
        return f"{rng.choice(_FIRST)}{sep}{rng.randint(1, 99) if rng.random() < 0.8 else ''}"
    if roll < 0.65:
        name = f"{rng.choice(_ADJ)}{rng.choice(_NOUN)}"
        return name + (str(rng.randint(1, 999)) if rng.random() < 0.5 else "")
    if roll < 0.85:
        base = rng.choice(_POKER)
        return base + (str(rng.randint(2, 99)) if rng.random() < 0.6 else "")
    name = f"{rng.choice(_FIRST)}{rng.choice(_NOUN).lower()}"
    return name.upper() if rng.random() < 0.2 else name + "x" * rng.randint(0, 2)


def staff_name(rng: random.Random) -> str:
    return rng.choice(STAFF_NAMES)
