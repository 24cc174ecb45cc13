"""The app as any ASGI server builds it: `railbird serve`, or
`uvicorn --factory railbird.api.factory:app_from_environment` (gunicorn's uvicorn worker too).

Each server worker process calls the factory once: settings come from the environment there
(`RAILBIRD_DATABASE_URL`, `RAILBIRD_API_KEYS`, `RAILBIRD_POLICY`, `RAILBIRD_PUBLIC_ORIGIN`,
`RAILBIRD_API_DOCS`, ...), the engine is that process's own, and it is disposed of when the
server shuts the process down gracefully.
"""

from __future__ import annotations

from fastapi import FastAPI

from railbird.api.app import create_app
from railbird.api.console.config import ConsoleConfig
from railbird.api.server_tuning import freeze_survivors, tune_server_process
from railbird.api.settings import ApiSettings
from railbird.store.database import make_engine


class NoApiKeysError(RuntimeError):
    """`RAILBIRD_API_KEYS` names no key: a served API would refuse everyone."""


def app_from_environment() -> FastAPI:
    """The API over `RAILBIRD_DATABASE_URL` for the keys in `RAILBIRD_API_KEYS`."""
    settings = ApiSettings()
    if not settings.api_keys:
        raise NoApiKeysError(
            "RAILBIRD_API_KEYS is empty: set it to a JSON object of key -> role, e.g. "
            '\'{"<32 random characters>": "analyst"}\''
        )
    engine = make_engine(settings.database_url)
    console = ConsoleConfig.for_server(
        settings.public_origin,
        settings.host,
        settings.port,
        settings.console_idle_minutes,
        settings.console_session_hours,
    )
    app = create_app(
        engine,
        settings.api_keys,
        policy_path=settings.policy,
        console_config=console,
        docs=settings.api_docs,
    )
    # After the app's own startup (the restriction cache loaded): this process's settings.
    app.state.chat_gate.restrictions.after_full_reload = freeze_survivors
    app.router.add_event_handler("startup", tune_server_process)
    app.router.add_event_handler("shutdown", engine.dispose)
    return app
