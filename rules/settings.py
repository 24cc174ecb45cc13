"""Where the moderation policy file is: the one setting every mode that decides reads."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class PolicySettings(BaseSettings):
    """`RAILBIRD_POLICY`: the policy file in force (unset or empty: the shipped one,
    `rules/default_policy.toml`). Read by `scan`, `run`, `serve` and the demo at start."""

    model_config = SettingsConfigDict(env_prefix="RAILBIRD_", extra="ignore")

    policy: Path | None = None

    @field_validator("policy", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: Any) -> Any:
        return None if value == "" else value
