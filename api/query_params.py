"""Query strings checked as strictly as bodies: an unknown parameter or a repeated single one is
a 400 naming it, and times must be written as times.

Why: FastAPI ignores parameters it does not declare, so an investigator's typo
(`/v1/flags?player=p-1`) silently answers with every flag, and `?detector=a&detector=b` keeps
only the last; pydantic reads `since=0.5` as half a second after 1970. Each of these gives a
plausible answer to a question nobody asked.
"""

from __future__ import annotations

import re
import types
from collections.abc import Iterator
from datetime import datetime
from typing import Annotated, Any, Union, get_args, get_origin

from fastapi import HTTPException, Request, status
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from pydantic import BeforeValidator

_RFC3339 = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}")


def _time_text(value: Any) -> Any:
    if isinstance(value, str) and not _RFC3339.match(value):
        raise ValueError("expected an RFC 3339 time, e.g. 2026-12-01T20:00:00Z")
    return value


# A time in a query string: RFC 3339 only (no Unix seconds, no bare dates).
QueryTime = Annotated[datetime, BeforeValidator(_time_text)]

_known: dict[int, tuple[frozenset[str], frozenset[str]]] = {}


def _declared(route: APIRoute) -> tuple[frozenset[str], frozenset[str]]:
    """The route's query parameter names, and those of them that take several values."""
    found = _known.get(id(route))
    if found is None:
        params = list(_query_params(route.dependant))
        names = frozenset(p.alias for p in params)
        lists = frozenset(p.alias for p in params if _takes_several(p.field_info.annotation))
        found = _known[id(route)] = (names, lists)
    return found


def _query_params(dependant: Dependant) -> Iterator[Any]:
    yield from dependant.query_params
    for sub in dependant.dependencies:
        yield from _query_params(sub)


def _takes_several(annotation: Any) -> bool:
    origin = get_origin(annotation)
    if origin in (list, tuple, set, frozenset):
        return True
    if origin in (Union, types.UnionType, Annotated):
        return any(_takes_several(arg) for arg in get_args(annotation))
    return False


async def strict_query(request: Request) -> None:
    """An app-wide dependency: 400 for a query parameter the route does not declare, or one it
    takes once given several times."""
    if not request.scope.get("query_string") or not request.url.path.startswith("/v1/"):
        return  # the API's routes; the console's pages take a `msg` to show, among others
    route = request.scope.get("route")
    if not isinstance(route, APIRoute):
        return
    names, lists = _declared(route)
    given = request.query_params.multi_items()
    unknown = sorted({k for k, _v in given} - names)
    if unknown:
        accepted = ", ".join(sorted(names)) or "none"
        raise HTTPException(
            status.HTTP_400_BAD_REQUEST,
            f"unknown query parameter(s) {', '.join(map(repr, unknown))} (accepted: {accepted})",
        )
    seen: set[str] = set()
    for key, _value in given:
        if key in seen and key not in lists:
            raise HTTPException(
                status.HTTP_400_BAD_REQUEST, f"query parameter {key!r} given more than once"
            )
        seen.add(key)
