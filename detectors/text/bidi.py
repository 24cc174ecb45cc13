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
    out: list[str] = []
    run: list[str] | None = None
    for char in text:
        if run is not None:
            if char in _ENDS:
                out.extend(reversed(run))
                out.append(char)
                run = None
            elif char == RLO:  # a nested override: the same direction, one run
                run.append(char)
            else:
                run.append(char)
        elif char == RLO:
            out.append(char)
            run = []
        else:
            out.append(char)
    if run is not None:
        out.extend(reversed(run))
    return "".join(out)
