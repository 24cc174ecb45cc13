"""Response models: the OpenAPI schema clients generate code from."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field


class FlagOut(BaseModel):
    flag_id: str
    category: str
    detector: str
    severity: Literal["low", "medium", "high", "critical"]
    score: float = Field(ge=0, le=1)
    ts: datetime
    player_ids: list[str]
    table_id: str | None
    tournament_id: str | None
    hand_id: str | None
    message_ids: list[str]
    explanation: str
    evidence: dict[str, Any]
    status: str


class FlagPage(BaseModel):
    items: list[FlagOut]
    next_cursor: str | None = Field(
        description="Pass as `cursor` to get the next (older) page; null on the last page."
    )


class Health(BaseModel):
    status: Literal["ok", "degraded"]
    database: Literal["ok", "unreachable"]
    version: str
