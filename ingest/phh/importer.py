"""Turns PHH hand histories (the public PHH dataset's format) into contract `hand` events.

`railbird import-phh` uses this so investigators and tests can run real hands through the
detectors. Loading, units and clocks live here; the replay itself is `ingest.phh.replay`.

Conventions (also in docs/quality-in-hand.md):
- Amounts: a hand with a currency (`currency_symbol`/`currency`) or any fractional amount is a
  cash hand and becomes integer cents; otherwise amounts are tournament chips, unchanged. Values
  are parsed as decimals, never floats.
- `ante_trimming_status` is forced off: with it on pokerkit refunds a lone big-blind ante, which
  disagrees with the recorded `finishing_stacks` (the WSOP hand).
- Times: `year/month/day/time` in `time_zone` (IANA) or the dataset's `time_zone_abbreviation`
  (ZONES below); no zone means UTC. A hand without a date gets a synthetic clock from
  2000-01-01, one without a time its date's midnight plus a synthetic offset. Actions are spread
  evenly over the hand, and a hand ends before the next hand at the same table starts.
- Ids: `h-<file stem>-<n>` (n = 1-based position in the file); table id from `table` (else
  `phh-<file stem>`), player ids from `players`.
- Hole cards only where known (dealt face up, or shown); unknown cards (`????`) give null.
- An uncalled bet goes back to the bettor and is not a winner entry (as in the simulator), so
  per hand: sum(action amounts) == sum(winner amounts) + uncalled bets.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import warnings
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime, time, timedelta, timezone, tzinfo
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from pokerkit import HandHistory

from railbird.detectors.events import HandEvent, TableEvent, event_from_dict
from railbird.ingest.phh.replay import replay, rfc3339

SYNTHETIC_START = datetime(2000, 1, 1, tzinfo=UTC)
SYNTHETIC_GAP = timedelta(minutes=2)
ACTION_STEP = timedelta(seconds=2)
ZONES: dict[str, tzinfo] = {
    "ET": ZoneInfo("America/New_York"),
    "CT": ZoneInfo("America/Chicago"),
    "PT": ZoneInfo("America/Los_Angeles"),
    "EST": timezone(timedelta(hours=-5)),
    "EDT": timezone(timedelta(hours=-4)),
    "CET": timezone(timedelta(hours=1)),
    "CEST": timezone(timedelta(hours=2)),
    "BST": timezone(timedelta(hours=1)),
    "GMT": UTC,
    "UTC": UTC,
}
_CBR = re.compile(r"^(p\d+ cbr )([0-9.]+)(.*)$")
PHH_SUFFIXES = frozenset({".phh", ".phhs"})
# Called with a file that is not a readable PHH file and the reason; the import goes on.
SkipHandler = Callable[[Path, str], None]


def load_histories(path: Path) -> list[HandHistory]:
    """All hands in a `.phh` or `.phhs` file, amounts as Decimal."""
    with warnings.catch_warnings():
        # The dataset's non-standard fields (time_zone_abbreviation, currency) make pokerkit warn.
        warnings.simplefilter("ignore", UserWarning)
        with path.open("rb") as stream:
            if path.suffix == ".phhs":
                return list(HandHistory.load_all(stream, parse_value=Decimal))
            return [HandHistory.load(stream, parse_value=Decimal)]


def _values(field: Any) -> list[Any]:
    return list(field) if isinstance(field, list | tuple) else [] if field is None else [field]


def scale_of(history: HandHistory) -> int:
    """100 (dollars -> cents) for cash hands, 1 for chip amounts."""
    values = [
        *_values(history.antes),
        *_values(history.blinds_or_straddles),
        *_values(history.starting_stacks),
        *(Decimal(m.group(2)) for a in history.actions if (m := _CBR.match(a))),
    ]
    fractional = any(Decimal(str(v)) != Decimal(str(v)).to_integral_value() for v in values)
    return 100 if fractional or history.currency_symbol or history.currency else 1


def _scaled(value: Any, scale: int) -> int:
    return int(Decimal(str(value)) * scale)


def integer_history(history: HandHistory, scale: int) -> HandHistory:
    """The same hand with every amount an integer in the contract's unit (cents or chips)."""

    def cbr(action: str) -> str:
        m = _CBR.match(action)
        return f"{m.group(1)}{_scaled(m.group(2), scale)}{m.group(3)}" if m else action

    return dataclasses.replace(
        history,
        ante_trimming_status=False,
        antes=[_scaled(v, scale) for v in _values(history.antes)],
        blinds_or_straddles=[_scaled(v, scale) for v in _values(history.blinds_or_straddles)],
        starting_stacks=[_scaled(v, scale) for v in _values(history.starting_stacks)],
        min_bet=None if history.min_bet is None else _scaled(history.min_bet, scale),
        actions=[cbr(a) for a in history.actions],
        parse_value=int,
    )


def recorded_start(history: HandHistory, n: int) -> datetime:
    """When the hand started, in UTC; synthetic (see above) where the file is silent."""
    if history.year is None or history.month is None or history.day is None:
        return SYNTHETIC_START + n * SYNTHETIC_GAP
    if history.time_zone:
        zone: tzinfo = ZoneInfo(history.time_zone)
    else:
        zone = ZONES.get(str(history.user_defined_fields.get("time_zone_abbreviation")), UTC)
    day = date(history.year, history.month, history.day)
    if not isinstance(history.time, time):
        return datetime.combine(day, time(0, 0), tzinfo=zone).astimezone(UTC) + n * SYNTHETIC_GAP
    return datetime.combine(day, history.time).replace(tzinfo=zone).astimezone(UTC)


@dataclasses.dataclass(frozen=True, slots=True)
class _Scheduled:
    history: HandHistory
    hand_id: str
    table_id: str
    start: datetime
    end: datetime = SYNTHETIC_START


def _readable(path: Path, on_skip: SkipHandler | None) -> list[HandHistory]:
    """The file's hands; without `on_skip` a bad file raises, with it the file is reported
    and skipped (a directory glob such as `phh/*` also matches the dataset's README)."""
    if on_skip is None:
        return load_histories(path)
    if path.suffix not in PHH_SUFFIXES:
        on_skip(path, "not a PHH file (expected .phh or .phhs)")
        return []
    try:
        return load_histories(path)
    except (ValueError, KeyError, TypeError, UnicodeDecodeError) as exc:  # TOMLDecodeError too
        on_skip(path, f"unreadable PHH: {exc}")
        return []


def schedule(paths: Iterable[Path], on_skip: SkipHandler | None = None) -> list[_Scheduled]:
    """Every hand with ids and times; a hand ends before its table's next hand starts."""
    hands: list[_Scheduled] = []
    for path in paths:
        histories = _readable(path, on_skip)
        for n, history in enumerate(histories, start=1):
            table_id = str(history.table) if history.table else f"phh-{path.stem}"
            start = recorded_start(history, n)
            hands.append(_Scheduled(history, f"h-{path.stem}-{n}", table_id, start))
    next_start: dict[str, datetime] = {}
    by_table: dict[str, list[tuple[datetime, str]]] = {}
    for hand in hands:
        by_table.setdefault(hand.table_id, []).append((hand.start, hand.hand_id))
    for starts in by_table.values():
        starts.sort()
        for (start, hand_id), (following, _) in itertools.pairwise(starts):
            if following > start:
                next_start[hand_id] = following
    out = []
    for hand in hands:
        end = hand.start + ACTION_STEP * (len(hand.history.actions) + 1)
        if hand.hand_id in next_start:
            end = min(end, next_start[hand.hand_id] - timedelta(milliseconds=1))
        out.append(dataclasses.replace(hand, end=max(end, hand.start + timedelta(milliseconds=1))))
    return out


def _table_record(hand: _Scheduled, action: str, players: list[str] | None) -> dict[str, Any]:
    return {
        "type": "table",
        "event_id": f"e-{hand.hand_id}-{action}",
        "ts": rfc3339(hand.start if action == "hand_start" else hand.end),
        "table_id": hand.table_id,
        "tournament_id": None,
        "action": action,
        "player_id": None,
        "seat": None,
        "hand_id": hand.hand_id,
        "players": players,
    }


def import_records(
    paths: Iterable[Path], with_table_events: bool = False, on_skip: SkipHandler | None = None
) -> Iterator[dict[str, Any]]:
    """Contract records (`hand`, plus `table` hand_start/hand_end if asked), in stream order."""
    items: list[tuple[datetime, int, dict[str, Any]]] = []
    for hand in schedule(paths, on_skip):
        scale = scale_of(hand.history)
        history = integer_history(hand.history, scale)
        record = replay(history, hand.hand_id, hand.table_id, hand.start, hand.end)
        items.append((hand.end, 2, record))
        if with_table_events:
            players = [s["player_id"] for s in record["seats"]]
            items.append((hand.start, 0, _table_record(hand, "hand_start", players)))
            items.append((hand.end, 1, _table_record(hand, "hand_end", None)))
    items.sort(key=lambda item: (item[0], item[1]))
    for _, _, record in items:
        yield record


def import_events(
    paths: Iterable[Path], with_table_events: bool = False
) -> Iterator[HandEvent | TableEvent]:
    """The same records validated as contract events (what tests and benches feed detectors)."""
    for record in import_records(paths, with_table_events):
        where = str(record.get("hand_id") or record.get("event_id"))
        event = event_from_dict(record, where=where)
        assert isinstance(event, HandEvent | TableEvent)
        yield event
