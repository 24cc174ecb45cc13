"""The order a reader sees: text after a right-to-left override shown reversed, as it displays.

"\u202ekcuf uoy" is stored back to front but displays as "you fuck": U+202E (RIGHT-TO-LEFT
OVERRIDE) lays out every following character right to left until U+202C (POP DIRECTIONAL
FORMATTING), an isolate's end, or the end of the line. Matching the stored order would let
anyone post anything; the detectors read the displayed order instead. Only the override
reverses Latin letters (embeddings and isolates change how runs are placed, not the order of
the letters within them), so only its runs are turned round. The controls themselves stay in
place, so positions in the result are positions in the original, and the readers drop them as
they drop every other invisible format character.
"""

from __future__ import annotations

RLO = "\u202e"
# What ends an override's run: POP DIRECTIONAL FORMATTING, POP DIRECTIONAL ISOLATE, a new line.
_ENDS = frozenset("\u202c\u2069\n\r\u2029")


def visual_order(text: str) -> str:
    """`text` with each right-to-left override's run reversed, as it displays."""
    if RLO not in text:
        return text
    return "".join(text[i] for i in visual_positions(text))


def visual_positions(text: str) -> list[int]:
    """For each position of `visual_order(text)`, the position in `text` it shows: what lets
    a span found in the displayed text be cut out of the stored one."""
    out: list[int] = []
    run: list[int] | None = None
    for index, char in enumerate(text):
        if run is not None:
            if char in _ENDS:
                out.extend(reversed(run))
                out.append(index)
                run = None
            else:  # a nested override is the same direction: one run
                run.append(index)
        elif char == RLO:
            out.append(index)
            run = []
        else:
            out.append(index)
    if run is not None:
        out.extend(reversed(run))
    return out


# Every character that changes the order text displays in: the explicit embeddings,
# overrides and isolates with their terminators, and the implicit direction marks. Each is
# shown as a visible mark named as Unicode abbreviates it.
BIDI_CONTROLS: dict[str, str] = {
    "\u202a": "LRE",
    "\u202b": "RLE",
    "\u202c": "PDF",
    "\u202d": "LRO",
    "\u202e": "RLO",
    "\u2066": "LRI",
    "\u2067": "RLI",
    "\u2068": "FSI",
    "\u2069": "PDI",
    "\u200e": "LRM",
    "\u200f": "RLM",
    "\u061c": "ALM",
}
MARK_OPEN, MARK_CLOSE = "\u27e8", "\u27e9"  # ⟨ ⟩: brackets chat does not otherwise use
_SHOWN = str.maketrans({c: f"{MARK_OPEN}{name}{MARK_CLOSE}" for c, name in BIDI_CONTROLS.items()})
_ANY_CONTROL = frozenset(BIDI_CONTROLS)


def has_bidi_controls(text: str) -> bool:
    return not _ANY_CONTROL.isdisjoint(text)


def visible_controls(text: str) -> str:
    """`text` in stored (logical) order with each bidi control replaced by a visible mark
    ("⟨RLO⟩"), so what an analyst reads is the characters that were sent, in the order they
    were sent, and nothing after the mark can be laid out backwards on the analyst's screen.

    For display and for what is kept for analysts; the detectors read `visual_order` (what the
    players saw), and flag evidence keeps the original where the trick itself is the evidence."""
    return text.translate(_SHOWN) if has_bidi_controls(text) else text
