"""docs/detectors.md names every registered detector, so a new one cannot ship unexplained."""

from __future__ import annotations

from railbird.detectors.registry import DETECTOR_TYPES
from tests.docs.markdown_pages import DOCS


def test_every_registered_detector_is_on_the_detectors_page() -> None:
    page = (DOCS / "detectors.md").read_text(encoding="utf-8")
    missing = [d.name for d in DETECTOR_TYPES if f"| `{d.name}` |" not in page]
    assert not missing, f"add a row to docs/detectors.md for: {', '.join(missing)}"
