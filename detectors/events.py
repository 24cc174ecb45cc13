"""The contract's three event kinds, validated once at the edge and immutable after.

Validation lives here, at the bottom of the stack, so that every entry point (file scan, Kafka
worker, demo) rejects the same malformed input with the same message, and detectors can trust
the types they receive. Unknown extra fields are kept (`extra="allow"`): the contract may grow
and railbird must not drop what the platform sends.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any, Literal

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


def _to_utc(value: datetime) -> datetime:
    return value.astimezone(UTC)


class _Contract(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True, str_strip_whitespace=False)


class ChatEvent(_Contract):
    type: Literal["chat"]
    message_id: str = Field(min_length=1)
    ts: Timestamp
    player_id: str = Field(min_length=1)
    screen_name: str | None = None
    channel: Literal["table", "tournament", "lobby", "private"]
    table_id: str | None = None
    tournament_id: str | None = None
    recipient_id: str | None = None
    kind: Literal["text", "emoji", "snapcam"] = "text"
    text: str = ""

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
    event_id: str = Field(min_length=1)
    ts: Timestamp
    table_id: str = Field(min_length=1)
    tournament_id: str | None = None
    action: TableAction
    player_id: str | None = None
    seat: int | None = None
    hand_id: str | None = None
    players: tuple[str, ...] | None = None

    _utc = field_validator("ts")(_to_utc)

    @property
    def time(self) -> datetime:
        return self.ts


class Seat(_Contract):
    seat: int
    player_id: str
    stack: int
    bounty: int | None = None
    hole_cards: tuple[Card, ...] | None = None


Street = Literal["preflop", "flop", "turn", "river"]


class HandAction(_Contract):
    ts: Timestamp | None = None
    street: Street
    player_id: str
    # post_sb | post_bb | post_ante | post_dead | fold | check | call | bet | raise | all_in
    action: str
    amount: int = 0
    to: int | None = None

    _utc = field_validator("ts")(lambda v: None if v is None else _to_utc(v))


class ShowdownEntry(_Contract):
    player_id: str
    cards: tuple[Card, ...] | None = None


class Winner(_Contract):
    player_id: str
    amount: int
    pot: str = "main"


class Elimination(_Contract):
    player_id: str
    by: tuple[str, ...] = ()
    bounty_awarded: int | None = None


class HandEvent(_Contract):
    type: Literal["hand"]
    hand_id: str = Field(min_length=1)
    table_id: str = Field(min_length=1)
    tournament_id: str | None = None
    game: str = "NLHE"
    started_at: Timestamp
    ended_at: Timestamp
    button_seat: int | None = None
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
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
    """Parse one JSON record; raise EventError naming `where` (line, offset) and the field."""
    try:
        return _EVENT_ADAPTER.validate_json(raw)
    except ValidationError as exc:
        raise EventError(where, _describe(exc)) from None


def event_from_dict(
    data: dict[str, Any], where: str = "<input>"
) -> ChatEvent | TableEvent | HandEvent:
    try:
        return _EVENT_ADAPTER.validate_python(data)
    except ValidationError as exc:
        raise EventError(where, _describe(exc)) from None


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
    if adapter is not None:
        try:
            event: AnyEvent = adapter.validate_json(value)
            return event
        except ValidationError:
            pass
    return parse_event(value)
