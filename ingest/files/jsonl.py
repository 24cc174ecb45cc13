"""Reads JSON Lines files as raw records that remember where they came from.

Decoding is a separate step so that a bad line can be reported by its line number and skipped,
and the rest of the file still processed.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

from railbird.ingest.decode import RawRecord


def read_jsonl(path: Path | str) -> Iterator[RawRecord]:
    """Yield each non-blank line of `path` ('-' for stdin) with its 1-based line number."""
    name = str(path)
    stream = sys.stdin.buffer if name == "-" else Path(path).open("rb")  # noqa: SIM115
    try:
        for number, line in enumerate(stream, start=1):
            if line.strip():
                yield RawRecord(name, f"line {number}", line)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
