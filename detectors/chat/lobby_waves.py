"""Bot waves in lobby, tournament and private chat: the same line from many players at once.

Why a detector of its own: a wave away from the tables is one text from many senders, so what
it remembers is about the text, not about a table or a player (`keyed_by = "text"`): one room
per line (its fingerprint without digits, so numbered copies match) and place (the tournament,
else the channel). A table's waves stay with `repeated_messages`, which remembers the table's
players and texts together.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta
from typing import ClassVar

from pydantic import PositiveFloat, PositiveInt

from railbird.detectors.chat.bot_wave import texts_of, wave_findings
from railbird.detectors.chat.bursts import room, span_of
from railbird.detectors.detector import Keying
from railbird.detectors.events import AnyEvent, ChatEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import State
from railbird.detectors.text.fingerprint import fingerprint, strip_digits


@dataclass(frozen=True, slots=True)
class LobbyWaves:
    name: ClassVar[str] = "lobby_waves"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})
    keyed_by: ClassVar[Keying] = "text"
    # Policy, not statistics: the operator sets these in the policy file (`[detectors.<name>]`).
    operator_settings: ClassVar[tuple[str, ...]] = ("window_seconds", "wave_min_players")
    window_seconds: PositiveFloat = 60.0
    wave_min_players: PositiveInt = 3
    wave_min_chars: int = 20
    _span: timedelta = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_span", span_of(self.window_seconds))

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if not isinstance(event, ChatEvent) or event.table_id:
            return []
        text = event.text
        if not text or event.kind == "snapcam":
            return []
        fp, length = fingerprint(text)
        if length < self.wave_min_chars:
            return []
        # The line as `bot_wave` compares it: the text's key, first in the state key.
        line = fp if fp.isalpha() else strip_digits(fp)
        place = event.tournament_id or event.channel
        now = state.now
        texts = texts_of(room(state, (line, place, "said"), self._span, now))
        return wave_findings(
            event,
            texts,
            fp,
            self._span,
            now,
            min_players=self.wave_min_players,
            window_seconds=self.window_seconds,
            detector=self.name,
        )
