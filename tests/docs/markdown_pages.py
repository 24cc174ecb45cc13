"""Reads the repository's Markdown the way a reader's browser does: links outside code only.

The documentation tests need the same view of a page (its links, its headings' anchors, its
prose without code) and must not count a link written inside a code sample, which no reader
can follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"

_FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
_LINK = re.compile(r"!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


@dataclass(frozen=True, slots=True)
class Link:
    """A link as a reader meets it: its text, its raw target, and the line it is on."""

    source: Path
    line: int
    text: str
    target: str

    @property
    def is_external(self) -> bool:
        return bool(_EXTERNAL.match(self.target))

    def resolved(self) -> tuple[Path, str]:
        """The file the link opens and the anchor it jumps to ("" for none)."""
        path, _, anchor = self.target.partition("#")
        file = self.source if not path else (self.source.parent / path).resolve()
        return file, anchor

    def where(self) -> str:
        return f"{self.source.relative_to(REPO)}:{self.line}: [{self.text}]({self.target})"


def without_code(markdown: str) -> str:
    """The page with fenced blocks and code spans blanked, line breaks kept for line numbers."""
    blank = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    return _CODE_SPAN.sub(blank, _FENCE.sub(blank, markdown))


def links(page: Path) -> list[Link]:
    prose = without_code(page.read_text(encoding="utf-8"))
    return [
        Link(page, prose.count("\n", 0, m.start()) + 1, m.group(1), m.group(2))
        for m in _LINK.finditer(prose)
    ]


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings: lower case, no punctuation, dashes for spaces."""
    found: set[str] = set()
    text = _FENCE.sub("", page.read_text(encoding="utf-8"))
    for heading in _HEADING.findall(text):
        plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
        slug = re.sub(r"[^\w\- ]", "", plain).replace(" ", "-")
        candidate, n = slug, 1
        while candidate in found:
            candidate, n = f"{slug}-{n}", n + 1
        found.add(candidate)
    return found


def markdown_pages() -> list[Path]:
    """The README and every Markdown page under docs/."""
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]
