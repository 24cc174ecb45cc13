"""Every docs page is reachable from the README, and no link leaves the repository or breaks.

A page nobody links is a page nobody reads; a link to `../something` works only on the machine
it was written on.
"""

from __future__ import annotations

from pathlib import Path

from tests.docs.markdown_pages import DOCS, REPO, anchors, links, markdown_pages


def test_no_link_leaves_the_repository_or_points_at_nothing() -> None:
    broken = []
    for page in markdown_pages():
        for link in links(page):
            if link.is_external:
                continue
            file, anchor = link.resolved()
            if not file.is_relative_to(REPO):
                broken.append(f"{link.where()}: outside the repository")
            elif not file.exists():
                broken.append(f"{link.where()}: no such file")
            elif anchor and file.suffix == ".md" and anchor not in anchors(file):
                broken.append(f"{link.where()}: no heading #{anchor} in {file.name}")
    assert not broken, "\n".join(broken)


def test_every_file_in_docs_is_reachable_from_the_readme() -> None:
    reached: set[Path] = set()
    todo = [REPO / "README.md"]
    while todo:
        page = todo.pop()
        if page in reached:
            continue
        reached.add(page)
        for link in links(page):
            if link.is_external:
                continue
            file, _ = link.resolved()
            if file.exists() and file.is_relative_to(REPO):
                if file.suffix == ".md":
                    todo.append(file)
                else:
                    reached.add(file)
    unreached = sorted(
        str(f.relative_to(REPO)) for f in DOCS.rglob("*") if f.is_file() and f not in reached
    )
    assert not unreached, "\n".join(unreached)


def test_the_readme_stays_a_front_door() -> None:
    # The bound: what railbird is, two commands, the flow, where to go next.
    assert len((REPO / "README.md").read_bytes()) <= 10 * 1024


def test_the_link_reader_sees_links_in_prose_and_not_in_code(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "See [a](a.md#x) and ![img](p.png).\n```\n[not](code.md)\n```\n`[nor](span.md)`\n"
        "# X heading `code`\n",
        encoding="utf-8",
    )
    assert [(lk.text, lk.target, lk.line) for lk in links(page)] == [
        ("a", "a.md#x", 1),
        ("img", "p.png", 1),
    ]
    assert anchors(page) == {"x-heading-code"}
