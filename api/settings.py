"""API settings, read from RAILBIRD_* environment variables in the edge's main only."""

from __future__ import annotations

from pydantic import Field

from railbird.store.settings import StoreSettings


class ApiSettings(StoreSettings):
    """The API edge's settings: the store's, the API keys and where to listen."""

    # JSON object: API key -> role, e.g. RAILBIRD_API_KEYS='{"k-123": "analyst"}'. Secrets come
    # from the environment only; nothing has a default key.
    api_keys: dict[str, str] = Field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = 8000
