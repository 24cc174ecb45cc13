"""Where the console is served and how long its sessions last: what the sign-in, the cookie and
the form checks are built from.

Why a configured origin: a form's `Origin` compared with the request's own `Host` header proves
nothing (a client sets both), and the cookie's name and flags depend on whether analysts reach
the console over HTTPS, which a server behind a proxy cannot tell from its own socket.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

_LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})


class OriginError(ValueError):
    """A public origin that is not `scheme://host[:port]`."""


def parse_origin(text: str) -> str:
    """`text` as a browser writes an Origin (`https://host[:port]`, no path, lower case host);
    an `OriginError` naming what is wrong otherwise."""
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OriginError(f"{text!r} is not an origin like https://railbird.example.com")
    if parts.path not in ("", "/") or parts.query or parts.fragment or parts.username:
        raise OriginError(f"{text!r}: an origin has no path, query, fragment or user")
    default = 443 if parts.scheme == "https" else 80
    port = f":{parts.port}" if parts.port and parts.port != default else ""
    host = parts.hostname if ":" not in parts.hostname else f"[{parts.hostname}]"
    return f"{parts.scheme}://{host}{port}"


@dataclass(frozen=True, slots=True)
class ConsoleConfig:
    """The origins analysts use (the first is the canonical one) and session lifetimes."""

    origins: tuple[str, ...] = ("http://127.0.0.1:8000", "http://localhost:8000")
    idle: timedelta = timedelta(minutes=30)
    lifetime: timedelta = timedelta(hours=12)
    # Sign-in throttling, shared by every server process through the store.
    window: timedelta = timedelta(minutes=15)
    failures_per_client: int = 10
    attempts_per_key: int = 10

    @classmethod
    def for_server(
        cls,
        public_origin: str | None,
        host: str,
        port: int,
        idle_minutes: int = 30,
        session_hours: float = 12.0,
    ) -> ConsoleConfig:
        """From the settings: the configured origins, else the loopback ones of `port`."""
        if public_origin:
            origins = tuple(parse_origin(o) for o in public_origin.split(",") if o.strip())
        else:
            origins = (f"http://127.0.0.1:{port}", f"http://localhost:{port}")
        if not origins:
            raise OriginError("RAILBIRD_PUBLIC_ORIGIN names no origin")
        return cls(
            origins=origins,
            idle=timedelta(minutes=idle_minutes),
            lifetime=timedelta(hours=session_hours),
        )

    @property
    def https(self) -> bool:
        return self.origins[0].startswith("https://")

    @property
    def secure_cookies(self) -> bool:
        """Secure over HTTPS, and on loopback (browsers keep a Secure cookie from
        http://127.0.0.1 and localhost); over plain HTTP elsewhere a Secure cookie would be
        dropped and nobody could sign in."""
        host = urlsplit(self.origins[0]).hostname or ""
        return self.https or host in _LOOPBACK

    @property
    def cookie_path(self) -> str:
        return "/" if self.https else "/console"

    def cookie_name(self, base: str) -> str:
        """`__Host-<base>` over HTTPS (the browser then refuses it unless Secure, host-only and
        for path /, so no sibling host can plant one), else `<base>`."""
        return f"__Host-{base}" if self.https else base
