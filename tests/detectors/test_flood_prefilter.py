"""`loud_text.may_flood` settles most long ASCII lines with one XOR at distance 6 before the
two it is defined by (distances 2 and 3). The oracle is the two-XOR gate as it was: the same
answer on every line, NULs and stretches at either end included.
"""

from __future__ import annotations

import random

import pytest

from railbird.detectors.text.loud_text import CHAR_FLOOD, may_flood


def _two_xor_gate(text: str) -> bool:
    if text.isascii():
        data = text.encode("ascii")
        size = len(data)
        value = int.from_bytes(data)
        if (value ^ (value >> 16)).to_bytes(size).find(bytes(6)) >= 0:
            return True
        return size >= 24 and (value ^ (value >> 24)).to_bytes(size).find(bytes(21)) >= 0
    data = text.encode("utf-32-be", "surrogatepass")
    size = len(data)
    value = int.from_bytes(data)
    if (value ^ (value >> 64)).to_bytes(size).find(bytes(24)) >= 0:
        return True
    return len(text) >= 24 and (value ^ (value >> 96)).to_bytes(size).find(bytes(84)) >= 0


def _lines(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(count):
        alphabet = rng.choice(["ab", "abc", "\0a", "\0", "xyz !", "the quick brown fox"])
        out.append("".join(rng.choices(alphabet, k=rng.randint(0, 60))))
    pads = ("", "x", "hello there my friends ", " and that is all folks", "\0\0", "\0")
    for unit in ("a", "ab", "abc", "\0", "\0a", "a\0b", "ha ", "!?"):
        for times in (6, 7, 8, 9, 12):
            for pad in pads:
                out.extend((pad + unit * times, unit * times + pad, pad + unit * times + pad))
    return out


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return _lines(20000, seed=5)


def test_one_xor_prefilter_gives_the_two_xor_answer(lines: list[str]) -> None:
    assert [t for t in lines if may_flood(t) != _two_xor_gate(t)] == []
    assert sum(map(_two_xor_gate, lines)) > 1000  # both answers are well represented


def test_long_floods_pass_and_long_near_misses_are_settled(lines: list[str]) -> None:
    long_floods = [t for t in lines if len(t) >= 24 and CHAR_FLOOD.search(t)]
    assert len(long_floods) > 100
    assert all(map(may_flood, long_floods))
    assert not may_flood("who is on the button this time around")
    assert may_flood("hello there my friends " + "abc" * 8)  # 8 x abc: a flood
    assert not may_flood("hello there my friends " + "abc" * 7)  # 7 x abc: not even close
