"""Where the database is: the one setting both edges share."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

from railbird.store.database import DEFAULT_URL


class StoreSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="RAILBIRD_", extra="ignore")

    database_url: str = DEFAULT_URL
