"""Errors as RFC 9457 problem details, so every client parses one error shape."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import BaseRoute

PROBLEM = "application/problem+json"


class Problem(BaseModel):
    """An error, as every route answers one (RFC 9457 problem details)."""

    type: str = "about:blank"
    title: str
    status: int
    detail: str
    instance: str
    errors: list[dict[str, str]] | None = Field(
        default=None, description="for a 422: each field at fault (`where`) and the `problem`"
    )

    model_config = {
        "json_schema_extra": {
            "examples": [
                {
                    "type": "about:blank",
                    "title": "Forbidden",
                    "status": 403,
                    "detail": "role 'chat_service' may not use this endpoint (needs one of: ...)",
                    "instance": "/v1/flags",
                }
            ]
        }
    }


def _documented(description: str) -> dict[str, Any]:
    return {"model": Problem, "description": description, "content": {PROBLEM: {}}}


# Documented on every route (`FastAPI(responses=...)`): what any of them may answer.
ERRORS: dict[int | str, dict[str, Any]] = {
    400: _documented(
        "a parameter that is not ours (a cursor, a session id) or is missing, or a JSON body "
        "naming a key twice"
    ),
    401: _documented("no X-API-Key header, or an unknown key"),
    403: _documented("the key's role may not use this route"),
    413: _documented("a body over 64 KiB"),
    422: _documented("a field that fails validation: `errors` names each"),
}
# Added to every route whose path names something (`document_routes`).
NOT_FOUND = _documented("nothing with that id")


def document_routes(app: FastAPI, routes: Iterable[BaseRoute]) -> None:
    """Document a 404 on every route with a path parameter (the id it names may not exist),
    and keep each path's methods for the `Allow` of a 405 (Starlette's names only the first
    route's, though `/v1/restrictions` has a GET and a POST)."""
    methods: list[tuple[re.Pattern[str], set[str]]] = []
    for route in routes:
        if isinstance(route, APIRoute):
            if route.param_convertors:
                route.responses.setdefault(404, NOT_FOUND)
            methods.append((route.path_regex, set(route.methods or ())))
    app.state.route_methods = methods


def _allowed_methods(request: Request) -> str:
    path = request.url.path
    found: set[str] = set()
    for regex, methods in getattr(request.app.state, "route_methods", ()):
        if regex.match(path):
            found |= methods
    if "GET" in found:
        found.add("HEAD")  # answered as the GET (`response_headers`)
    return ", ".join(sorted(found))


def problem(status: int, title: str, detail: str, instance: str, **extra: Any) -> JSONResponse:
    """An RFC 9457 problem-details response; `extra` members are added to the body."""
    body = {"type": "about:blank", "title": title, "status": status, "detail": detail}
    body["instance"] = instance
    body.update(extra)
    return JSONResponse(body, status_code=status, media_type=PROBLEM)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, StarletteHTTPException)
    titles = {
        400: "Bad Request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not Found",
        405: "Method Not Allowed",
        409: "Conflict",
        413: "Content Too Large",
        429: "Too Many Requests",
    }
    response = problem(
        exc.status_code, titles.get(exc.status_code, "Error"), str(exc.detail), request.url.path
    )
    for name, value in (exc.headers or {}).items():  # 405's Allow, among others
        response.headers[name] = value
    if exc.status_code == 405:
        response.headers["Allow"] = _allowed_methods(request) or response.headers.get("Allow", "")
    if exc.status_code == 401:
        response.headers["WWW-Authenticate"] = "APIKey"
    return response


async def _validation_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = [
        {"where": ".".join(str(p) for p in e["loc"]), "problem": e["msg"]} for e in exc.errors()
    ]
    detail = "; ".join(f"{e['where']}: {e['problem']}" for e in errors)
    return problem(422, "Invalid request", detail, request.url.path, errors=errors)


def install(app: FastAPI) -> None:
    """Make HTTP and request-validation errors on every route of `app` answer as problem details."""
    app.add_exception_handler(StarletteHTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
