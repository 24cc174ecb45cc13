"""No comment or docstring in railbird's code carries a measurement.

A timing, a percentage or a date written beside the code is true on the day it was measured and
silently false after; docs/design-numbers.md holds them with the command that re-measures them.
The check reads the shipped packages (not tests or benchmarks, whose docstrings describe the
splits and targets they measure against) and knows a few lines that name a setting or quote an
example rather than report a measurement.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

from tests.docs.markdown_pages import REPO

PACKAGES = ("api", "detectors", "ingest", "rules", "sim", "store", "railbird")
# A time in micro-, milli- or nanoseconds, a percentage, an ISO date.
MEASUREMENT = re.compile(r"\d\s*(?:µs|us|ms|ns)\b|\d\s*%|\b(?:19|20)\d\d-\d\d-\d\d\b")

# (file, text on the line) -> why it is not a measurement.
ALLOWED: dict[tuple[str, str], str] = {
    ("api/server_tuning.py", "5 ms by default"): "CPython's switch interval, a setting",
    ("api/server_tuning.py", "At 0.5 ms the wait"): "the interval railbird sets",
    ("detectors/chat/advertising.py", '"45%" alone'): "an example of poker chat",
    ("detectors/ml/multilingual_training.py", "70% to fit, 10% to calibrate"): "the split",
    ("detectors/ml/multilingual_training.py", "threshold, 20%"): "the split",
    ("detectors/play/pair_evidence.py", "(honest play does that 8%)"): "an example of evidence",
    ("ingest/phh/importer.py", "2000-01-01"): "the date given to undated histories",
    ("sim/hand_clock.py", "~90% of decisions between"): "what the simulator's parameters mean",
    ("sim/structure.py", "rising about 20-25% a level"): "the simulated blind structure",
}
# Alembic writes each migration's creation date in its header.
SKIPPED_DIRS = ("store/migrations/",)


def python_files() -> list[Path]:
    files: list[Path] = []
    for package in PACKAGES:
        root = REPO / package
        if root.is_symlink():
            continue  # railbird/<edge> links to a folder read on its own
        files += [
            f
            for f in root.rglob("*.py")
            if not f.relative_to(REPO).as_posix().startswith(SKIPPED_DIRS)
            and not any(part.is_symlink() for part in f.relative_to(REPO).parents if part.name)
        ]
    return sorted(set(files))


def comment_lines(source: str) -> list[tuple[int, str]]:
    """Each comment, and each line of each docstring, with its line number."""
    found = [
        (tok.start[0], tok.string)
        for tok in tokenize.generate_tokens(io.StringIO(source).readline)
        if tok.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                for offset, line in enumerate(first.value.value.splitlines()):
                    found.append((first.lineno + offset, line))
    return found


def measurements(path: Path) -> list[str]:
    name = path.relative_to(REPO).as_posix()
    return [
        f"{name}:{number}: {text.strip()}"
        for number, text in comment_lines(path.read_text(encoding="utf-8"))
        if MEASUREMENT.search(text) and not any(f == name and quote in text for f, quote in ALLOWED)
    ]


def test_no_comment_carries_a_measurement() -> None:
    found = [hit for path in python_files() for hit in measurements(path)]
    assert not found, "move these to docs/design-numbers.md:\n" + "\n".join(found)


def test_every_allowed_line_still_exists() -> None:
    # An allowance whose line is gone would silently allow the next one written there.
    sources = {f: (REPO / f).read_text(encoding="utf-8") for f, _ in ALLOWED}
    assert [key for key in ALLOWED if key[1] not in sources[key[0]]] == []


def test_the_pattern_tells_measurements_from_prose(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Loads in 12 ms.\n\nTwo passes, then one."""\n'
        "x = 1  # 30% faster since 2026-12-01\n"
        "y = 2  # the 3 msgs a player sent; version 2.0\n",
        encoding="utf-8",
    )
    lines = [text for _, text in comment_lines(sample.read_text()) if MEASUREMENT.search(text)]
    assert sorted(lines) == ["# 30% faster since 2026-12-01", "Loads in 12 ms."]
