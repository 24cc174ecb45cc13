"""What every answer carries, and `HEAD` answered wherever `GET` is.

Every answer: `X-Content-Type-Options: nosniff`, and `Cache-Control: no-store` unless the
route chose its own (flags, chat and exports must not sit in a browser's or a proxy's cache);
answers that are not pages also get `Content-Security-Policy: default-src 'none';
frame-ancestors 'none'` and `Referrer-Policy: no-referrer`, so a JSON or CSV answer opened in
a browser can run nothing and be framed by nobody. The console's assets may be cached
(revalidated each time).

`HEAD`: FastAPI's routes answer only the methods they declare, so `HEAD /v1/flags` was a 405,
though HTTP requires `HEAD` wherever `GET` is served; here it runs as the `GET` and the body is
dropped.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

API_CSP = b"default-src 'none'; frame-ancestors 'none'"
_CACHEABLE = ("/console/static/", "/docs/static/")


class ResponseHeaders:
    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope.get("method") == "HEAD"
        if head:
            scope = {**scope, "method": "GET"}
        cacheable = str(scope.get("path", "")).startswith(_CACHEABLE)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {k.lower() for k, _v in headers}
                content_type = next((v for k, v in headers if k.lower() == b"content-type"), b"")
                extra = [(b"x-content-type-options", b"nosniff")]
                extra.append((b"cache-control", b"no-cache" if cacheable else b"no-store"))
                if not content_type.startswith(b"text/html"):
                    extra += [
                        (b"content-security-policy", API_CSP),
                        (b"referrer-policy", b"no-referrer"),
                    ]
                headers += [(k, v) for k, v in extra if k not in names]
                message = {**message, "headers": headers}
            elif head and message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return  # the rest of a streamed body: not sent
                message = {**message, "body": b""}
            await send(message)

        await self.app(scope, receive, send_with_headers)
