"""The chat spam detectors' memos and the shared bot-wave entry must not change a flag.

`RepeatedMessages` remembers each text's fingerprint and each fingerprint's trigrams,
`EmojiSpam` each text's emoji count and shout level (pure functions, bounded memos);
`bot_wave.sight` keeps a scope's texts in one state entry instead of one key per text. The
references here are the plain versions: no memo, and the wave sighting put under its own key on
every message, as before. Near-misses that a wrong memo key would conflate (case, one letter,
a detector with other settings) are checked one by one.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any

import pytest

import railbird.detectors.chat.emoji_spam as emoji_spam_module
import railbird.detectors.chat.repeated_messages as repeated_module
from railbird.detectors.chat.bot_wave import SENDER_HISTORY, WAVE_MAX_PLAYERS, Wave
from railbird.detectors.chat.bursts import Burst, Emission
from railbird.detectors.chat.emoji_spam import EmojiSpam
from railbird.detectors.chat.lobby_waves import LobbyWaves
from railbird.detectors.chat.repeated_messages import RepeatedMessages
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding, Severity, message_finding
from railbird.detectors.state import State, TtlState
from railbird.detectors.text.fingerprint import fingerprint, strip_digits
from railbird.detectors.text.loud_text import count_emoji, shout_level
from railbird.rules.pipeline import Pipeline
from tests.builders import chat, table


def keyed_wave(
    detector: str,
    event: ChatEvent,
    fp: str,
    state: State,
    span: timedelta,
    min_players: int,
    window_seconds: float,
) -> list[Finding]:
    """A bot wave as it was: the sighting (then the `Wave`) under its own state key, put on
    every message of the text, no shared entry."""
    scope = event.table_id or event.tournament_id or event.channel
    key = (scope, "wave", strip_digits(fp))
    player, ts, message_id = event.player_id, event.ts, event.message_id
    seen = state.get(key)
    if seen is None:
        if min_players > 1:
            state.put(key, (player, ts, message_id), span)
            return []
        wave = Wave({player: [(ts, message_id)]}, ts)
    else:
        wave = seen if isinstance(seen, Wave) else Wave({seen[0]: [(seen[1], seen[2])]}, ts)
        messages = wave.messages
        for sender in list(messages):
            kept = [m for m in messages[sender] if m[0] > ts - span]
            if kept:
                messages[sender] = kept
            else:
                del messages[sender]
        said = messages.setdefault(player, [])
        if len(said) < SENDER_HISTORY:
            said.append((ts, message_id))
        while len(messages) > WAVE_MAX_PLAYERS:
            del messages[next(iter(messages))]
    state.put(key, wave, span)
    players = len(wave.messages)
    if players < min_players:
        return []
    ratio = players / min_players
    severity: Severity = "critical" if ratio >= 4 else "high" if ratio >= 2 else "medium"
    if wave.burst is None:
        wave.burst = Burst()
    burst = wave.burst
    if burst.opens(ts, span):
        ordered = sorted((m for ms in wave.messages.values() for m in ms), key=lambda m: m[0])
        ids = [mid for _, mid in ordered]
        emission: Emission | None = burst.start(f"wave:{scope}", ts, ids, severity)
    else:
        emission = burst.extend(ts, message_id, severity, min_players)
    if emission is None:
        return []
    return [
        message_finding(
            event,
            detector=detector,
            category="spam",
            severity=severity,
            score={"medium": 0.75, "high": 0.9, "critical": 0.97}[severity],
            kind="bot_wave",
            summary=f"same text from {players} players within {window_seconds:.0f} s: bot wave",
            measures={"players": players, "window_seconds": window_seconds},
            message_ids=emission.message_ids,
            player_ids=tuple(sorted(wave.messages)),
            dedupe_key=emission.dedupe_key,
        )
    ]


class _KeyedWaves(RepeatedMessages):
    """A table's bot waves as they were (`keyed_wave`), no memo anywhere."""

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        self._prints.clear()
        self._grams.clear()
        object.__setattr__(self, "_state", state)  # `_wave` is not handed the state any more
        return RepeatedMessages.detect(self, event, state)

    def _wave(
        self,
        event: ChatEvent,
        fp: str,
        histories: dict[Hashable, Any],
        span: timedelta,
        now: datetime,
    ) -> list[Finding]:
        state: State = self.__dict__["_state"]
        return keyed_wave(
            self.name, event, fp, state, span, self.wave_min_players, self.window_seconds
        )


class KeyedLobbyWaves(LobbyWaves):
    """Waves away from the tables as they were (`keyed_wave`): one key per text and place."""

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.table_id:
            return []
        if not event.text or event.kind == "snapcam":
            return []
        fp, length = fingerprint(event.text)
        if length < self.wave_min_chars:
            return []
        return keyed_wave(
            self.name, event, fp, state, self._span, self.wave_min_players, self.window_seconds
        )


class _NoMemoEmoji(EmojiSpam):
    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        self._reads.clear()
        return EmojiSpam.detect(self, event, state)


def _flags(detectors: Sequence[Any], events: Sequence[AnyEvent]) -> list[dict[str, Any]]:
    pipeline = Pipeline(detectors)
    return [flag.to_dict() for event in events for flag in pipeline.process(event).flags]


def _wave_stream(seed: int) -> Iterator[AnyEvent]:
    """Bots in two scopes (a table, the lobby) sending a few long lines, some numbered, at gaps
    around the 60 s window, with the clock sometimes pushed ahead of late chat."""
    rng = random.Random(seed)
    lines = [
        "claim your free chips bonus now code 101",
        "claim your free chips bonus now code 202",
        "claaaaim your free chips bonus now code",
        "visit chipz dot com for cheap chips today",
        "visit chipz dot com for cheap chip today",
        "GG everyone, that was a great tournament",
    ]
    gaps = [0.0, 0.001, 1.0, 30.0, 59.999, 60.0, 60.001, 120.0, 300.0, 360.0]
    t = 0.0
    for i in range(400):
        t += rng.choice(gaps) if rng.random() < 0.2 else rng.uniform(0.0, 8.0)
        if rng.random() < 0.05:
            yield table("hand_start", t=t + rng.choice([10.0, 60.0]), hand_id="h-1")
        lobby = rng.random() < 0.3
        yield chat(
            rng.choice(lines),
            t=max(0.0, t - rng.choice([0.0, 0.0, 20.0])),
            player=f"bot-{rng.randrange(12)}",
            table=None if lobby else "t-1",
            tournament=None,
            channel="lobby" if lobby else "table",
            message_id=f"w-{i}",
        )


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("min_players", [1, 3])
def test_waves_in_one_entry_flag_as_one_key_per_text(seed: int, min_players: int) -> None:
    events = list(_wave_stream(seed))
    fast = _flags(
        [RepeatedMessages(wave_min_players=min_players), LobbyWaves(wave_min_players=min_players)],
        events,
    )
    plain = _flags(
        [_KeyedWaves(wave_min_players=min_players), KeyedLobbyWaves(wave_min_players=min_players)],
        events,
    )
    assert fast == plain
    waves = {f["detector"] for f in fast if f["evidence"]["kind"] == "bot_wave"}
    assert waves == {"repeated_messages", "lobby_waves"}  # table and lobby waves both tried


def test_a_wave_text_expires_exactly_at_the_window_edge() -> None:
    text = "claim your free chips bonus now at chipz"
    for gap, waves in ((59.999, 1), (60.0, 0)):
        events = [
            chat(text, t=0.0, player="bot-0", message_id="a"),
            chat(text, t=1.0, player="bot-1", message_id="b"),
            chat(text, t=gap, player="bot-2", message_id="c"),
        ]
        found = _flags([RepeatedMessages()], events)
        assert len([f for f in found if f["evidence"]["kind"] == "bot_wave"]) == waves


def test_emoji_memo_flags_as_without_it() -> None:
    rng = random.Random(7)
    texts = ["NICE HAND!!!", "nice hand!!!", "NICE HAND!!", "\U0001f525" * 7, "\U0001f525" * 6]
    texts += ["lolololololololol", "lolololololololo", "WHAT A RIVER", "ok"]
    events = [
        chat(
            rng.choice(texts),
            t=i * rng.choice([0.5, 5.0, 20.0]),
            player=rng.choice(["p-1", "p-2"]),
            kind=rng.choice(["text", "text", "emoji"]),
            message_id=f"e-{i}",
        )
        for i in range(300)
    ]
    assert _flags([EmojiSpam()], events) == _flags([_NoMemoEmoji()], events)


@pytest.mark.parametrize(
    "text",
    ["NICE HAND MATE", "Nice hand mate", "NICE HAND MATE!!!", "aaaaaaaa", "aaaaaaa", "\U0001f600"],
)
def test_a_remembered_reading_is_the_reading(text: str) -> None:
    detector = EmojiSpam()
    first = detector._read(text)
    assert detector._reads[text] == first
    assert first == (count_emoji(text), *shout_level(text, 10, 0.8))
    # Another detector's settings are its own memo's: no answer crosses over.
    other = EmojiSpam(shout_min_letters=4)
    assert other._read(text) == (count_emoji(text), *shout_level(text, 4, 0.8))


def test_fingerprint_memo_keeps_each_detectors_lengths() -> None:
    """Six letters is a line for the default detector and too short for one wanting seven;
    the same text through both must be answered by each one's own settings."""
    loose, strict = RepeatedMessages(), RepeatedMessages(min_chars=7)
    assert loose._print("hellos!") == ("hellos", False)  # runs of two stay: "ll"
    assert loose._print("hello!") == (None, False)
    assert loose._print("abcdef") == ("abcdef", False)
    assert strict._print("abcdef") == (None, False)
    assert loose._print("a" * 19 + "!") == (fingerprint("a" * 19)[0], False)  # 19 < 20
    assert loose._print("a" * 20) == ("aa", True)


def test_memos_are_bounded_and_start_over(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(repeated_module, "_MEMO_SIZE", 3)
    monkeypatch.setattr(emoji_spam_module, "_MEMO_SIZE", 3)
    repeats, emoji = RepeatedMessages(), EmojiSpam()
    events = [
        chat(f"cheap chips here {i % 3} OK!!!", t=float(i), message_id=f"m-{i}") for i in range(60)
    ]
    pipeline = Pipeline([repeats, emoji])
    found: list[dict[str, Any]] = []
    for event in events:
        found.extend(flag.to_dict() for flag in pipeline.process(event).flags)
        assert len(repeats._prints) <= 3
        assert len(emoji._reads) <= 3
    assert found == _flags([_KeyedWaves(), _NoMemoEmoji()], events)
    assert {f["evidence"]["kind"] for f in found} == {"repeated_message", "shouting"}
    long_line = "x" * (repeated_module._MEMO_CHARS + 1)
    repeats.detect(chat(long_line, t=61.0), TtlState())
    assert long_line not in repeats._prints
