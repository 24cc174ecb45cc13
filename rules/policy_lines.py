"""Where in a policy file a table or key is written, so an error can name its line.

`tomllib` keeps no positions, so the text is read again here, line by line: a table header
(`[chat_check.channels.table]`), a key inside the table it belongs to (`site_domains = ...`
under `[detectors.malicious_link]`), a dotted key (`chat_flood.window_seconds = 5` under
`[detectors]`), or an inline table's key (`malicious_link = { ... }`).
"""

from __future__ import annotations

import re


class PolicyError(ValueError):
    """A policy file that cannot be used; the message names the file and the line."""


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(?:#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_.\-\" ]+?)\s*=")


class PolicyLines:
    """The lines of a policy file's text, for error messages naming where `name` is."""

    def __init__(self, text: str, source: str) -> None:
        self.source = source
        # (line number, table the line is in, the key it sets or None, header or None)
        self._lines: list[tuple[int, str, str | None, str | None]] = []
        table = ""
        for number, line in enumerate(text.splitlines(), 1):
            header = _HEADER.match(line)
            if header is not None:
                table = _dotted(header.group(1))
                self._lines.append((number, table, None, table))
                continue
            key = _KEY.match(line)
            if key is not None:
                self._lines.append((number, table, _dotted(key.group(1)), None))

    def error(self, name: str, message: str) -> PolicyError:
        """A `PolicyError` naming the source and the line `name` (a dotted table or key) is on."""
        line = self.line_of(name)
        at = f" line {line}" if line else ""
        return PolicyError(f"{self.source}{at}: {message}")

    def line_of(self, name: str) -> int | None:
        """The line where `name` is written: its header, its key in its table, or, failing
        those, the nearest enclosing table or key that is written (an inline table's key)."""
        parts = name.split(".")
        for cut in range(len(parts), 0, -1):
            wanted = ".".join(parts[:cut])
            for number, table, key, header in self._lines:
                if header == wanted:
                    return number
                if key is not None and (f"{table}.{key}" if table else key) == wanted:
                    return number
        # A bare key written anywhere (an old caller's name without its table).
        last = parts[-1]
        for number, _table, key, _header in self._lines:
            if key == last:
                return number
        return None


def _dotted(written: str) -> str:
    """A header's or key's name as `tomllib` reads it: quotes and spaces around dots gone."""
    return ".".join(part.strip().strip('"') for part in written.split("."))
