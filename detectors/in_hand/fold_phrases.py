"""Reads folding phrases by meaning, and which words of a message they are about.

Why: a folded player says the hand they folded in any word order ("94 i folded", "folded that
94 pre", "my 94 went in the muck", "let 94 go", "gave 94 up", "let go of 94"), and bare digits
beside such a phrase are a hand, while the same digits alone may be a count ("94 left"). A
keyword anywhere in the message cannot tell "94" in "folded that 94" from "94" in "folded 94
hands"; the phrase and what it governs can. The card reader (`card_talk`) asks this module
whether a rank pair it found is the object of a folding phrase.

Two shapes:
- a *phrase* that carries its meaning whole: a verb (fold, muck, throw, toss, chuck, pitch,
  bin, ditch, dump, release, in any inflection), a phrasal verb (laid down, gave up (on),
  passed on, got rid of, let go of) or a destination (in/into/to the muck, bin, trash); it
  governs words a few tokens before or after it;
- a *frame* with its object inside: "let X go", "laid X down", "gave X up", "threw X away",
  "sent X to the muck"; it governs what is between its words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_VERB = (
    r"fold(?:s|ed|ing)?|muck(?:s|ed|ing)?|threw|throw(?:s|n|ing)?|toss(?:es|ed|ing)?|"
    r"chuck(?:s|ed|ing)?|pitch(?:es|ed|ing)?|binn(?:ed|ing)|ditch(?:es|ed|ing)?|"
    r"dump(?:s|ed|ing)?|releas(?:e|es|ed|ing)|surrender(?:s|ed|ing)?|scrapp(?:ed|ing)"
)
_PHRASAL = (
    r"(?:laid|lay(?:s|ing)?|put(?:s|ting)?)\s+(?:it\s+|them\s+)?down|"
    r"pass(?:ed|es|ing)?\s+on|(?:gave|give(?:s|n)?|giving)\s+up(?:\s+on)?|"
    r"(?:got|get(?:s|ting)?)\s+rid\s+of|let(?:ting)?\s+go\s+of|"
    r"(?:in|into|to)\s+(?:the\s+)?(?:muck|bin|trash|garbage)"
)
_PHRASE = re.compile(rf"\b(?:{_PHRASAL}|{_VERB})\b", re.I)
# A frame's object: a few words, within one sentence.
_OBJECT = r"([^.!?\n]{1,24}?)"
_FRAME = re.compile(
    rf"\b(?:let(?:ting)?\s+{_OBJECT}\s+go\b|"
    rf"(?:laid|lay(?:s|ing)?|put(?:s|ting)?)\s+{_OBJECT}\s+down\b|"
    rf"(?:gave|give(?:s|n)?|giving)\s+{_OBJECT}\s+up\b|"
    rf"(?:threw|throw(?:s|n|ing)?|toss(?:es|ed|ing)?|chuck(?:s|ed|ing)?)\s+{_OBJECT}\s+away\b|"
    rf"(?:sent|send(?:s|ing)?)\s+{_OBJECT}\s+(?:in)?to\s+the\s+(?:muck|bin))",
    re.I,
)
_WORD = re.compile(r"[A-Za-z0-9']+")
# How many words may stand between a phrase and the hand it governs: "folded that 94",
# "let go of my 94", "the 72 went straight in the muck".
REACH = 3


@dataclass(frozen=True, slots=True)
class FoldPhrases:
    """The folding phrases of one message, as character spans."""

    text: str
    phrases: tuple[tuple[int, int], ...]
    frames: tuple[tuple[int, int], ...]  # the object spans inside frames

    def __bool__(self) -> bool:
        return bool(self.phrases or self.frames)

    def governs(self, start: int, end: int) -> bool:
        """Whether the words at `start`..`end` are what a folding phrase is about."""
        if any(s <= start and end <= e for s, e in self.frames):
            return True
        for s, e in self.phrases:
            if s < end and start < e:
                continue  # the phrase itself ("folds" is no hand)
            gap = self.text[end:s] if end <= s else self.text[e:start]
            if len(_WORD.findall(gap)) <= REACH:
                return True
        return False


def fold_phrases(text: str) -> FoldPhrases:
    """The folding phrases in `text` (empty when there are none)."""
    phrases = tuple(m.span() for m in _PHRASE.finditer(text))
    frames = tuple(
        next(m.span(g) for g in range(1, (m.lastindex or 0) + 1) if m.group(g) is not None)
        for m in _FRAME.finditer(text)
    )
    return FoldPhrases(text, phrases, frames)
