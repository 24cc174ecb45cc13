from __future__ import annotations

import pytest

from railbird.detectors.text.redaction import redact


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


def test_redact_is_idempotent() -> None:
    once = redact("call 555-123-4567 or bob@x.com")
    assert redact(once) == once
