"""The planning-chat gates skip the regexes only for text that could never match them.

`is_sitout_plan` and `is_bounty_plan` first look for a word every match must contain, and
`fold_text` skips Unicode normalisation for ASCII. These tests compare the gated functions with
the original ungated ones over every corpus row we have, plus look-alike and near-miss text.
"""

from __future__ import annotations

import unicodedata

import pytest

from railbird.detectors.collusion.planning_chat import (
    _SITOUT_ACT,
    _SITOUT_COORD,
    fold_text,
    is_bounty_plan,
    is_sitout_plan,
    known_name_keys,
    name_keys,
    reads_as_bounty_plan,
)
from tests.corpora import POKER_CHAT, csv_texts
from tests.paths import DATA


def _reference_fold(text: str) -> str:
    normal = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return normal.lower().replace("\u2019", "'")


PLANS = [
    "lets both sit out now",
    "sit out with me in 5",
    "Let\u2019s sitout together",
    "\uff33\uff29\uff34 \uff2f\uff35\uff34 together",  # fullwidth: NFKD folds it to ASCII
    "s\u0131t out together",  # dotless i: dropped by the fold, so no "sit"
    "take out hal together",
    "i'll raise you and you shove on hal",
    "\uff47\uff45\uff54 him, same plan",
    "bu\u0301st him, same plan",  # combining accent
    "don't bet, check it down if hal is all in",
    "never raise into me",
    "squeeze hal, jam",
    "sitting out for dinner",
    "i need a break, sitting out",
    "gg all",
]


def test_gated_plans_equal_the_ungated_regexes_on_every_corpus_row() -> None:
    texts = [
        *PLANS,
        *csv_texts(POKER_CHAT),
        *csv_texts(DATA / "davidson_train.csv"),
        *csv_texts(DATA / "sms_spam_train.csv"),
    ]
    bounty = sitout = 0
    for text in texts:
        folded = _reference_fold(text)
        assert fold_text(text) == folded, text
        expected_sitout = bool(_SITOUT_ACT.search(folded) and _SITOUT_COORD.search(folded))
        expected_bounty = reads_as_bounty_plan(folded)
        assert is_sitout_plan(text) == expected_sitout, text
        assert is_bounty_plan(text) == expected_bounty, text
        sitout += expected_sitout
        bounty += expected_bounty
    assert sitout >= 4 and bounty >= 6  # the comparison saw real plans, not only misses


@pytest.mark.parametrize(
    ("screen_name", "player_id", "keys"),
    [
        ("P-HAL", "p-hal", {"phal", "hal"}),
        (None, "p-123", {"p123"}),
        ("Ren\u00e9 M", "p-9", {"renem", "rene"}),
    ],
)
def test_name_keys_are_memoised_without_changing_them(
    screen_name: str | None, player_id: str, keys: set[str]
) -> None:
    assert name_keys(screen_name, player_id) == keys
    assert known_name_keys(screen_name, player_id) == tuple(sorted(keys))


# Written before the reader, in wordings the simulator's templates do not use.
OPEN_PLANS = [
    "go after p12 together",
    "double team the chip leader",
    "we split his bounty",
    "you and me vs the big stack, we share the ko",
    "gang up on the short stack with me",
    "we chop the bounty on seat 4",
    "help me bust alex, 50/50 on the bounty",
    "me and you put pressure on him, he's short",
    "lets get him before the break",
    "team up on @maria, her head is worth 4x",
]
NOT_PLANS = [
    "nice bounty",
    "his bounty is huge lol",
    "i want that bounty",
    "gl everyone, let's have fun",
    "we both got unlucky",
    "split pot again",
    "lets go team",
    "want to chop the prize pool?",
    "i will bust that guy eventually",
    "together we are strong",
    "he got knocked out by the bounty hunter",
    "we all want his bounty",
    "we bust soon lol",
    "let's get food after this",
    "kill pot next hand",
    "take out the trash lol",
    "lets go after the break",
    "we take out the trash lol",
    "we squeeze every time lol",
    "we get it's fine",
    "we hit the big blind again",
    "head to head, want to chop?",
    "do bounties split in half?",
    "how does the ko work? do we share it?",
]

# Written before the second reader (names the directory may not know, rules of play between
# members, a target named as such), in wording neither the simulator's templates nor its open
# grammar (`sim.influence_lines.open_plan_line`) use.
OPEN_PLANS += [
    "you and me pile on kev_77 this orbit",
    "tag team jonny, the bounty gets split",
    "lets both go after RiverRat, he's short",
    "dont 3bet each other, we want rick's head",
    "i open, you flat, we trap donkeykong",
    "if moe jams we just check it down",
    "whoever busts lily pays the other half",
    "focus on bigstack99 together",
    "sneaky_pete is our mark tonight",
    "never reraise me, that fish is ours",
]
NOT_PLANS += [
    "lets go after dinner",
    "we both got busted by kev_77",
    "focus on your own game",
    "bust me already lol",
    "i always hunt bounties lol",
    "if he jams i fold",
    "you two fight it out",
    "he is the chip leader now",
    "our table is so tight",
    "we need to bust someone lol",
    "gl both of us go deep tonight",
    "lol kev_77 has a huge bounty now",
    "did you get his bounty?",
]


@pytest.mark.parametrize("text", OPEN_PLANS)
def test_plans_in_open_wording_are_read(text: str) -> None:
    assert is_bounty_plan(text)


@pytest.mark.parametrize("text", NOT_PLANS)
def test_bounty_talk_that_plans_nothing_is_not_a_plan(text: str) -> None:
    assert not is_bounty_plan(text)
