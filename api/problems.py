"""Errors as RFC 9457 problem details, so every client parses one error shape."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

PROBLEM = "application/problem+json"


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
    }
    response = problem(
        exc.status_code, titles.get(exc.status_code, "Error"), str(exc.detail), request.url.path
    )
    for name, value in (exc.headers or {}).items():  # 405's Allow, among others
        response.headers[name] = value
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
