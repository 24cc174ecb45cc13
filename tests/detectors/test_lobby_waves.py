"""Bot waves off the tables: the same line from many senders in lobby or private chat.

What `lobby_waves` remembers is about the text (`keyed_by = "text"`), so the copies of one wave
meet however a stream spreads their senders; `repeated_messages` keeps a table's waves.
"""

from __future__ import annotations

from railbird.detectors.chat.lobby_waves import LobbyWaves
from railbird.detectors.chat.repeated_messages import RepeatedMessages
from railbird.detectors.detector import Detector, keying
from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import chat

LINE = "free chips every day at the best new poker bonus site"


def _run(detector: Detector, events: list[ChatEvent]) -> list[Finding]:
    state = TtlState()
    found: list[Finding] = []
    for event in events:
        state.advance(event.time)
        found.extend(detector.detect(event, state))
    return found


def _lobby(text: str, player: str, t: float, channel: str = "lobby") -> ChatEvent:
    return chat(text, t=t, player=player, table=None, tournament=None, channel=channel)


def test_three_senders_of_one_lobby_line_are_one_wave_flag_naming_them_all() -> None:
    events = [_lobby(LINE, f"p-{i}", t=5 * i) for i in range(3)]
    (flag,) = _run(LobbyWaves(), events)
    assert flag.category == "spam" and flag.evidence.kind == "bot_wave"
    assert flag.player_ids == ("p-0", "p-1", "p-2")
    assert flag.message_ids == tuple(e.message_id for e in events)


def test_a_growing_wave_grows_more_severe_and_near_copies_count() -> None:
    events = [_lobby(f"{LINE} {i}", f"p-{i}", t=i) for i in range(12)]
    found = _run(LobbyWaves(), events)
    # (the pipeline passes on a re-found flag only when it is more severe)
    assert list(dict.fromkeys(f.severity for f in found)) == ["medium", "high", "critical"]


def test_private_messages_make_waves_too_and_slow_ones_do_not() -> None:
    fast = [_lobby(LINE, f"p-{i}", t=i, channel="private") for i in range(3)]
    slow = [_lobby(LINE, f"p-{i}", t=61 * i, channel="private") for i in range(3)]
    assert len(_run(LobbyWaves(), fast)) == 1
    assert _run(LobbyWaves(), slow) == []


def test_table_chat_is_not_its_business_and_lobby_waves_are_not_repeated_messages() -> None:
    table = [chat(LINE, t=i, player=f"p-{i}") for i in range(3)]
    lobby = [_lobby(LINE, f"p-{i}", t=i) for i in range(3)]
    assert _run(LobbyWaves(), table) == []
    assert [f.evidence.kind for f in _run(RepeatedMessages(), table)] == ["bot_wave"]
    assert _run(RepeatedMessages(), lobby) == []


def test_what_it_keeps_is_keyed_by_the_line_and_numbered_copies_share_it() -> None:
    state = TtlState()
    for event in [_lobby(f"{LINE} {i}", f"p-{i}", t=i) for i in range(2)]:
        state.advance(event.time)
        LobbyWaves().detect(event, state)
    keys = [key for key, _, _ in state.live_entries()]
    assert keys == [("freechipseverydayatthebestnewpokerbonussite", "lobby", "said")]
    assert keying(LobbyWaves) == "text" and keying(RepeatedMessages) == "table"
