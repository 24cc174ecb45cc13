"""The chat spam detectors' fast paths must find exactly what their plain definitions find.

`ChatFlood` and `RepeatedMessages` keep each player's record in one state entry per table
(`message_burst.room`, re-put only every `KEEP_EXTRA`, each record with an `until` that readers
check) instead of putting it on every message; windows are lists with a first-item shortcut;
`RepeatedMessages` collapses a fingerprint's letter runs only when the line is compared with
another; `EmojiSpam` gates its six-word check. The references here are the plain versions:
per-player keys put on every message, the deque window as it was, a repeat check that
fingerprints with the regex definition and compares every line. A simulated day and streams
built to sit on the edges (window boundaries, late events behind a clock pushed ahead, ties)
must give identical flags.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

import railbird.detectors.chat.emoji_spam as emoji_spam_module
from railbird.detectors.chat.bursts import KEEP_EXTRA, MAX_WINDOW_ITEMS, Room, Window
from railbird.detectors.chat.chat_flood import ChatFlood
from railbird.detectors.chat.emoji_spam import EmojiSpam
from railbird.detectors.chat.lobby_waves import LobbyWaves
from railbird.detectors.chat.repeated_messages import HISTORY, RepeatedMessages
from railbird.detectors.detector import Detector
from railbird.detectors.events import AnyEvent, ChatEvent, event_from_dict
from railbird.detectors.findings import Finding
from railbird.detectors.state import State, TtlState
from railbird.detectors.text.fingerprint import fingerprint
from railbird.detectors.text.loud_text import CHAR_FLOOD, may_flood, shout_level
from railbird.rules.pipeline import Pipeline
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from tests.builders import at, chat, table
from tests.detectors.test_spam_fast_paths import reference_fingerprint, reference_shout_level
from tests.detectors.test_spam_memos import KeyedLobbyWaves, keyed_wave

_NEVER = datetime.min.replace(tzinfo=UTC)


def _grams(fp: str) -> set[str]:
    return {fp[i : i + 3] for i in range(max(1, len(fp) - 2))}


class _DequeWindow:
    """`Window` as it was: a deque pruned from the front after every append."""

    def __init__(self) -> None:
        self.until = self.refresh_by = _NEVER
        self.items: deque[tuple[datetime, str, float]] = deque()
        self.total = 0.0

    def add(self, ts: datetime, message_id: str, weight: float, span: timedelta) -> None:
        self.items.append((ts, message_id, weight))
        self.total += weight
        while self.items and self.items[0][0] <= ts - span:
            self.total -= self.items.popleft()[2]
        while len(self.items) > MAX_WINDOW_ITEMS:
            self.total -= self.items.popleft()[2]

    def clear(self) -> None:
        self.items.clear()
        self.total = 0.0

    @property
    def count(self) -> int:
        return len(self.items)

    def ids(self) -> list[str]:
        return [mid for _, mid, _ in self.items]

    def first_ts(self) -> datetime:
        return self.items[0][0]


class _PlainFlood(ChatFlood):
    """The flood window by its definition: one key per player and channel, put on every
    message. What follows a full window (bursts, the flag) is the detector's own."""

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent):
            return []
        span = timedelta(seconds=self.window_seconds)
        route = event.table_id or event.player_id
        key = (route, event.player_id, event.channel, "plain")
        window = state.get(key) or _DequeWindow()
        window.add(event.ts, event.message_id, 1.0, span)
        state.put(key, window, span)
        limit = self.max_messages.get(event.channel, self.default_max_messages)
        if window.count <= limit:
            return []
        return self._flood(event, route, window, limit, span, state)  # type: ignore[arg-type]


class _PlainRepeats(RepeatedMessages):
    """The repeat check by its definition: regex fingerprint, the player's last `HISTORY`
    lines put on every message, each compared (same text, or trigram Jaccard when the
    lengths allow it). Waves and bursts are the detector's own."""

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or not event.text or event.kind == "snapcam":
            return []
        fp, length = reference_fingerprint(event.text)
        if length < self.min_chars:
            return []
        span = timedelta(seconds=self.window_seconds)
        route = event.table_id or event.player_id
        key = (route, event.player_id, "plain-said")
        said = [s for s in state.get(key, []) if s[0] > event.ts - span]
        matches = []
        for _, old_id, old_fp in said:
            short, long_ = sorted((len(old_fp), len(fp)))
            if old_fp == fp or (
                short >= self.similarity * long_
                and len(_grams(old_fp) & _grams(fp)) / len(_grams(old_fp) | _grams(fp))
                >= self.similarity
            ):
                matches.append(old_id)
        state.put(key, [*said, (event.ts, event.message_id, fp)][-HISTORY:], span)
        findings = (
            self._repeats(event, route, matches, span, state)
            if len(matches) + 1 >= self.min_repeats
            else []
        )
        if length >= self.wave_min_chars and event.table_id:  # away from tables: lobby_waves
            findings.extend(
                keyed_wave(
                    self.name, event, fp, state, span, self.wave_min_players, self.window_seconds
                )
            )
        return findings


def _flags(detectors: Sequence[Detector], events: Sequence[AnyEvent]) -> list[dict[str, Any]]:
    pipeline = Pipeline(detectors)
    return [flag.to_dict() for event in events for flag in pipeline.process(event).flags]


def _compare(events: Sequence[AnyEvent], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Flags of the fast detectors == flags of the plain ones; returns the evidence kinds."""
    fast = _flags([ChatFlood(), RepeatedMessages(), LobbyWaves(), EmojiSpam()], events)
    with monkeypatch.context() as patch:
        patch.setattr(emoji_spam_module, "Window", _DequeWindow)
        plain = _flags([_PlainFlood(), _PlainRepeats(), KeyedLobbyWaves(), EmojiSpam()], events)
    assert fast == plain
    return [str(f["evidence"]["kind"]) for f in fast]


def _simulated_day() -> list[AnyEvent]:
    config = SimConfig(
        seed=1,
        tournaments=1,
        cash_tables=3,
        hours=1.5,
        players_per_tournament=45,
        violation_scale=2.0,
    )
    return [event_from_dict(e) for kind, e in simulate(config) if kind == "event"]


def test_simulated_day_same_flags_as_the_plain_detectors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kinds = _compare(_simulated_day(), monkeypatch)
    # Every kind of finding is in the comparison, or it would prove little.
    assert {"chat_flood", "repeated_message", "bot_wave", "emoji_spam", "shouting"} <= set(kinds)


def _edge_stream(seed: int) -> Iterator[AnyEvent]:
    """Two players on one table and one in private chat, messages at gaps around the
    10 s flood window, the 60 s repeat window and `KEEP_EXTRA`, with stretched, numbered and
    punctuation-only repeats, and table events that push the clock ahead of late chat."""
    rng = random.Random(seed)
    lines = [
        "visit my stream tonight",
        "viiiisit my stream tonight!!",
        "visit my stream tonite",
        "VISIT MY STREAM TONIGHT",
        "!!!!!!!!",
        "??!!??!!??",
        "gg wp",
        "hiiiiiiiiiiiii all",
        "hii all",
        "buy chips cheap at example dot com 1",
        "buy chips cheap at example dot com 2",
        "lolololololololololol",
        "\u212aing of the table",  # Kelvin sign: non-ASCII that lowers to ASCII
        "n\u00e4\u00e4\u00e4\u00e4ice hand",
        "\U0001f525\U0001f525\U0001f525\U0001f525\U0001f525\U0001f525\U0001f525",
        "ok",
    ]
    gaps = [0.0, 0.001, 1.0, 9.999, 10.0, 10.001, 59.999, 60.0, 60.001, 300.0]
    gaps += [KEEP_EXTRA.total_seconds() + d for d in (-0.001, 0.0, 0.001, 10.0, 60.0)]
    t = 0.0
    for _ in range(300):
        t += rng.choice(gaps) if rng.random() < 0.3 else rng.uniform(0.0, 4.0)
        player = rng.choice(["p-1", "p-2", "p-3"])
        if rng.random() < 0.1:  # the clock jumps ahead; the next chat may be late
            yield table("hand_start", t=t + rng.choice([5.0, 10.0, 60.0]), hand_id="h-1")
        late = rng.choice([0.0, 0.0, 0.0, 1.0, 10.0, 20.0])
        private = player == "p-3"
        for _ in range(rng.choice([1, 1, 1, 5, 7, 9])):  # sometimes a burst of lines
            t += rng.uniform(0.1, 1.5)
            yield chat(
                rng.choice(lines),
                t=max(0.0, t - late),
                player=player,
                table=None if private else "t-1",
                channel="private" if private else "table",
                recipient="p-1" if private else None,
                kind=rng.choice(["text", "text", "text", "emoji", "snapcam"]),
            )


@pytest.mark.parametrize("seed", range(6))
def test_edge_streams_same_flags_as_the_plain_detectors(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    kinds = _compare(list(_edge_stream(seed)), monkeypatch)
    assert {"chat_flood", "repeated_message"} <= set(kinds)


def test_a_late_message_after_the_clock_moved_on_starts_a_fresh_window() -> None:
    """A kept window whose `until` passed must read as empty even though its messages are
    still inside the window by event time: the plain detector's put had expired."""
    state = TtlState()
    flood = ChatFlood()
    found: list[Finding] = []
    for i in range(6):
        event = chat("hi there", t=float(i), message_id=f"a-{i}")
        state.advance(event.ts)
        found.extend(flood.detect(event, state))
    state.advance(chat("x", t=15.0).ts)  # a table event at 15 s moved the clock
    late = chat("hi there", t=12.0, message_id="a-late")  # 7th within 10 s of event time
    found.extend(flood.detect(late, state))
    assert found == []
    # Without the clock jump the same seventh message is a flood of all seven.
    state = TtlState()
    for i in range(6):
        event = chat("hi there", t=float(i), message_id=f"b-{i}")
        state.advance(event.ts)
        found.extend(flood.detect(event, state))
    event = chat("hi there", t=6.0, message_id="b-6")
    state.advance(event.ts)
    found.extend(flood.detect(event, state))
    assert [f.message_ids for f in found] == [tuple(f"b-{i}" for i in range(7))]


def test_a_room_is_put_rarely_and_its_members_still_expire_in_time() -> None:
    state = TtlState()
    flood = ChatFlood()
    for i in range(50):  # a message every 5 s for about four minutes
        event = chat("hello", t=5.0 * i)
        state.advance(event.ts)
        flood.detect(event, state)
    windows: Room = state.get(("t-1", "flood"))
    assert windows.refresh_by == at(0.0) + KEEP_EXTRA  # put once, not on every message
    window: Window = windows.members["p-1", "table"]
    assert len(window.items) == 2  # 240 s and 245 s: 235 s left the 10 s window
    state.advance(chat("x", t=255.0).ts)
    assert window.until == state.now  # gone for readers, though the room still holds it
    event = chat("hello", t=255.0)
    flood.detect(event, state)
    assert [mid for _, mid, _ in window.items] == [event.message_id]
    # Past `KEEP_EXTRA` the room is put again, and members whose `until` passed are dropped.
    later = chat("hello", t=KEEP_EXTRA.total_seconds() + 1.0, player="p-2")
    state.advance(later.ts)
    flood.detect(later, state)
    assert list(windows.members) == [("p-2", "table")]
    assert windows.refresh_by == later.ts + KEEP_EXTRA


def test_a_zero_window_never_floods() -> None:
    state = TtlState()
    flood = ChatFlood(window_seconds=0.0, default_max_messages=1)
    found = []
    for i in range(20):
        event = chat("spam spam", t=0.0, message_id=f"z-{i}")
        state.advance(event.ts)
        found.extend(flood.detect(event, state))
    assert found == []


@pytest.mark.parametrize("seed", range(3))
def test_window_matches_the_deque_window(seed: int) -> None:
    rng = random.Random(seed)
    t0 = datetime.fromisoformat("2026-11-29T20:00:00+00:00")
    fast, plain = Window(), _DequeWindow()
    for i in range(3000):
        ts = t0 + timedelta(seconds=rng.choice([i * 0.5, i * 0.5 - 3.0, i * 0.01]))
        span = timedelta(seconds=rng.choice([10.0, 10.0, 0.0, -1.0, 0.5]))
        weight = float(rng.randint(0, 5))
        fast.add(ts, f"m-{i}", weight, span)
        plain.add(ts, f"m-{i}", weight, span)
        assert fast.items == list(plain.items)
        assert fast.total == plain.total
        if rng.random() < 0.01:
            fast.clear()
            plain.clear()


def test_stretched_first_line_stored_uncollapsed_still_matches() -> None:
    """The first line is kept with its runs uncollapsed (nobody to compare it with yet);
    later lines must still see it as the same text."""
    state = TtlState()
    detector = RepeatedMessages()
    found: list[Finding] = []
    for i, text in enumerate(["hiiiiiiiiiiiii all", "hii all", "HIIIIIIIIIII ALL!"]):
        event = chat(text, t=float(i), message_id=f"s-{i}")
        state.advance(event.ts)
        found.extend(detector.detect(event, state))
    assert [f.message_ids for f in found] == [("s-0", "s-1", "s-2")]


def test_punctuation_only_and_short_lines() -> None:
    """A line of symbols keeps them (and its length) as its fingerprint; five letters
    with punctuation is under `min_chars` however it is spelled."""
    state = TtlState()
    detector = RepeatedMessages()
    found: list[Finding] = []
    for i in range(3):
        for text, mid in (("!!!!!!!!", f"p-{i}"), ("g.g.w.p.!", f"q-{i}")):
            event = chat(text, t=float(i), message_id=mid)
            state.advance(event.ts)
            found.extend(detector.detect(event, state))
    assert fingerprint("!!!!!!!!") == ("!!", 8)
    assert fingerprint("g.g.w.p.!") == ("ggwp", 4)
    assert [f.message_ids for f in found] == [("p-0", "p-1", "p-2")]


@pytest.mark.parametrize(
    "text",
    [
        "K\u212aing of the hill",
        "\u212a\u212a\u212a\u212aing",
        "stra\u00dfe stra\u00dfe",
        "\u0130stanbul trip",
        "plain ascii line",
    ],
)
def test_fingerprint_paths_match_the_definition(text: str) -> None:
    assert fingerprint(text) == reference_fingerprint(text)


def _near_floods() -> list[str]:
    out: list[str] = []
    for unit in ("a", "ab", "abc", "\u00e4", "\u00e4b", "\U0001f525\u00e4x", "a!", "!!?"):
        for times in (6, 7, 8, 9):
            for pad in ("", "x", "hey ", " yo", "\U0001f600"):
                out.extend((pad + unit * times, unit * times + pad, pad + unit * times + pad))
    return out


def test_may_flood_is_necessary_for_a_char_flood() -> None:
    """7 vs 8 repeats of units of 1-3 characters, ASCII and not, at either end."""
    floods = [text for text in _near_floods() if CHAR_FLOOD.search(text)]
    assert len(floods) > 100
    assert [text for text in floods if not may_flood(text)] == []


def test_may_flood_rejects_ordinary_lines() -> None:
    """The gate must also be a gate: ordinary chat rarely passes it."""
    lines = ["nice hand mate", "gl everyone", "who is on the button", "ty gg wp all"]
    assert not any(may_flood(line) for line in lines)


def test_the_ascii_lowering_table_is_str_lower() -> None:
    """`fingerprint` lowers ASCII inside its `translate`: the same as `str.lower` there."""
    table = bytes.maketrans(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ", b"abcdefghijklmnopqrstuvwxyz")
    everything = bytes(range(128))
    assert everything.translate(table) == everything.decode("ascii").lower().encode("ascii")


@pytest.mark.parametrize(
    "text",
    [
        "spam spam spam spam spam spam",  # five spaces: the gate lets it through
        "spam\tspam\nspam\x0bspam\x0cspam\rspam",  # other ASCII whitespace
        "spam\x1cspam\x1dspam\x1espam\x1fspam spam",  # str.split() splits on these too
        "spam spam spam spam spamspam",  # four separators: five words, never six
        "SPAM SPAM SPAM SPAM SPAM SPAM",
        "spam\u3000spam\u3000spam\u3000spam\u3000spam\u3000spam",  # not ASCII: no gate
    ],
)
def test_six_word_gate_matches_the_definition(text: str) -> None:
    """`shout_level` looks for a repeated word only with five ASCII separators or more."""
    assert shout_level(text, 10, 0.8) == reference_shout_level(text, 10, 0.8)


def test_six_word_gate_still_finds_word_floods() -> None:
    assert shout_level("spam\x1cspam\x1dspam\x1espam\x1fspam spam", 10, 0.8) == (
        2,
        "one word repeated",
    )
    assert shout_level("spam spam spam spam spamspam", 10, 0.8) == (0, "")
