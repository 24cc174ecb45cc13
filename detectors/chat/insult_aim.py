"""Who an insult word in a message is aimed at: the person spoken to, teammates, a third
person, players in general, oneself, or a thing.

Game words are insults only when aimed: "you noob" and "noob team" are harassment, "he's a
noob at this" a low-severity remark, "I'm such a noob" and "noob question" nothing, and "trash
hand" or "my hand is trash" a verdict on cards. The aim is read from a few words around the
insult, in this order: a thing after it ("noob question"), the subject it is predicated of
("<subject> is/are ... trash"), a second person or a mention naming the insulted, teammates,
a report, the speaker ("I'm such a noob", "I played like a noob"), a person after it ("trash
players"), a pointing word ("what a", "fucking"), a third person, and finally whether the
whole message is name-calling ("gg noob", "noob sf"). Kept apart from harassment's rules so
that the reading can be tested alone and the vocabulary (`text.game_insults`) audited as data.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from railbird.detectors.chat.harassment_patterns import (
    FIRST_PERSON,
    OBJECT_WORDS,
    POINTERS,
    SECOND_PERSON,
)
from railbird.detectors.text.game_insults import (
    COPULAS,
    FILLERS,
    GENERIC_BEFORE,
    LINKERS,
    PEOPLE_HEADS,
    REPORT_VERBS,
    SELF_AFTER,
    TEAM_WORDS,
    THING_HEADS,
    THING_SUBJECTS,
    THIRD_PERSON,
)

Aim = Literal[
    "you", "pointed", "team", "report", "vocative", "third", "unclear", "players", "self", "thing"
]
# The aims that make an insult harassment whatever its word.
AIMED: frozenset[str] = frozenset({"you", "pointed", "team", "report", "vocative"})
# How clearly a word must be aimed (see `text.game_insults`): a label ("noob") is a put-down
# wherever it is not self or a thing; a weak insult ("trash") needs a target; the weakest
# ("bot", "monkey") needs a second person calling someone one.
Strength = Literal["label", "weak", "weakest"]

WE = frozenset(["we", "us", "our", "ours", "ourselves"])
_MODALS = frozenset(["might", "may", "must", "will", "would", "could", "should", "can", "gonna"])
# A contracted subject and copula in one token: "ur trash", "im a noob", "hes trash".
_CONTRACTED: dict[str, str] = {
    "ur": "you",
    "youre": "you",
    "ure": "you",
    "im": "i",
    "hes": "he",
    "shes": "she",
    "theyre": "they",
    "thats": "that",
    "its": "it",
}


def near(
    words: Sequence[str], index: int, vocabulary: frozenset[str], before: int, after: int
) -> bool:
    """Whether a word of `vocabulary` is within `before` words before or `after` words after."""
    window = [*words[max(0, index - before) : index], *words[index + 1 : index + after + 1]]
    return any(w in vocabulary for w in window)


def subject_of(words: Sequence[str], index: int) -> str | None:
    """The subject of "<subject> is/are (so, such a, ...) <insult>", or None without a copula.

    "you are such a noob" -> "you"; "ur trash" -> "you"; "my hand is trash" -> "hand".
    """
    j = index - 1
    while j >= 0 and words[j] in LINKERS:
        j -= 1
    if j < 0:
        return None
    contracted = _CONTRACTED.get(words[j])
    if contracted is not None:
        return contracted
    if words[j] not in COPULAS or j == 0:
        return None
    j -= 1
    while j > 0 and (words[j] in _MODALS or words[j] in LINKERS):  # "u might be stupid"
        j -= 1
    return words[j]


def aim_of(
    words: Sequence[str],
    index: int,
    *,
    mentions: frozenset[int],
    strength: Strength,
    question: bool,
) -> Aim:
    """At whom the insult at `words[index]` is aimed (`mentions`: the indices of the words
    that mention a player; `question`: the message asks one)."""
    after = words[index + 1] if index + 1 < len(words) else None
    before = words[index - 1] if index > 0 else None
    if after in THING_HEADS:
        return "thing"
    subject = subject_of(words, index)
    if subject is not None:
        if subject in SECOND_PERSON:
            return "you" if not (question and strength == "weakest") else "unclear"
        if subject in FIRST_PERSON or subject in WE:
            return "self"
        if subject in TEAM_WORDS:
            return "team" if strength != "weakest" else "unclear"
        if subject in THING_SUBJECTS:
            return "thing"
        if subject in THIRD_PERSON:
            return "third" if strength != "weakest" else "unclear"
        # "lakers are trash", "bob is a noob": said of someone or something else
        return "third" if strength == "label" else "unclear"
    if strength == "weakest":  # "you bot", "you fucking monkey"; never "are you a bot?"
        return "you" if _called(words, index) and not question else "unclear"
    if before in THIRD_PERSON:  # "they trash", "he noob"
        return "third"
    mentioned = any(_names(words, at, index) for at in mentions)
    spoken_to = mentioned or near(words, index, SECOND_PERSON, 3, 1 if strength == "label" else 0)
    if spoken_to and before not in OBJECT_WORDS:
        return "you"
    if near(words, index, TEAM_WORDS, 2, 2):
        return "team"
    if near(words, index, REPORT_VERBS, 4, 0):
        return "report"
    if near(words, index, FIRST_PERSON, 3, 0) or near(words, index, WE, 3, 0):
        return "self"
    if _simile_of(words, index, FIRST_PERSON | WE):  # "I played that like a total noob"
        return "self"
    if index == 0 and after in SELF_AFTER:  # "noob here, how do blinds work"
        return "self"
    if after in PEOPLE_HEADS:
        return "pointed"
    if near(words, index, POINTERS, 2, 0) and not near(words, index, FIRST_PERSON, 4, 3):
        return "pointed"
    if near(words, index, THIRD_PERSON, 3, 0):
        return "third"
    if strength == "label" and _name_calling(words, index):
        return "vocative"
    if before in GENERIC_BEFORE:  # "any noobs here?", "tips for noobs"
        return "players"
    return "unclear"


def _names(words: Sequence[str], at: int, index: int) -> bool:
    """Whether the mention at `words[at]` is who the insult at `index` is said to: right
    before or after it, or linked by "is", "a", "such" ("@bob noob", "@bob ur trash"), not a
    tweet's routing before a remark about someone else ("@bob lakers trash")."""
    if at == index + 1:
        return True
    between = words[at + 1 : index] if at < index else ["?"]
    return all(w in LINKERS or w in COPULAS or w in SECOND_PERSON for w in between)


def _simile_of(words: Sequence[str], index: int, subjects: frozenset[str]) -> bool:
    """ "... like a (total) noob" with one of `subjects` earlier in the clause: the insult is a
    comparison made of them."""
    j = index - 1
    while j >= 0 and words[j] in LINKERS:
        j -= 1
    return j >= 0 and words[j] == "like" and near(words, j, subjects, 5, 0)


def _called(words: Sequence[str], index: int) -> bool:
    """ "you bot", "u r a bot", "ur such a monkey": a second person right before, linked only
    by a copula and articles or intensifiers."""
    j = index - 1
    while j >= 0 and (words[j] in LINKERS or words[j] in COPULAS):
        j -= 1
    return j >= 0 and words[j] in SECOND_PERSON and (j == 0 or words[j - 1] not in COPULAS)


def _name_calling(words: Sequence[str], index: int) -> bool:
    """The message is the insult, fillers ("gg", "lol") and at most one other word (a name):
    "noob", "gg noob", "noob sf", "ez noob lol"."""
    others = [w for i, w in enumerate(words) if i != index and w not in FILLERS]
    return len(others) <= 1 and len(words) <= 4
