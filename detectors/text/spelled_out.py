"""Personal data as people spell it to get past a filter, read back into the form the
recognisers know: "jo at example dot com" is jo@example.com, "jo(at)example(dot)com" and
"jo＠example．com" too, and "five five five, one two three, four five six seven" is a phone
number.

The characters are first folded by `normalise.fold`, the chat rules' own (NFKC, so full-width
and other compatibility forms become ASCII; look-alike letters mapped; accents and invisible
characters dropped), so redaction and the chat rules read a message the same way; the word
tables are folded the same way when this module loads. Then, in every language railbird reads
(English, Spanish, Portuguese, French, German, Italian, Polish, Czech, Turkish, Russian):
digit words become digits, words and bracketed forms for "at" and "dot" become "@" and ".".
A bare English "at" between common words ("play at the table", "me at home") stays a word.

Every character of the reading remembers the span of the original it came from, so what the
recognisers find in the reading is cut out of the message as it was typed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from railbird.detectors.text.normalise import fold

# Digit words, 0 to 9 in order; several spellings of one digit are joined by "/".
_DIGITS_BY_LANGUAGE = {
    "en": "zero/oh one two three four five six seven eight nine",
    "es": "cero uno/una dos tres cuatro cinco seis siete ocho nueve",
    "pt": "zero um/uma dois/duas três quatro cinco seis sete oito nove",
    "fr": "zéro un/une deux trois quatre cinq six sept huit neuf",
    "de": "null eins/ein/eine zwei/zwo drei vier fünf sechs sieben acht neun",
    "it": "zero uno/una due tre quattro cinque sei sette otto nove",
    "pl": "zero jeden/jedna dwa/dwie trzy cztery pięć sześć siedem osiem dziewięć",
    "cs": "nula jedna/jeden dva/dvě tři čtyři pět šest sedm osm devět",
    "tr": "sıfır bir iki üç dört beş altı yedi sekiz dokuz",
    "ru": "ноль/нуль один/одна два/две три четыре пять шесть семь восемь девять",
}
# Words for "@": English (and German, Turkish use it too), Spanish and Portuguese, French,
# Italian, German, Polish, Czech, Russian.
_AT_WORDS = "at arroba arobase arrobase chiocciola klammeraffe małpa malpa zavináč собака собачка"
# Words for ".": English, Spanish and Italian, Portuguese, French, German and Polish, Polish,
# Czech, Turkish, Russian.
_DOT_WORDS = "dot punto ponto point punkt kropka tečka nokta точка"
# A bare English "at" next to one of these is a preposition, not an address.
_NOT_BEFORE_AT = "me us him her them you u i im we they it is are was be been am play playing \
played join joined come meet see look looking laugh laughing stare here there now only sign \
register registered available live found find get got win won bonus deposit all good well not \
just still sit sitting seat seated online home back out in"
_NOT_AFTER_AT = "the a an my your his her our their this that it home least all once first last \
work school night table tables times"
# Look-alikes of "." that NFKC leaves alone (ideographic and middle dots, bullets).
_DOT_SYMBOLS = frozenset("\u3002\u00b7\u2022\u2219\u22c5\u2e31")
_BRACKETED = re.compile(r"[(\[{<]\s*(at|a|@|dot|\.)\s*[)\]}>]")
_WORD = re.compile(r"[^\W\d_]+")
_SEPARATORS = frozenset(" \t-.,/()+")
_MIN_SPELLED_WORDS = 3  # "one two three" alone is counting; a number needs more
_MIN_DIGITS = 7  # a local number without its area code


def _folded(word: str) -> str:
    return fold(word)[0]


DIGIT_WORDS: dict[str, str] = {
    _folded(spelling): str(digit)
    for words in _DIGITS_BY_LANGUAGE.values()
    for digit, spellings in enumerate(words.split())
    for spelling in spellings.split("/")
}
AT_WORDS = frozenset(_folded(w) for w in _AT_WORDS.split())
_STOP_BEFORE_AT = frozenset(_NOT_BEFORE_AT.split())
_STOP_AFTER_AT = frozenset(_NOT_AFTER_AT.split())
DOT_WORDS = frozenset(_folded(w) for w in _DOT_WORDS.split())
_ASCII_DIGIT_WORDS = frozenset(w for w in DIGIT_WORDS if w.isascii())
_ASCII_AT_DOT = frozenset(w for w in (*AT_WORDS, *DOT_WORDS) if w.isascii())
_ASCII_WORDS = re.compile(r"[a-z]+")


@dataclass(frozen=True, slots=True)
class Reading:
    """A message as a person reads it, with where each character came from.

    `starts[i]` and `ends[i]` bound the original characters that reading character `i` stands
    for; `numbers` are the spelled-out numbers found, as (start, end, digits) of the original.
    """

    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    numbers: tuple[tuple[int, int, str], ...]

    def original(self, start: int, end: int) -> tuple[int, int]:
        """The span of the original message that the reading's [start, end) came from."""
        return self.starts[start], self.ends[end - 1]


@dataclass(slots=True)
class _Piece:
    out: str
    start: int  # in the original
    end: int
    kind: str  # "digit" (a word), "numeral", "at", "dot", "word", "space", "other"
    source: str = ""


def may_be_spelled(text: str) -> bool:
    """A cheap necessary condition for ASCII text: enough digit words for a number, or a word
    or bracket for "at" or "dot" with a "." or another such word beside it."""
    if not text.isascii():
        return True
    lowered = text.lower()
    words = _ASCII_WORDS.findall(lowered)
    if _ASCII_AT_DOT.isdisjoint(words):
        digit_words = 0
        for word in words:
            if word in _ASCII_DIGIT_WORDS:
                digit_words += 1
        return digit_words >= _MIN_SPELLED_WORDS or bool(_BRACKETED.search(lowered))
    return True


def read_as_written(text: str) -> Reading | None:
    """`text` read as a person reads it; None when that is the text itself."""
    if not may_be_spelled(text):
        return None
    folded, origin = fold(text)
    where = list(range(len(text))) if origin is None else origin
    pieces = _pieces(folded, where)
    _keep_prepositions(pieces)
    _close_up(pieces)
    reading = "".join(p.out for p in pieces)
    numbers = tuple(_spelled_numbers(pieces))
    if reading == text and not numbers:
        return None
    starts: list[int] = []
    ends: list[int] = []
    for piece in pieces:
        starts.extend([piece.start] * len(piece.out))
        ends.extend([piece.end] * len(piece.out))
    return Reading(reading, tuple(starts), tuple(ends), numbers)


def _pieces(folded: str, where: list[int]) -> list[_Piece]:
    pieces: list[_Piece] = []
    position = 0
    while position < len(folded):
        start, end = where[position], where[position] + 1
        bracketed = _BRACKETED.match(folded, position)
        if bracketed:
            last = bracketed.end() - 1
            inner = bracketed.group(1)
            kind, out = ("at", "@") if inner in ("at", "a", "@") else ("dot", ".")
            pieces.append(_Piece(out, start, where[last] + 1, kind, bracketed.group(0)))
            position = bracketed.end()
            continue
        word = _WORD.match(folded, position)
        if word:
            last = word.end() - 1
            found = word.group(0)
            span_end = where[last] + 1
            if found in DIGIT_WORDS:
                pieces.append(_Piece(DIGIT_WORDS[found], start, span_end, "digit", found))
            elif found in AT_WORDS:
                pieces.append(_Piece("@", start, span_end, "at", found))
            elif found in DOT_WORDS:
                pieces.append(_Piece(".", start, span_end, "dot", found))
            else:
                pieces.append(_Piece(found, start, span_end, "word", found))
            position = word.end()
            continue
        char = folded[position]
        if char in _DOT_SYMBOLS:
            pieces.append(_Piece(".", start, end, "dot", char))
        elif char.isdigit():
            pieces.append(_Piece(char, start, end, "numeral", char))
        elif char.isspace():
            pieces.append(_Piece(char, start, end, "space", char))
        else:
            pieces.append(_Piece(char, start, end, "other", char))
        position += 1
    return pieces


def _neighbour_word(pieces: list[_Piece], index: int, step: int) -> str:
    index += step
    while 0 <= index < len(pieces) and pieces[index].kind == "space":
        index += step
    return pieces[index].source if 0 <= index < len(pieces) else ""


def _keep_prepositions(pieces: list[_Piece]) -> None:
    """A bare "at" stays a word unless a spelled dot follows it within a few words ("jo at
    example dot com"; "claim at bonus.win" is a link, and "jo at gmail.com" is the
    recognisers' own business), and never between common words ("me at the table")."""
    for index, piece in enumerate(pieces):
        if piece.kind == "at" and piece.source == "at":
            before = _neighbour_word(pieces, index, -1)
            after = _neighbour_word(pieces, index, 1)
            spelled_dot = any(p.kind == "dot" for p in pieces[index + 1 : index + 12])
            if (
                not spelled_dot
                or not before
                or not after
                or before in _STOP_BEFORE_AT
                or after in _STOP_AFTER_AT
            ):
                piece.out, piece.kind = "at", "word"


def _close_up(pieces: list[_Piece]) -> None:
    """No spaces around a spelled "@" or ".": "jo @ example . com" reads jo@example.com."""
    for index, piece in enumerate(pieces):
        if piece.kind != "space":
            continue
        before = pieces[index - 1].kind if index > 0 else ""
        after = pieces[index + 1].kind if index + 1 < len(pieces) else ""
        if "at" in (before, after) or "dot" in (before, after):
            piece.out = ""


def _spelled_numbers(pieces: list[_Piece]) -> list[tuple[int, int, str]]:
    """Runs of digits and digit words with only separators between them, holding at least
    `_MIN_SPELLED_WORDS` words and `_MIN_DIGITS` digits: (start, end, digits) of the
    original."""
    found: list[tuple[int, int, str]] = []
    run: list[_Piece] = []
    gap = 0

    def close() -> None:
        digits = "".join(p.out for p in run)
        words = sum(p.kind == "digit" for p in run)
        if words >= _MIN_SPELLED_WORDS and len(digits) >= _MIN_DIGITS:
            found.append((run[0].start, run[-1].end, digits))

    for piece in pieces:
        if piece.kind in ("digit", "numeral"):
            run.append(piece)
            gap = 0
        elif run and (piece.kind in ("space", "dot") or piece.source in _SEPARATORS) and gap < 3:
            gap += 1
        else:
            if run:
                close()
            run, gap = [], 0
    if run:
        close()
    return found
