"""The contract's three event kinds, validated once at the edge and immutable after.

Validation lives here, at the bottom of the stack, so that every entry point (file scan, Kafka
worker, demo) rejects the same malformed input with the same message, and detectors can trust
the types they receive. Unknown extra fields are kept (`extra="allow"`): the contract may grow
and railbird must not drop what the platform sends.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal, get_args

from pydantic import (
    AwareDatetime,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    TypeAdapter,
    ValidationError,
    field_validator,
)

CARD_PATTERN = r"^[2-9TJQKA][cdhs]$"
Card = Annotated[str, Field(pattern=CARD_PATTERN)]


# Strict: the contract's times are RFC 3339 strings; a bare number is a producer bug, not epoch.
def _reject_numbers(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        raise ValueError("expected an RFC 3339 time string such as 2026-11-29T20:15:03.120Z")
    return value


Timestamp = Annotated[AwareDatetime, BeforeValidator(_reject_numbers)]

# What one record may carry. A value outside these is a producer bug or an attack: the store's
# 64-bit columns could not hold a bigger integer, a time outside the range breaks the event
# clock and the store's time arithmetic, and a 1 MB message is not chat.
EARLIEST = datetime(1990, 1, 1, tzinfo=UTC)
LATEST = datetime(2200, 1, 1, tzinfo=UTC)
MAX_CHIPS = 2**53 - 1  # exact in JSON readers that use doubles, and in a BIGINT
MAX_SEAT = 1_000
MAX_ID_CHARS = 256
MAX_TEXT_CHARS = 16_384  # a wall of text still reaches the flood and spam detectors whole
MAX_RECORD_BYTES = 512 * 1024  # a 10-handed hand history with its actions is ~10 KB

Chips = Annotated[int, Field(ge=0, le=MAX_CHIPS)]
SeatNumber = Annotated[int, Field(ge=0, le=MAX_SEAT)]
Id = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS)]
OptionalId = Annotated[str, Field(max_length=MAX_ID_CHARS)] | None


def _to_utc(value: datetime) -> datetime:
    """UTC, within `EARLIEST`..`LATEST`. "0001-01-01T00:00:00+05:00" is a valid RFC 3339 time
    whose UTC form is before year 1: Python raises OverflowError, which pydantic would let
    escape as a crash rather than a validation error, so it is turned into one here."""
    try:
        utc = value.astimezone(UTC)
    except OverflowError:
        raise ValueError(f"time {value.isoformat()} is out of range") from None
    if not EARLIEST <= utc < LATEST:
        raise ValueError(f"time {utc.isoformat()} is outside {EARLIEST.year}-{LATEST.year - 1}")
    return utc


class _Contract(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True, str_strip_whitespace=False)


# Where a message is said, and what it is: the contract's lists, read by the chat check's
# request model, its policy per channel and what each restriction stops.
Channel = Literal["table", "tournament", "lobby", "private"]
MessageKind = Literal["text", "emoji", "snapcam"]
CHANNELS: tuple[Channel, ...] = get_args(Channel)
MESSAGE_KINDS: tuple[MessageKind, ...] = get_args(MessageKind)


class ChatEvent(_Contract):
    type: Literal["chat"]
    message_id: Id
    ts: Timestamp
    player_id: Id
    screen_name: OptionalId = None
    channel: Channel
    table_id: OptionalId = None
    tournament_id: OptionalId = None
    recipient_id: OptionalId = None
    kind: MessageKind = "text"
    text: str = Field(default="", max_length=MAX_TEXT_CHARS)

    _utc = field_validator("ts")(_to_utc)

    @property
    def event_id(self) -> str:
        return self.message_id

    @property
    def time(self) -> datetime:
        return self.ts


TableAction = Literal[
    "join",
    "leave",
    "sit_out",
    "sit_in",
    "disconnect",
    "reconnect",
    "timeout",
    "hand_start",
    "hand_end",
]


class TableEvent(_Contract):
    type: Literal["table"]
    event_id: Id
    ts: Timestamp
    table_id: Id
    tournament_id: OptionalId = None
    action: TableAction
    player_id: OptionalId = None
    seat: SeatNumber | None = None
    hand_id: OptionalId = None
    players: tuple[Id, ...] | None = None
    # Cash tables only, on `join` and `hand_start`, all optional: the table's blind level and
    # format. A format is a short name (the contract's `ring`, `rush_and_cash`,
    # `all_in_or_fold`); an unknown one is kept rather than losing the join to the dead letters.
    small_blind: Chips | None = None
    big_blind: Chips | None = None
    table_format: Annotated[str, Field(min_length=1, max_length=32)] | None = None

    _utc = field_validator("ts")(_to_utc)

    @property
    def time(self) -> datetime:
        return self.ts


class Seat(_Contract):
    seat: SeatNumber
    player_id: Id
    stack: Chips
    bounty: Chips | None = None
    hole_cards: tuple[Card, ...] | None = None


Street = Literal["preflop", "flop", "turn", "river"]


class HandAction(_Contract):
    ts: Timestamp | None = None
    street: Street
    player_id: Id
    # post_sb | post_bb | post_ante | post_dead | fold | check | call | bet | raise | all_in
    action: Annotated[str, Field(max_length=32)]
    amount: Chips = 0
    to: Chips | None = None

    _utc = field_validator("ts")(lambda v: None if v is None else _to_utc(v))


class ShowdownEntry(_Contract):
    player_id: Id
    cards: tuple[Card, ...] | None = None


class Winner(_Contract):
    player_id: Id
    amount: Chips
    pot: Annotated[str, Field(max_length=MAX_ID_CHARS)] = "main"


class Elimination(_Contract):
    player_id: Id
    by: tuple[Id, ...] = ()
    bounty_awarded: Chips | None = None


class HandEvent(_Contract):
    type: Literal["hand"]
    hand_id: Id
    table_id: Id
    tournament_id: OptionalId = None
    game: Annotated[str, Field(max_length=MAX_ID_CHARS)] = "NLHE"
    started_at: Timestamp
    ended_at: Timestamp
    button_seat: SeatNumber | None = None
    small_blind: Chips = 0
    big_blind: Chips = 0
    ante: Chips = 0
    seats: tuple[Seat, ...]
    actions: tuple[HandAction, ...] = ()
    board: tuple[Card, ...] = ()
    showdown: tuple[ShowdownEntry, ...] = ()
    winners: tuple[Winner, ...] = ()
    eliminated: tuple[Elimination, ...] = ()

    _utc = field_validator("started_at", "ended_at")(_to_utc)

    @property
    def event_id(self) -> str:
        return self.hand_id

    @property
    def time(self) -> datetime:
        return self.ended_at

    def seat_of(self, player_id: str) -> Seat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)


Event = Annotated[ChatEvent | TableEvent | HandEvent, Field(discriminator="type")]
_EVENT_ADAPTER: TypeAdapter[ChatEvent | TableEvent | HandEvent] = TypeAdapter(Event)


class EventError(ValueError):
    """A record that is not a contract event; the message names the field and what was wrong."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.where = where
        self.reason = reason


def _describe(error: ValidationError) -> str:
    parts = []
    for item in error.errors()[:3]:
        loc = ".".join(str(p) for p in item["loc"])
        parts.append(f"field '{loc}': {item['msg']}" if loc else str(item["msg"]))
    return "; ".join(parts)


def parse_event(raw: bytes | str, where: str = "<input>") -> ChatEvent | TableEvent | HandEvent:
    """Parse one JSON record; raise EventError naming `where` (line, offset) and the field.

    Nothing else escapes: whatever one record holds, the caller gets an EventError to report
    and goes on with the next."""
    _check_size(raw, where)
    try:
        return _EVENT_ADAPTER.validate_json(raw)
    except ValidationError as exc:
        raise EventError(where, _describe(exc)) from None
    except Exception as exc:  # the edge: one record must never stop a stream
        raise EventError(where, f"unreadable record ({type(exc).__name__}: {exc})"[:300]) from None


def _check_size(raw: bytes | str, where: str) -> None:
    if len(raw) > MAX_RECORD_BYTES:
        raise EventError(
            where, f"record is {len(raw):,} bytes, over the {MAX_RECORD_BYTES:,}-byte limit"
        )


def event_from_dict(
    data: dict[str, Any], where: str = "<input>"
) -> ChatEvent | TableEvent | HandEvent:
    try:
        return _EVENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise EventError(where, _describe(exc)) from None
    except Exception as exc:  # as in `parse_event`
        raise EventError(where, f"unreadable record ({type(exc).__name__}: {exc})"[:300]) from None


AnyEvent = ChatEvent | TableEvent | HandEvent

# One adapter per event type, for streams that carry one kind (a Kafka topic, the store
# process re-reading what the worker typed): one model is cheaper to try than the union.
_BY_TYPE: dict[str, TypeAdapter[Any]] = {
    "chat": TypeAdapter(ChatEvent),
    "table": TypeAdapter(TableEvent),
    "hand": TypeAdapter(HandEvent),
}


def parse_event_as(value: bytes, expected: str | None = None) -> AnyEvent:
    """`parse_event(value)`, trying the `expected` event type's model first.

    Anything that model rejects goes through `parse_event`, so the result, and the EventError
    for a bad record, are exactly `parse_event`'s: a table event on the chat topic still parses.
    """
    adapter = _BY_TYPE.get(expected) if expected is not None else None
    if adapter is not None and len(value) <= MAX_RECORD_BYTES:
        try:
            event: AnyEvent = adapter.validate_json(value)
            return event
        except Exception:  # `parse_event` says what was wrong
            pass
    return parse_event(value)
