"""`POST /v1/chat/check` answered without the framework's routing and dependency machinery,
when the request is well formed.

Why: the check is the one route on a chat server's send path, at thousands a second, and of
its server CPU well under half was the check itself: FastAPI matched the path against every
route, solved the dependencies, parsed and validated the body twice over, and encoded the
answer through `jsonable_encoder` (`bench/chat_check_cpu.py`, docs/benchmarks-api.md). On a busy
2-core machine that CPU is the queue every request waits in. This ASGI middleware sits inside
`RequestGuard` (the key is known, the body within size and free of duplicate keys) and
answers a request it can answer exactly as the route would: a POST with no query string, a
JSON body that `ChatCheckIn` accepts, and a key whose role may check. Anything else (a wrong
role, a body that fails validation, a query parameter) goes on to the framework untouched,
so every error keeps its problem details and every route its checks. Both paths call
`routes_chat.answer`; the OpenAPI schema is the route's.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi.routing import APIRoute
from pydantic import ValidationError

from railbird.api.auth import KeyRing, Role
from railbird.api.guards import App, Receive, Scope, Send, replay_body
from railbird.api.models import ChatCheckIn
from railbird.api.routes_chat import answer
from railbird.api.routes_chat import router as chat_router

PATH = "/v1/chat/check"
_ROLES = frozenset({Role.CHAT_SERVICE, Role.ADMIN})


class ChatCheckDirect:
    def __init__(self, app: App, keyring: KeyRing) -> None:
        self.app = app
        self.keyring = keyring
        # The route's object, for the metrics' label (`scope["route"]`, as routing sets it).
        self._route = next(
            r for r in chat_router.routes if isinstance(r, APIRoute) and r.path == PATH
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] != "http"
            or scope.get("path") != PATH
            or scope.get("method") != "POST"
            or scope.get("query_string")
        ):
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, replay_body(chunks, message, receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        raw = b"".join(chunks)
        body = self._well_formed(scope, raw)
        if body is None:
            await self.app(scope, replay_body(chunks, None, receive), send)
            return
        app: Any = scope["app"]
        scope["route"] = self._route
        payload = answer(app.state.chat_gate, body, started).model_dump_json().encode()
        await send(
            {
                "type": "http.response.start",
                "status": 200,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": payload})

    def _well_formed(self, scope: Scope, raw: bytes) -> ChatCheckIn | None:
        key = content_type = None
        for name, value in scope.get("headers", ()):
            lowered = name.lower()
            if lowered == b"x-api-key":
                key = value
            elif lowered == b"content-type":
                content_type = value
        if key is None or content_type is None:
            return None
        if content_type.split(b";", 1)[0].strip().lower() != b"application/json":
            return None
        principal = self.keyring.lookup(key.decode("latin-1"))
        if principal is None or principal.role not in _ROLES:
            return None
        try:
            return ChatCheckIn.model_validate_json(raw)
        except ValidationError:
            return None
