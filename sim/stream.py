"""Time, ids and the ordered outbox every simulated stream writes through.

Times are integer milliseconds since the Unix epoch inside the simulator: exact, cheap to add and
compare, and formatted once when an event is built. Each stream (a tournament, a cash table)
buffers what it produced in a heap and releases it only up to a watermark below which it can no
longer produce anything, so streams stay time-ordered while generating lazily.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

Kind = Literal["event", "truth"]
Item = tuple[int, int, Kind, dict[str, Any]]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MS = timedelta(milliseconds=1)
_SECOND_TEXT: dict[int, str] = {}


def to_ms(moment: datetime) -> int:
    return (moment - _EPOCH) // _MS


def from_ms(ms: int) -> datetime:
    return _EPOCH + timedelta(milliseconds=ms)


def fmt_ms(ms: int) -> str:
    """RFC 3339 UTC with milliseconds and `Z`, caching the per-second prefix."""
    second, milli = divmod(ms, 1000)
    prefix = _SECOND_TEXT.get(second)
    if prefix is None:
        if len(_SECOND_TEXT) > 200_000:
            _SECOND_TEXT.clear()
        prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _SECOND_TEXT[second] = prefix
    return f"{prefix}.{milli:03d}Z"


class Ids:
    """Sequential ids, unique within one simulation (`m-`, `e-`, `h-`, `p-`, `t-`, `trn-`);
    with a `prefix` (`m-<prefix>1`), unique across simulations that use different ones."""

    def __init__(self, prefix: str = "") -> None:
        self.prefix = prefix
        self._message = itertools.count(1)
        self._event = itertools.count(1)
        self._hand = itertools.count(1)
        self._player = itertools.count(1)
        self._table = itertools.count(1)
        self._tournament = itertools.count(1)

    def message(self) -> str:
        return f"m-{self.prefix}{next(self._message)}"

    def event(self) -> str:
        return f"e-{self.prefix}{next(self._event)}"

    def hand(self) -> str:
        return f"h-{self.prefix}{next(self._hand)}"

    def player(self) -> str:
        return f"p-{self.prefix}{next(self._player)}"

    def table(self) -> str:
        return f"t-{self.prefix}{next(self._table)}"

    def tournament(self) -> str:
        return f"trn-{self.prefix}{next(self._tournament)}"


class Outbox:
    """A stream's pending output, ordered by time then by production order."""

    __slots__ = ("_heap", "_seq", "ids")

    def __init__(self, ids: Ids) -> None:
        self.ids = ids
        self._heap: list[Item] = []
        self._seq = itertools.count()

    def put(self, ms: int, record: dict[str, Any]) -> None:
        heapq.heappush(self._heap, (ms, next(self._seq), "event", record))

    def truth(self, ms: int, record: dict[str, Any]) -> None:
        heapq.heappush(self._heap, (ms, next(self._seq), "truth", record))

    def release(self, upto_ms: int) -> Iterator[Item]:
        heap = self._heap
        while heap and heap[0][0] <= upto_ms:
            yield heapq.heappop(heap)

    def drain(self) -> Iterator[Item]:
        heap = self._heap
        while heap:
            yield heapq.heappop(heap)

    def table(
        self,
        ms: int,
        table_id: str,
        tournament_id: str | None,
        action: str,
        player_id: str | None = None,
        seat: int | None = None,
        hand_id: str | None = None,
        players: list[str] | None = None,
        extra: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """`extra`: the contract's optional fields (a cash table's level and format)."""
        record: dict[str, Any] = {
            "type": "table",
            "event_id": self.ids.event(),
            "ts": fmt_ms(ms),
            "table_id": table_id,
            "tournament_id": tournament_id,
            "action": action,
            "player_id": player_id,
            "seat": seat,
            "hand_id": hand_id,
            "players": players,
        }
        if extra:
            record.update(extra)
        self.put(ms, record)
        return record

    def chat(
        self,
        ms: int,
        player_id: str,
        screen_name: str,
        text: str,
        *,
        channel: str = "table",
        table_id: str | None = None,
        tournament_id: str | None = None,
        recipient_id: str | None = None,
        kind: str = "text",
    ) -> str:
        message_id = self.ids.message()
        self.put(
            ms,
            {
                "type": "chat",
                "message_id": message_id,
                "ts": fmt_ms(ms),
                "player_id": player_id,
                "screen_name": screen_name,
                "channel": channel,
                "table_id": table_id,
                "tournament_id": tournament_id,
                "recipient_id": recipient_id,
                "kind": kind,
                "text": text,
            },
        )
        return message_id
