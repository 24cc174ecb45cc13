"""A number quoted from a measurement page must still be on that page.

The README and the summary pages quote results as links to the page that measured them
(`[1.25x](docs/benchmarks-kafka.md)`): the link is the mark. When a benchmark is re-run and its
page changes, a stale quote fails here instead of two pages disagreeing.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.docs.markdown_pages import Link, links, markdown_pages

# Pages that hold measurements; a quote's source must be one of them.
_MEASURED = re.compile(r"^(benchmarks|quality|model-card|capacity)[\w-]*\.md$")
_EMPHASIS = re.compile(r"\*\*|__|`|\*")


def _plain(text: str) -> str:
    return " ".join(_EMPHASIS.sub("", text).split())


def quoted(link: Link) -> bool:
    file, _ = link.resolved()
    return bool(re.search(r"\d", link.text)) and bool(_MEASURED.match(file.name))


def said_on(page: Path, quote: str) -> bool:
    """`quote` appears on `page` as a whole number: "0.8" is not found inside "0.83"."""
    phrase = re.escape(_plain(quote))
    return (
        re.search(rf"(?<![\d.,]){phrase}(?!\d|[.,]\d)", _plain(page.read_text("utf-8"))) is not None
    )


def test_every_quoted_number_is_on_the_page_it_links() -> None:
    stale = [
        f"{link.where()}: not on {link.resolved()[0].name}"
        for page in markdown_pages()
        for link in links(page)
        if not link.is_external
        and quoted(link)
        and link.resolved()[0].exists()
        and not said_on(link.resolved()[0], link.text)
    ]
    assert not stale, "\n".join(stale)


def test_the_readme_quotes_its_numbers() -> None:
    # The front door must carry its headline numbers as checkable quotes, not as bare text.
    readme = markdown_pages()[0]
    assert sum(quoted(link) for link in links(readme)) >= 5


def test_a_quote_matches_whole_numbers_only(tmp_path: Path) -> None:
    page = tmp_path / "benchmarks-x.md"
    page.write_text("p99 **1,674 ms** and\nrecall 0.83 (20/24)", encoding="utf-8")
    assert said_on(page, "1,674 ms")
    assert said_on(page, "recall 0.83")
    assert not said_on(page, "674 ms")
    assert not said_on(page, "0.8")
    assert not said_on(page, "1,67")
