"""Removes disclosed personal data from chat text before it is stored or logged.

Pure and total: any string in, a string out, with each email, phone number, payment card and
street address replaced by a placeholder naming its kind, so an analyst still sees what was
shared without the store keeping it.

The message is read three ways, and what any reading finds is cut out of the text as typed:
as typed (`pii_patterns`, the `personal_info` detector's recognisers); as it displays, when a
right-to-left override turns part of it round (`bidi.visual_positions`: "moc.elpmaxe@oj"
behind U+202E shows as an address); and as a person reads it (`spelled_out`: "jo at example
dot com", a full-width at sign and dot, digits in words, through the chat rules' own
folding). Redacting a little too much costs an analyst a word; keeping an address costs a
player their privacy.
"""

from __future__ import annotations

from railbird.detectors.text.bidi import RLO, visual_positions
from railbird.detectors.text.pii_patterns import PiiKind, PiiSpan, find_pii, luhn_ok
from railbird.detectors.text.spelled_out import read_as_written

_RANK: dict[PiiKind, int] = {"card": 0, "email": 1, "address": 2, "phone": 3}


def redact(text: str) -> str:
    """`text` with every recognised piece of personal data replaced by `[email]`, `[phone]`,
    `[card]` or `[address]`."""
    spans = pii_spans(text)
    if not spans:
        return text
    parts: list[str] = []
    position = 0
    for span in spans:
        parts.append(text[position : span.start])
        parts.append(f"[{span.kind}]")
        position = span.end
    parts.append(text[position:])
    return "".join(parts)


def pii_spans(text: str) -> list[PiiSpan]:
    """Non-overlapping spans of `text` holding personal data, as typed, as displayed or as
    read, in order; where two overlap they are one span of the more serious kind."""
    found = find_pii(text)
    if RLO in text:
        found = found + _displayed(text)
    reading = read_as_written(text)
    if reading is not None:
        for span in find_pii(reading.text):
            start, end = reading.original(span.start, span.end)
            found.append(PiiSpan(span.kind, start, end))
        for start, end, digits in reading.numbers:
            kind: PiiKind = "card" if 13 <= len(digits) <= 19 and luhn_ok(digits) else "phone"
            found.append(PiiSpan(kind, start, end))
    return _union(found) if found else found


def _displayed(text: str) -> list[PiiSpan]:
    """Spans found in the displayed order, as spans of the stored text (a span inside a
    reversed run is the same characters, mirrored)."""
    positions = visual_positions(text)
    shown = "".join(text[i] for i in positions)
    spans = []
    for span in find_pii(shown):
        covered = positions[span.start : span.end]
        spans.append(PiiSpan(span.kind, min(covered), max(covered) + 1))
    return spans


def _union(spans: list[PiiSpan]) -> list[PiiSpan]:
    ordered = sorted(spans, key=lambda s: (s.start, -s.end))
    merged: list[PiiSpan] = []
    for span in ordered:
        if merged and span.start < merged[-1].end:
            last = merged[-1]
            kind = min(last.kind, span.kind, key=_RANK.__getitem__)
            merged[-1] = PiiSpan(kind, last.start, max(last.end, span.end))
        else:
            merged.append(span)
    return merged
