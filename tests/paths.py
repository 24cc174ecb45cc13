"""Where the shared corpora and examples live: beside the repository, never copied into it."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
EXAMPLES = SHARED / "examples"
DATA = SHARED / "data"
