"""Response models: the OpenAPI schema clients generate code from."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, Field, PlainSerializer, StrictInt, model_validator

from railbird.detectors.categories import Category
from railbird.detectors.events import Channel, MessageKind
from railbird.detectors.in_hand.verdicts import SenderStatus
from railbird.detectors.severity import Severity
from railbird.rules.action_kinds import RestrictionKind
from railbird.rules.flags import format_ts
from railbird.rules.report_policy import REPORT_REASONS

# Times leave the API as the contract writes them: RFC 3339 UTC, milliseconds, "Z".
Time = Annotated[datetime, PlainSerializer(format_ts, return_type=str)]


class FlagOut(BaseModel):
    """A flag as the contract writes it, with its review status."""

    flag_id: str
    category: Category
    detector: str
    severity: Severity
    score: float = Field(ge=0, le=1)
    ts: Time
    player_ids: list[str]
    table_id: str | None
    tournament_id: str | None
    hand_id: str | None
    message_ids: list[str]
    explanation: str
    evidence: dict[str, Any]
    status: str = Field(description="open, confirmed, dismissed or escalated")
    review_version: int = Field(
        default=0, description="name it in a review: a flag reviewed since is a 409"
    )
    priority: int = Field(
        default=0,
        description="unrelated groups of players who reported it (0-5): the queue serves a "
        "reported flag before the unreported ones of its severity",
    )


class QueuePage(BaseModel):
    """One page of the review queue, most severe and then oldest first."""

    items: list[FlagOut]
    next_cursor: str | None = Field(description="Pass as `cursor` for the next page.")


class ReviewIn(BaseModel):
    """An analyst's decision on a flag, naming the version of the flag they read."""

    decision: Literal["confirm", "dismiss", "escalate"]
    note: str = Field(min_length=3, max_length=2000)
    version: StrictInt = Field(
        ge=0, le=2**31 - 1, description="the flag's `review_version` as read"
    )

    model_config = {
        "json_schema_extra": {
            "examples": [{"decision": "dismiss", "note": "banter between friends", "version": 0}]
        }
    }


class ReviewOut(BaseModel):
    """One review of a flag, as its history keeps it."""

    flag_id: str
    ts: Time
    decision: str
    note: str
    actor: str
    role: str
    lifted_action_ids: list[str]


class ReviewResult(BaseModel):
    """The flag after a review, and the restrictions a dismissal lifted."""

    flag: FlagOut
    lifted_action_ids: list[str]


class DeadLetterOut(BaseModel):
    """A record the pipeline could not process, set aside with the reason."""

    id: str
    ts: Time = Field(description="when it was set aside")
    source: str = Field(description="a topic, a file, or `store`")
    position: str = Field(description="where in the source, e.g. `partition 2 offset 17`")
    reason: str
    raw: str | None = Field(
        description="the record, with disclosed personal data redacted as in the chat log"
    )


class DeadLetterPage(BaseModel):
    """One page of dead letters, newest first."""

    items: list[DeadLetterOut]
    next_cursor: str | None = Field(
        description="Pass as `cursor` to get the next (older) page; null on the last page."
    )


class FlagPage(BaseModel):
    """One page of flags, newest first."""

    items: list[FlagOut]
    next_cursor: str | None = Field(
        description="Pass as `cursor` to get the next (older) page; null on the last page."
    )


class Health(BaseModel):
    """Liveness and readiness: `degraded` when the database is unreachable."""

    status: Literal["ok", "degraded"]
    database: Literal["ok", "unreachable"]
    version: str


LEVEL_PATTERN = r"^[0-9]{1,15}/[0-9]{1,15}$"


def canonical_level(level: str) -> str:
    """A blind level as the rules name it: "050/100" is "50/100". A `ValueError` for one no
    table plays: a big blind under 1 ("0/0") or a small blind above the big one ("100/50")."""
    small, big = (int(part) for part in level.split("/"))
    check_blinds(small, big)
    return f"{small}/{big}"


def check_blinds(small: int, big: int) -> None:
    if big < 1:
        raise ValueError(f"a big blind of {big}: it is at least 1")
    if small > big:
        raise ValueError(f"a small blind of {small} above the big blind of {big}")


# A blind level as the rules name it: small blind / big blind, in the table's chip units.
BlindLevel = Annotated[
    str,
    Field(pattern=LEVEL_PATTERN, examples=["50/100"]),
    AfterValidator(canonical_level),
]


class RestrictionOut(BaseModel):
    """A mute, suspension or table-join block, applied by the rules or an analyst, and whether
    it is in force now."""

    action_id: str
    kind: RestrictionKind
    player_id: str
    ts: Time
    expires_at: Time | None
    reason: str
    actor: str
    flag_ids: list[str]
    lifted_at: Time | None
    lifted_by: str | None
    active: bool
    # A `block_table_join`'s blind level (the block covers tables of that level only).
    blind_level: str | None = None


Id = Annotated[str, Field(min_length=1, max_length=64)]  # every id the store keeps fits


class RestrictionIn(BaseModel):
    """A restriction an analyst applies from now; without a duration it lasts until lifted."""

    player_id: str = Field(min_length=1, max_length=64)
    kind: RestrictionKind
    # Strict: `true` is not a minute.
    duration_minutes: StrictInt | None = Field(
        default=None, ge=1, le=525_600, description="null: until lifted"
    )
    reason: str = Field(min_length=3, max_length=500)
    flag_ids: list[Id] = Field(
        default_factory=list, max_length=100, description="flags that exist (checked)"
    )
    blind_level: BlindLevel | None = Field(
        default=None, description="required for (and only for) block_table_join"
    )

    @model_validator(mode="after")
    def _level_with_join_block(self) -> RestrictionIn:
        if (self.kind == "block_table_join") != (self.blind_level is not None):
            raise ValueError("blind_level is required for block_table_join, and only for it")
        return self


class LiftIn(BaseModel):
    """Why a restriction is ended early; kept in the audit log."""

    reason: str = Field(min_length=3, max_length=500)


class ChatCheckIn(BaseModel):
    """A message the chat server is about to deliver, and, when it knows them, the hand in play
    at the sender's table and the sender's part in it."""

    player_id: str = Field(min_length=1, max_length=64)
    message_id: str | None = Field(default=None, min_length=1, max_length=64)
    text: str = Field(default="", max_length=2000)
    kind: MessageKind = "text"
    channel: Channel = "table"
    table_id: Id | None = None
    tournament_id: Id | None = None
    recipient_id: Id | None = None
    hand_id: Id | None = Field(
        default=None,
        description="the hand in play at the sender's table now; null (or absent) when no "
        "hand is in play there. With it, talk that can sway the hand is held until it ends.",
    )
    sender_status: SenderStatus | None = Field(
        default=None,
        description="the sender's part in `hand_id`: `playing` (dealt in, not folded), "
        "`folded`, `all_in`, or `not_dealt` (a railbird, a player sitting out). Required with "
        "`hand_id`; ignored without it.",
    )

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "player_id": "p-42",
                    "message_id": "m-1001",
                    "text": "folded 94, he has nothing",
                    "kind": "text",
                    "channel": "table",
                    "table_id": "t-7",
                    "tournament_id": "trn-3",
                    "hand_id": "h-77",
                    "sender_status": "folded",
                },
                {"player_id": "p-42", "text": "gl all", "channel": "table", "table_id": "t-7"},
            ]
        }
    }

    @model_validator(mode="after")
    def _status_with_hand(self) -> ChatCheckIn:
        if self.hand_id is not None and self.sender_status is None:
            raise ValueError("sender_status is required with hand_id")
        return self


class ChatCheckOut(BaseModel):
    """Whether to deliver the message now, later or never, why, and the restriction that
    blocked it, if one did."""

    decision: Literal["allow", "hold", "block"] = Field(
        description="`allow`: deliver now; `hold`: deliver when `release` happens (the hand "
        "in play ends), so it cannot sway that hand; `block`: never deliver"
    )
    release: Literal["hand_end"] | None = Field(
        default=None, description="set with `hold`: when to deliver the message"
    )
    hand_id: str | None = Field(default=None, description="the hand a `hold` waits for")
    reasons: list[str]
    categories: list[str]
    restriction: RestrictionOut | None
    checked_in_ms: float
    # Detectors that failed on this message (counted, logged): the verdict is without them.
    failed_detectors: list[str] = []


class JoinCheckIn(BaseModel):
    """A player about to join a cash table of a blind level."""

    player_id: str = Field(min_length=1, max_length=64)
    blind_level: BlindLevel | None = Field(
        default=None, description="the table's level as small/big blind; or give the blinds"
    )
    small_blind: StrictInt | None = Field(default=None, ge=0, le=2**53 - 1)
    big_blind: StrictInt | None = Field(default=None, ge=1, le=2**53 - 1)
    table_id: Id | None = None

    @model_validator(mode="after")
    def _one_level(self) -> JoinCheckIn:
        given_blinds = self.small_blind is not None or self.big_blind is not None
        if (self.blind_level is None) == (not given_blinds):
            raise ValueError("give blind_level, or small_blind and big_blind (not both)")
        if given_blinds and (self.small_blind is None or self.big_blind is None):
            raise ValueError("small_blind and big_blind go together")
        if self.small_blind is not None and self.big_blind is not None:
            check_blinds(self.small_blind, self.big_blind)
        return self

    @property
    def level(self) -> str:
        """The level as the rules count it ("50/100")."""
        if self.blind_level is not None:
            return self.blind_level
        return f"{self.small_blind}/{self.big_blind}"


class JoinCheckOut(BaseModel):
    """Whether the lobby should seat the player, and the block that stops it, if one does."""

    decision: Literal["allow", "block"]
    blind_level: str
    reasons: list[str]
    blocked_until: Time | None  # null when allowed (or blocked until lifted)
    restriction: RestrictionOut | None
    checked_in_ms: float


class ContextOut(BaseModel):
    """A flag with the chat, table events and hands around it, and the window searched."""

    flag: FlagOut
    chat: list[dict[str, Any]]
    table_events: list[dict[str, Any]]
    hands: list[dict[str, Any]]
    window_from: Time
    window_to: Time


class PlayerHistoryOut(BaseModel):
    """A player's flags and restrictions, active and ended, newest first."""

    player_id: str
    flags: list[FlagOut]
    restrictions: list[RestrictionOut]


def _a_reason(reason: str) -> str:
    if reason not in REPORT_REASONS:
        raise ValueError(f"unknown reason {reason!r} (one of {', '.join(REPORT_REASONS)})")
    return reason


ReportReason = Annotated[
    str, Field(json_schema_extra={"enum": list(REPORT_REASONS)}), AfterValidator(_a_reason)
]


class ReportIn(BaseModel):
    """A player's report of another, as the chat server received it."""

    reporter_id: Id
    reported_id: Id
    reason: ReportReason = Field(description="what the reporter says happened: a flag category")
    message_ids: list[Id] = Field(
        default_factory=list, max_length=20, description="the messages reported, if any"
    )
    table_id: Id | None = None
    tournament_id: Id | None = None
    hand_id: Id | None = None
    note: str | None = Field(
        default=None, max_length=500, description="the reporter's words (stored redacted)"
    )

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "reporter_id": "p-17",
                    "reported_id": "p-42",
                    "reason": "harassment",
                    "message_ids": ["m-1001"],
                    "table_id": "t-7",
                    "note": "keeps insulting me",
                }
            ]
        }
    }


class FiledOut(BaseModel):
    """One (reporter, reported, message) of a report and where it went."""

    report_id: str
    message_id: str | None
    flag_id: str = Field(description="the flag it raised or the report case it opened or joined")
    effect: Literal["raised", "opened", "joined"] = Field(
        description="`raised`: a detector's flag on the message, its priority raised; "
        "`opened` / `joined`: a report case of the reported player"
    )
    duplicate: bool = Field(description="already reported by this reporter: nothing changed")


class ReportResult(BaseModel):
    reports: list[FiledOut]


class ReportOut(BaseModel):
    """A stored report."""

    report_id: str
    ts: Time
    reporter_id: str
    reported_id: str
    message_id: str | None
    table_id: str | None
    tournament_id: str | None
    hand_id: str | None
    reason: str
    note: str | None = Field(description="redacted as the chat log is")
    flag_id: str
    effect: str


class ReportPage(BaseModel):
    items: list[ReportOut]
    next_cursor: str | None


class RefusedReporterOut(BaseModel):
    """A reporter whose reports were refused for their number."""

    reporter_id: str
    refused: int
    first_refused_at: Time
    last_refused_at: Time
