"""Blind levels, antes and scheduled breaks of a tournament, as a function of the clock.

The schedule is a regular online "deep" structure for a 3-6 hour day: 20-minute levels, blinds
rising about 20-25% a level, a per-player ante of about an eighth of the big blind from level 4,
and a starting stack of 150+ big blinds. With it the average stack stays around 30-60 big blinds
after three hours, so play stays post-flop and a team has hands to work with, where a turbo
schedule would turn every late hand into push-or-fold.
"""

from __future__ import annotations

from dataclasses import dataclass

_BIG_BLINDS = (
    100,
    120,
    150,
    200,
    250,
    300,
    400,
    500,
    600,
    800,
    1_000,
    1_200,
    1_500,
    2_000,
    2_500,
    3_000,
    4_000,
    5_000,
    6_000,
    8_000,
    10_000,
    12_000,
    15_000,
    20_000,
    25_000,
    30_000,
    40_000,
    50_000,
    60_000,
    80_000,
    100_000,
)


@dataclass(frozen=True, slots=True)
class Structure:
    start_ms: int
    level_ms: int
    break_every_ms: int
    break_ms: int
    ante_from_level: int = 4  # 1-based level at which antes start

    def level(self, ms: int) -> int:
        """The 1-based blind level in force at `ms`."""
        return max(0, ms - self.start_ms) // self.level_ms + 1

    def blinds(self, ms: int) -> tuple[int, int, int]:
        """(small blind, big blind, ante) in force at `ms`."""
        level = self.level(ms)
        bb = _BIG_BLINDS[min(level - 1, len(_BIG_BLINDS) - 1)]
        ante = 0 if level < self.ante_from_level else max(1, bb // 8)
        return bb // 2, bb, ante

    def break_at(self, ms: int) -> tuple[int, int] | None:
        """The break (start, end) that `ms` falls in: the last minutes of every period."""
        if self.break_every_ms <= 0 or self.break_ms <= 0:
            return None
        elapsed = ms - self.start_ms
        period = elapsed // self.break_every_ms
        begin = self.start_ms + (period + 1) * self.break_every_ms - self.break_ms
        if begin <= ms < begin + self.break_ms:
            return begin, begin + self.break_ms
        return None

    def breaks(self, until_ms: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        if self.break_every_ms <= 0 or self.break_ms <= 0:
            return out
        begin = self.start_ms + self.break_every_ms - self.break_ms
        while begin < until_ms:
            out.append((begin, begin + self.break_ms))
            begin += self.break_every_ms
        return out
