"""Card talk parsing: poker talk about cards and actions vs counts, times and social chat."""

from __future__ import annotations

import pytest

from railbird.detectors.in_hand.card_talk import CardMention, emoji_count, parse


@pytest.mark.parametrize(
    ("text", "ranks", "cards"),
    [
        ("folded 77 lol", ("7", "7"), ()),
        ("pocket sevens", ("7", "7"), ()),
        ("pocket 7s", ("7", "7"), ()),
        ("had AK", ("A", "K"), ()),
        ("As Kd", ("A", "K"), ("As", "Kd")),
        ("threw 7h7c away", ("7", "7"), ("7h", "7c")),
        ("seven seven", ("7", "7"), ()),
        ("ace king suited", ("A", "K"), ()),
        ("ace-king", ("A", "K"), ()),
        ("mucked KQo there", ("K", "Q"), ()),
        ("7-7 folded", ("7", "7"), ()),
        ("i had tens", ("T", "T"), ()),
        ("I folded the ace", ("A",), ()),
        ("i had 72 lol", ("7", "2"), ()),
    ],
)
def test_names_cards(text: str, ranks: tuple[str, ...], cards: tuple[str, ...]) -> None:
    mentions = parse(text).mentions
    assert [(m.ranks, m.cards) for m in mentions] == [(ranks, cards)]


@pytest.mark.parametrize(
    "text",
    [
        "77 players left",
        "how many players left",
        "22 left",
        "level 22 already",
        "im on 55 bb",
        "blinds 25/50",
        "at 22:30",
        "As if he would",
        "ok kk",
        "jk",
        "gl",
        "nh",
        "ty",
        "gg all",
        "2 outer wow",
        "sit at 9",
        "ahah",
    ],
)
def test_counts_times_and_social_chat_name_no_cards(text: str) -> None:
    assert parse(text).mentions == ()
    assert not parse(text).strong


@pytest.mark.parametrize(
    ("text", "strong", "advice"),
    [
        ("call he's bluffing", True, True),
        ("he has nothing", True, True),
        ("he's weak", True, True),
        ("folded 77 lol, bob you are ahead, just call", True, True),
        ("mike dont pay him off", True, True),
        ("bob has pocket sevens", True, False),
        ("careful, dave77 is on A-K", True, False),
        ("I folded the ace", True, False),
        ("shove", False, False),
        ("fold", False, False),
        ("shove it lol", False, False),
        ("two pair", False, False),
        ("why does he call that", False, False),
        ("had the nuts", False, False),
    ],
)
def test_strong_talk_needs_a_read_or_cards_with_a_holding(
    text: str, strong: bool, advice: bool
) -> None:
    talk = parse(text)
    assert talk.strong is strong
    assert talk.advice is advice
    assert talk.poker


def test_strength_and_action_words_are_reported() -> None:
    talk = parse("flush draw, just shove")
    assert talk.strength == ("flush draw",)
    assert talk.actions == ("shove",)


@pytest.mark.parametrize(
    ("mention", "hole", "expected"),
    [
        (CardMention("77", ("7", "7")), ("7h", "7c"), True),
        (CardMention("AK", ("A", "K")), ("Kd", "As"), True),
        (CardMention("AKs", ("A", "K"), suited=True), ("Kd", "As"), False),
        (CardMention("7h7c", ("7", "7"), ("7h", "7c")), ("7h", "7d"), False),
        (CardMention("the ace", ("A",)), ("As", "2d"), True),
        (CardMention("77", ("7", "7")), ("7h", "8c"), False),
    ],
)
def test_mentions_match_hole_cards(
    mention: CardMention, hole: tuple[str, str], expected: bool
) -> None:
    assert mention.matches(hole) is expected


def test_emoji_count() -> None:
    assert emoji_count("🤫") == 1
    assert emoji_count("🤑🤑🤑🤑🤑🤑") == 6
    assert emoji_count("nh") == 0


@pytest.mark.parametrize(
    ("text", "ranks"),
    [
        ("i let 72 go", ("7", "2")),
        ("65o lol", ("6", "5")),
        ("t9s, ugh", ("T", "9")),
    ],
)
def test_bare_rank_pairs_are_loose_mentions_only(text: str, ranks: tuple[str, ...]) -> None:
    talk = parse(text)
    assert talk.mentions == ()
    assert [m.ranks for m in talk.loose] == [ranks]
    assert not talk.names_cards  # never flagged live: only the folded hand can confirm them


@pytest.mark.parametrize("text", ["raise to 4k", "i have 4k behind", "25bb left", "gg 2.5k"])
def test_amounts_are_never_cards(text: str) -> None:
    talk = parse(text)
    assert talk.mentions == () and talk.loose == ()


@pytest.mark.parametrize(
    ("text", "ranks"),
    [
        ("let 94 go", ("9", "4")),
        ("94 i folded", ("9", "4")),
        ("folded that 94 pre", ("9", "4")),
        ("got rid of 94", ("9", "4")),
        ("mucked 10 4", ("T", "4")),
        ("let 4 10 go", ("T", "4")),
        ("lol,94 into the bin", ("9", "4")),
    ],
)
def test_a_folding_phrase_governs_the_hand_in_any_word_order(
    text: str, ranks: tuple[str, ...]
) -> None:
    talk = parse(text)
    assert [m.ranks for m in (*talk.mentions, *talk.loose)] == [ranks]
    assert talk.fold_bound


@pytest.mark.parametrize(
    "text",
    ["folded 94 hands in a row", "2 4 me", "back in 10 4 sure", "threw away 94k", "2.94 lol",
     "94,000 chips", "level 10, 4 tables left", "seat 5 5 hands in a row folding",
     "unlucky hugo.27"],
)  # fmt: skip
def test_numbers_beside_folding_words_or_alone_are_no_hand(text: str) -> None:
    talk = parse(text)
    assert talk.mentions == () and talk.loose == ()
    assert not talk.fold_bound
