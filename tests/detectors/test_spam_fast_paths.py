"""The spam detectors' fast paths must decide exactly what their regex definitions decide.

`fingerprint`, `shout_level` and `count_emoji` answer most messages with bytes and big-int
operations and a necessary-condition gate in front of each regex. A gate that is not really
necessary would silently miss spam, so every corpus we have is run through the fast functions
and through the plain regex definitions below (the code before the fast paths), and compared:
the poker-chat set, the simulator's chat, a slice of the Davidson and SMS corpora (when the
shared data is present), hand-made edge cases and seeded random strings built to sit on the
thresholds (7 vs 8 repeats of a unit, runs of 2 vs 3, caps ratio around 0.8).
"""

from __future__ import annotations

import random
import re

import pytest

from railbird.detectors.chat.emoji_spam import EmojiSpam
from railbird.detectors.chat.repeated_messages import RepeatedMessages
from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from railbird.detectors.text.fingerprint import fingerprint, strip_digits
from railbird.detectors.text.loud_text import EMOJI, count_emoji, shout_level
from tests.builders import chat
from tests.corpora import mixed_chat

_SHARED_SAMPLE = 3000

# -- the definitions, as they were before the fast paths ---------------------------------------
_NOT_ALNUM = re.compile(r"[\W_]+", re.UNICODE)
_RUNS = re.compile(r"(.)\1{2,}", re.UNICODE)
_DIGITS = re.compile(r"\d+")
_EXCLAIM = re.compile(r"[!?]{3,}")
_LONG_EXCLAIM = re.compile(r"[!?]{8,}")
_CHAR_FLOOD = re.compile(r"(\S{1,3}?)\1{7,}")
_LETTER = re.compile(r"[^\W\d_]")
_UPPER = re.compile("[A-Z\u00c0-\u00de\u0391-\u03a9\u0410-\u042f]")


def reference_fingerprint(text: str) -> tuple[str, int]:
    lowered = text.lower()
    core = _NOT_ALNUM.sub("", lowered)
    if not core:
        core = "".join(lowered.split())
    return _RUNS.sub(r"\1\1", core), len(core)


def reference_count_emoji(text: str) -> int:
    return len(EMOJI.findall(text))


def reference_shout_level(text: str, min_letters: int, caps_ratio: float) -> tuple[int, str]:
    if _CHAR_FLOOD.search(text):
        return 2, "one character or syllable repeated"
    words = text.lower().split()
    if len(words) >= 6:
        top = max(words.count(w) for w in set(words))
        if top >= 6 and top >= 0.7 * len(words):
            return 2, "one word repeated"
    exclaim = _EXCLAIM.search(text) is not None
    if exclaim and _LONG_EXCLAIM.search(text):
        return 2, "long !!!! run"
    letters = len(_LETTER.findall(text))
    if letters >= min_letters and len(_UPPER.findall(text)) >= caps_ratio * letters:
        if exclaim:
            return 2, "all caps with !!!"
        return (2, "long all-caps line") if letters >= 2 * min_letters else (1, "caps")
    return (1, "!!!") if exclaim else (0, "")


# -- the corpus ---------------------------------------------------------------------------------
_EDGE_CASES = [
    "",
    " ",
    "\t\n",
    "a",
    "gg",
    "nh",
    "aaa",
    "aaaaaaa",
    "aaaaaaaa",
    "a aaaaaaa",
    "lolololololololo",
    "lololololololol",
    "lol lol lol lol lol lol lol lol",
    "hahhahhahhahhahhahhahhah",
    "hahhahhahhahhahhahhahha",
    "ab" * 7 + "a",
    "!!!!!!!",
    "!!!!!!!!",
    "!?!",
    "??",
    "gg gg gg gg gg gg",
    "gg gg gg gg gg ty",
    "gg gg gg gg gg gg ty nh",
    "GG GG gg gG Gg gg gg",
    "WHAT A CALL",
    "WHAT A CALL SIR!!!",
    "WHAT A CALl sir",
    "ÄÖÜ ÄÖÜ ÄÖÜ ÄÖÜ ÄÖÜ",
    "ПРИВЕТ ВСЕМ ДРУЗЬЯМ",
    "ΑΒΓΔΕΖΗΘΙΚΛ",
    "×××××××××××",
    "ＷＨＡＴ　ＴＨＥ　ＨＥＬＬ",
    "ｆｕｃｋ ｏｆｆ １２３",
    "\u212a\u212a\u212akkk",  # Kelvin signs lower-case to ASCII k
    "İstanbul",
    "x\x00\x00\x00y",
    "\x00" * 10,
    "a\u200bb\u200bc",
    "🤑" * 8,
    "🤑" * 7,
    "🔥🔥 🔥🔥 🔥🔥 🔥🔥",
    "👍🏽👍🏻👍",
    "☀☀☀",
    "⬛⬜⬛⬜⬛⬜⬛⬜⬛⬜⬛⬜⬛⬜⬛⬜",
    "\U0001f3fb\U0001f3fc",
    "\ud83d",  # a lone surrogate, as a lenient JSON decoder can produce
    "x\ud83dx\ud83dx\ud83dx\ud83dx\ud83dx\ud83dx\ud83dx\ud83d",
    "buy chips!!! cheaaaap",
    "BUY CHIPS!!! cheaaaap",
    "__--__",
    "....",
    "1111111111",
    "best rakeback deals 123 ٣٤٥",
    "visit pokerbonus.example for 200% bonus code 123",
]


def _random_texts(count: int, seed: int) -> list[str]:
    """Strings made of repeated units, spaces, caps and emoji, sitting on the thresholds."""
    rng = random.Random(seed)
    alphabet = ["a", "b", "A", "B", "1", " ", "!", "?", "é", "É", "🤑", "\t", "_", "Ж", "ж"]
    texts = []
    for _ in range(count):
        parts = []
        for _ in range(rng.randint(1, 4)):
            unit = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
            parts.append(unit * rng.randint(1, 10))
            parts.append(rng.choice(["", " ", "  ", "x", "gg "]))
        text = "".join(parts)
        texts.append(text.upper() if rng.random() < 0.2 else text)
    return texts


@pytest.fixture(scope="module")
def corpus() -> list[str]:
    texts = mixed_chat(seed=11, sim_seed=4, shared_sample=_SHARED_SAMPLE)
    texts += _EDGE_CASES + _random_texts(4000, seed=3)
    texts += [t.upper() for t in texts[:600]]
    return list(dict.fromkeys(texts))


def test_corpus_reaches_every_branch(corpus: list[str]) -> None:
    """The comparison below means something only if the corpus hits each rule."""
    reasons = {reference_shout_level(t, 10, 0.8)[1] for t in corpus}
    assert reasons >= {
        "",
        "!!!",
        "caps",
        "long all-caps line",
        "all caps with !!!",
        "long !!!! run",
        "one word repeated",
        "one character or syllable repeated",
    }
    assert sum(1 for t in corpus if _RUNS.search(t.lower())) > 100
    assert sum(1 for t in corpus if reference_count_emoji(t)) > 50


def test_fingerprint_matches_its_definition(corpus: list[str]) -> None:
    wrong = [t for t in corpus if fingerprint(t) != reference_fingerprint(t)]
    assert wrong == []


@pytest.mark.parametrize(
    "text",
    ["", "!", "a", "A!", "ab", "a b", "aaa", "AaA", "aab", "a-a-a", "x1", "111", "zzzz!", "ab ab"],
)
def test_fingerprint_of_short_ascii_lines_matches_its_definition(text: str) -> None:
    """The ASCII path collapses runs inline for three characters and more, and decodes
    shorter lines as they are: the edges of that split, and lines with nothing kept."""
    assert fingerprint(text) == reference_fingerprint(text)


def test_strip_digits_matches_its_definition(corpus: list[str]) -> None:
    fps = [reference_fingerprint(t)[0] for t in corpus]
    wrong = [fp for fp in fps if strip_digits(fp) != _DIGITS.sub("", fp)]
    assert wrong == []


@pytest.mark.parametrize(("min_letters", "caps_ratio"), [(10, 0.8), (4, 0.5), (20, 1.0)])
def test_shout_level_matches_its_definition(
    corpus: list[str], min_letters: int, caps_ratio: float
) -> None:
    wrong = [
        t
        for t in corpus
        if shout_level(t, min_letters, caps_ratio)
        != reference_shout_level(t, min_letters, caps_ratio)
    ]
    assert wrong == []


def test_count_emoji_matches_its_definition(corpus: list[str]) -> None:
    wrong = [t for t in corpus if count_emoji(t) != reference_count_emoji(t)]
    assert wrong == []


# -- state kept in place rather than rebuilt ---------------------------------------------------
def _run(detector: EmojiSpam | RepeatedMessages, events: list[ChatEvent]) -> list[Finding]:
    state, found = TtlState(), []
    for event in events:
        state.advance(event.ts)
        found.extend(detector.detect(event, state))
    return found


def test_shouting_match_forgets_shouters_after_the_window() -> None:
    """p-1's third loud line makes the flag (one loud line is no spam); by then p-old's line
    is more than a window old and only p-2 is in the match."""
    events = [
        chat("WHY WOULD YOU EVER CALL THAT", t=0, player="p-old"),
        chat("SHUT UP ALREADY YOU DONKEY", t=30, player="p-2"),
        chat("WAKE UP TABLE", t=71, player="p-1", message_id="m-1"),
        chat("COME ON PEOPLE!!!", t=73, player="p-1", message_id="m-2"),
        chat("WAKE UP TABLE COME ON!!!", t=75, player="p-1", message_id="m-last"),
    ]
    found = [f for f in _run(EmojiSpam(), events) if f.player_ids == ("p-1",)]
    assert len(found) == 1
    assert found[0].message_ids == ("m-1", "m-2", "m-last")
    assert found[0].evidence.measures["other_shouters"] == ["p-2"]
    assert found[0].evidence.summary.endswith("shouting match with p-2")


def test_bot_wave_ignores_numbering_in_ascii_and_other_digits() -> None:
    for digits in (["101", "202", "303"], ["١٠١", "٢٠٢", "٣٠٣"]):
        events = [
            chat(f"claim your free chips bonus now code {d}", t=i, player=f"bot-{i}")
            for i, d in enumerate(digits)
        ]
        waves = [f for f in _run(RepeatedMessages(), events) if f.evidence.kind == "bot_wave"]
        assert [f.player_ids for f in waves] == [("bot-0", "bot-1", "bot-2")]


def test_wave_of_lines_without_a_shared_text_is_no_wave() -> None:
    events = [
        chat(f"claim your free chips bonus now {word}", t=i, player=f"bot-{i}")
        for i, word in enumerate(["today", "tonight", "please"])
    ]
    assert [f for f in _run(RepeatedMessages(), events) if f.evidence.kind == "bot_wave"] == []


def test_stretched_repeats_count_as_the_same_line() -> None:
    texts = ["cheap chips here guys", "cheeeeap chips here guys", "CHEEAP CHIPS HERE GUYS!!"]
    found = _run(
        RepeatedMessages(), [chat(t, t=i, message_id=f"s-{i}") for i, t in enumerate(texts)]
    )
    assert [f.message_ids for f in found] == [("s-0", "s-1", "s-2")]


def test_wave_drops_senders_who_left_the_window() -> None:
    text = "claim your free chips bonus now at chipz"
    events = [
        chat(text, t=t, player=p, message_id=f"w-{p}")
        for t, p in [(0, "bot-0"), (30, "bot-1"), (70, "bot-2"), (75, "bot-3")]
    ]
    waves = [f for f in _run(RepeatedMessages(), events) if f.evidence.kind == "bot_wave"]
    assert [f.player_ids for f in waves] == [("bot-1", "bot-2", "bot-3")]
    assert waves[0].message_ids == ("w-bot-1", "w-bot-2", "w-bot-3")
