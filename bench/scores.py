"""Precision, recall and F1 from counts: the one arithmetic every quality benchmark reports."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

HEADER = "| system | precision | recall | F1 | TP | FP | FN |\n|---|---|---|---|---|---|---|"


@dataclass(frozen=True, slots=True)
class Score:
    tp: int
    fp: int
    fn: int

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def row(self, name: str) -> str:
        """One row of a `HEADER` table."""
        return (
            f"| {name} | {self.precision:.3f} | {self.recall:.3f} | {self.f1:.3f} | "
            f"{self.tp} | {self.fp} | {self.fn} |"
        )


def score(truth: Sequence[bool], predicted: Sequence[bool]) -> Score:
    """Counts of `predicted` against `truth`, item by item."""
    pairs = list(zip(truth, predicted, strict=True))
    return Score(
        sum(t and p for t, p in pairs),
        sum(p and not t for t, p in pairs),
        sum(t and not p for t, p in pairs),
    )
