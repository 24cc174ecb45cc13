"""Removes disclosed personal data from chat text before it is stored or logged.

Pure and total: any string in, a string out, with each email, phone number, payment card and
street address replaced by a placeholder naming its kind, so an analyst still sees what was
shared without the store keeping it.
"""

from __future__ import annotations

from railbird.detectors.text.pii_patterns import find_pii


def redact(text: str) -> str:
    """`text` with every recognised piece of personal data replaced by `[email]`, `[phone]`,
    `[card]` or `[address]`."""
    spans = find_pii(text)
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
