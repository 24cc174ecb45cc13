"""Which of harassment's patterns can match a message, read off its words.

The patterns are long alternations: one combined search over a stream of table talk costs
microseconds, and table talk is full of their weaker words ("bad beat", "back home", "i play").
Every pattern needs certain whole words: "watch your back" needs "watch" and "back", a threat
to "go die" needs "die". Listed here per pattern (each set must share a word with the message),
they rule patterns out with set operations. Exact on a stream whose tokens hold no "*": every
other token is a run of word characters, so a literal the pattern brackets with spaces or word
boundaries is a whole token.
"""

from __future__ import annotations

from collections.abc import Collection


def _w(words: str) -> frozenset[str]:
    return frozenset(words.split())


_YOU = _w("you u ya ur your youre ure")
_SELF = _w("yourself urself self yourselves urselves yoself")
_VIOLENT = _w("murder shoot stab rape strangle choke hunt dox doxx swat behead")
_BANTER = _w("kill hurt beat destroy end smash punch slap bury find")

# Per pattern, in the order of harassment's `_PATTERNS` then `_SELF_PATTERNS`: word sets that
# must each share a word with the message. The first set is the one looked up.
NEEDS: tuple[tuple[frozenset[str], ...], ...] = (
    (_SELF,),  # kill yourself
    (_w("die drown hang"), _w("go pls please just should")),
    (_w("fire hole ditch crash"), _w("die")),
    (_w("hope wish pray"), _w("die dies cancer aids by raped burn rot choke drown crash")),
    (_VIOLENT, _YOU),
    (_BANTER, _YOU),
    (_w("know"), _w("where")),
    (_w("where"), _w("live")),
    (_w("house home door place"), _w("to"), _w("come coming up")),
    (_w("watch"), _w("back")),
    (_w("throat"), _w("slit cut")),
    (_w("break snap"), _w("legs neck arms face jaw knees")),
    (_w("beat kick whoop"), _w("ass face head")),
    (_w("bleach jump"),),
    (_w("dead"), _w("man meat")),
    (_SELF, _w("go")),  # go fuck yourself
    (_w("fuck screw fk fck f"), _YOU | {"off"}),
    (_w("suck"), _w("dick cock balls d")),
    (_w("stfu gtfo shut piss bugger sod eat"),),
    (_w("shut lost nobody"),),
    (
        _w("like"),
        _w("play played playing"),
        _w("child kid girl monkey clown idiot moron retard toddler baby grandma noob"),
    ),
    (_w("waste"), _w("oxygen space air skin sperm")),
    (_w("mom mommy mum mummy mama momma daddy"),),
    (_w("hope wish"), _w("broke everything all banned win")),
    (_w("suck"), _w("you u")),
    (
        _w("bad terrible awful horrible worthless disgusting disgrace embarrassment waste"),
        _YOU,
    ),
    (_w("suck sucks"), _w("team teams teammates")),
    (_w("uninstall"),),  # the self-directed put-downs
    (_w("worst dumbest stupidest"), _w("ever alive here on")),
    (_w("quit"), _w("poker playing game life")),
    (_w("learn l2p gud life"),),
)

_BY_WORD: dict[str, tuple[int, ...]] = {}
for _index, _sets in enumerate(NEEDS):
    for _word in _sets[0]:
        _BY_WORD[_word] = (*_BY_WORD.get(_word, ()), _index)
_LOOKED_UP = frozenset(_BY_WORD)


def possible_patterns(words: Collection[str]) -> list[int]:
    """Indices (in order) of the patterns that can match a stream of these tokens, none of
    them holding "*"; the others cannot."""
    hot = _LOOKED_UP.intersection(words)
    if not hot:
        return []
    by_word = _BY_WORD
    found = sorted({i for word in hot for i in by_word[word]})
    return [i for i in found if all(not s.isdisjoint(words) for s in NEEDS[i][1:])]
