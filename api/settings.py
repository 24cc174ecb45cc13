"""API settings, read from RAILBIRD_* environment variables in the edge's main only."""

from __future__ import annotations

from pydantic import Field

from railbird.rules.settings import PolicySettings
from railbird.store.settings import StoreSettings


class ApiSettings(StoreSettings, PolicySettings):
    """The API edge's settings: the store's, the policy file, the API keys, where to listen,
    and the console's."""

    # JSON object: API key -> role, e.g. RAILBIRD_API_KEYS='{"k-123": "analyst"}'. Secrets come
    # from the environment only; nothing has a default key.
    api_keys: dict[str, str] = Field(default_factory=dict)
    host: str = "127.0.0.1"
    port: int = 8000
    # Where analysts open the console, e.g. "https://railbird.example.com" (several, comma-
    # separated): every console form must come from one of them (its Origin), and an https
    # origin gives the session cookie a `__Host-` name. Unset: http://127.0.0.1:PORT and
    # http://localhost:PORT.
    public_origin: str | None = None
    # The OpenAPI UI at /docs (Swagger UI from a package's own files) and /openapi.json without
    # a key: off unless turned on; /openapi.json always answers a known key.
    api_docs: bool = False
    # A console session ends after this long without a request, and this long after sign-in.
    console_idle_minutes: int = Field(default=30, ge=1, le=24 * 60)
    console_session_hours: float = Field(default=12.0, gt=0, le=7 * 24)
