"""Redaction reads a message as typed, as displayed and as a person reads it: disguised
addresses and numbers are cut out of the text as typed, and poker talk is left alone."""

from __future__ import annotations

import pytest

from railbird.detectors.text.redaction import pii_spans, redact
from railbird.detectors.text.spelled_out import DIGIT_WORDS, read_as_written

RLO = "\u202e"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("call me 555-123-4567 tonight", "call me [phone] tonight"),
        ("bob@gmail.com or +44 7700 900123", "[email] or [phone]"),
        ("john dot doe at gmail dot com", "[email]"),
        ("card 4111-1111-1111-1111 pls", "card [card] pls"),
        ("i live at 221 baker street, come by", "i live at [address], come by"),
        ("nice hand, 1500 2500 3500", "nice hand, 1500 2500 3500"),
        ("hand #23456789012 at 20:15", "hand #23456789012 at 20:15"),
        ("", ""),
    ],
)
def test_redact(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # "at" and "dot" spelled out, in words and in brackets, any domain.
        ("write to name at example dot com", "write to [email]"),
        ("NAME AT EXAMPLE DOT COM", "[email]"),
        ("jo(at)example(dot)org ok", "[email] ok"),
        ("jo [at] example [dot] co [dot] uk thanks", "[email] thanks"),
        ("jo {at} mail {dot} ru", "[email]"),
        # Full-width and other look-alike symbols (NFKC, as the chat rules fold them).
        ("mail: jo\uff20example\uff0ecom", "mail: [email]"),
        ("jo\ufe6bexample\u3002com", "[email]"),
        ("jo.bloggs\uff20example.com or so", "[email] or so"),
        ("n\u200bame@exa\u200bmple.com", "[email]"),
        # The words of the other languages railbird reads.
        ("escribe a juan arroba example punto com", "escribe a [email]"),
        ("jean arobase exemple point fr", "[email]"),
        ("marco chiocciola esempio punto it", "[email]"),
        ("jan małpa przyklad kropka pl", "[email]"),
        ("ivan собака example точка ru", "[email]"),
        # Digits in words, alone or with numerals, in every language read.
        ("five five five one two three four five six seven", "[phone]"),
        ("call five five five 123 4567 now", "call [phone] now"),
        ("zero seven seven zero zero, nine zero zero one two three", "[phone]"),
        ("llama cinco cinco cinco uno dos tres cuatro cinco seis", "llama [phone]"),
        ("ruf sieben sieben null null neun null null eins zwei drei", "ruf [phone]"),
        ("zadzwoń pięć pięć pięć jeden dwa trzy cztery pięć", "zadzwoń [phone]"),
        ("zavolej pět pět pět jedna dva tři čtyři pět", "zavolej [phone]"),
        ("ara beş beş beş bir iki üç dört beş", "ara [phone]"),
        ("звони пять пять пять один два три четыре пять", "звони [phone]"),
        ("trois trois six un deux trois quatre cinq six", "[phone]"),
        ("nove nove otto sette sei cinque quattro tre due", "[phone]"),
        # A card spelled out is a card.
        ("four one one one one one one one one one one one one one one one", "[card]"),
        # Reversed behind a right-to-left override: it displays as an address.
        (f"{RLO}moc.elpmaxe@oj", f"{RLO}[email]"),
    ],
)
def test_disguised_personal_data_is_redacted(text: str, expected: str) -> None:
    assert redact(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "play at the final table",
        "claim at bonusplus.win/verify",  # a link: the link rules' business, not an address
        "meet me at home at nine",
        "i am at pokerstars dot com",
        "one two three go",
        "two pair, nines and fives, one more hand",
        "raise to 500 two times, 3bet 1200",
        "gg wp, see you at the next one",
        "it's a dot com bubble",
        "el punto es que uno dos tres",
        "[email] and [phone] stay as they are",
    ],
)
def test_table_talk_is_not_redacted(text: str) -> None:
    assert redact(text) == text


def test_redact_is_idempotent() -> None:
    for text in ("call 555-123-4567 or bob@x.com", "jo at example dot com, five five five one "
                 "two three four five six seven", f"{RLO}moc.elpmaxe@oj"):  # fmt: skip
        once = redact(text)
        assert redact(once) == once


def test_a_reading_maps_back_to_the_text_as_typed() -> None:
    text = "xx jo\uff20example\uff0ecom yy"
    reading = read_as_written(text)
    assert reading is not None and "jo@example.com" in reading.text
    [span] = pii_spans(text)
    assert text[span.start : span.end] == "jo\uff20example\uff0ecom"


def test_the_digit_words_cover_every_language_read() -> None:
    # Ten digits in each of ten languages (some with two spellings of one digit).
    assert len(set(DIGIT_WORDS.values())) == 10
    assert len(DIGIT_WORDS) >= 100
