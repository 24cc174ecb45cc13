"""What the service gives away to whoever reaches it: nothing beyond `/health` without a key;
every answer uncacheable and unsniffable; HEAD wherever GET is; duplicate JSON keys refused;
no redirect built from the Host header; ids that name nothing are 404s, as documented."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from railbird.api.app import create_app
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth

ADMIN = auth("admin")


def _concrete(path: str) -> str:
    return re.sub(r"\{[^}]+\}", "x-1", path)


def _routes(routes: list[Any]) -> Iterator[APIRoute]:
    """Every route of the app, those of included routers too (FastAPI nests them)."""
    for route in routes:
        if isinstance(route, APIRoute):
            yield route
        elif hasattr(route, "original_router"):  # an included router (prefixes set on it)
            yield from _routes(route.original_router.routes)


def test_nothing_answers_without_a_key_but_health_and_the_sign_in_page(
    client: TestClient,
) -> None:
    """Every GET route of the app, asked with no key and no cookie."""
    open_paths = {"/health", "/console/login"}
    seen = 0
    for route in _routes(client.app.routes):  # type: ignore[attr-defined]
        if "GET" not in route.methods:
            continue
        path = _concrete(route.path)
        answer = client.get(path, follow_redirects=False)
        seen += 1
        if route.path in open_paths:
            assert answer.status_code == 200, path
            continue
        if path.startswith("/console"):
            assert answer.status_code == 303, path
            assert answer.headers["location"].startswith("/console"), path
            continue
        assert answer.status_code in (401, 404), (path, answer.status_code)
    assert seen >= 25
    for path in ("/docs", "/redoc", "/docs/static/swagger-ui-bundle.js"):
        assert client.get(path).status_code == 404, path
    assert client.get("/openapi.json").status_code == 401
    assert client.get("/openapi.json", headers=auth("chat_service")).json()["paths"]


@pytest.fixture
def docs_client(tmp_path: Path) -> Iterator[TestClient]:
    engine = make_engine(f"sqlite:///{tmp_path / 'docs.db'}")
    migrate(engine)
    with TestClient(create_app(engine, KEYS, docs=True)) as test_client:
        yield test_client
    engine.dispose()


def test_the_docs_page_when_turned_on_loads_only_its_own_files(docs_client: TestClient) -> None:
    page = docs_client.get("/docs")
    assert page.status_code == 200
    csp = page.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "default-src 'none'" in csp
    assert "frame-ancestors 'none'" in csp
    sources = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert sources and all(s.startswith("/docs/static/") for s in sources), sources
    assert "<script>" not in page.text  # no inline script
    for source in sources:
        asset = docs_client.get(source)
        assert asset.status_code == 200 and asset.content, source
    assert "validatorUrl: null" in docs_client.get("/docs/static/swagger-init.js").text
    assert docs_client.get("/openapi.json").status_code == 200  # public with the UI
    assert docs_client.get("/redoc").status_code == 404


# Every JSON route with a body, and a valid body for it.
JSON_ROUTES = [
    ("/v1/chat/check", "chat_service", {"player_id": "p-1", "text": "gl"}),
    ("/v1/tables/join-check", "lobby_service", {"player_id": "p-1", "blind_level": "1/2"}),
    ("/v1/restrictions", "analyst", {"player_id": "p-1", "kind": "mute_chat", "reason": "abc"}),
    ("/v1/restrictions/a-1/lift", "analyst", {"reason": "appeal"}),
    ("/v1/flags/f-1/review", "analyst", {"decision": "confirm", "note": "ok!", "version": 0}),
    ("/v1/reports", "reports", {"reporter_id": "p-1", "reported_id": "p-2", "reason": "spam"}),
]


def test_every_json_route_with_a_body_is_listed_here(client: TestClient) -> None:
    posted = {
        _concrete(r.path).replace("x-1", "")
        for r in _routes(client.app.routes)  # type: ignore[attr-defined]
        if "POST" in r.methods and r.path.startswith("/v1/")
        and r.body_field is not None
    }  # fmt: skip
    listed = {re.sub(r"/[af]-1/", "//", path) for path, _role, _body in JSON_ROUTES}
    assert posted == listed


@pytest.mark.parametrize(("path", "role", "body"), JSON_ROUTES)
def test_a_body_naming_a_key_twice_is_refused_naming_it(
    client: TestClient, path: str, role: str, body: dict[str, object]
) -> None:
    first, *_ = body
    pairs = ", ".join(f'"{k}": {_json(v)}' for k, v in body.items())
    twice = "{" + pairs + f', "{first}": {_json(body[first])}' + "}"
    for content_type in ("application/json", None):
        headers = {**auth(role), **({"content-type": content_type} if content_type else {})}
        answer = client.post(path, content=twice.encode(), headers=headers)
        assert answer.status_code == 400, answer.text
        assert answer.json()["detail"].startswith(f"duplicate key {first!r}")
        assert answer.headers["content-type"].startswith("application/problem+json")


def _json(value: object) -> str:
    import json

    return json.dumps(value)


def test_the_chat_check_is_not_judged_on_a_second_text(client: TestClient) -> None:
    body = b'{"player_id": "p-1", "text": "gl all", "text": "you fucking idiot"}'
    answer = client.post("/v1/chat/check", content=body, headers=auth("chat_service"))
    assert answer.status_code == 400 and "'text'" in answer.json()["detail"]
    nested = b'{"player_id": "p-1", "kind": "mute_chat", "reason": "abc", "flag_ids": [], ' \
             b'"x": {"a": 1, "a": 2}}'  # fmt: skip
    deep = client.post("/v1/restrictions", content=nested, headers=auth("analyst"))
    assert deep.status_code == 400 and "(at $.x.a)" in deep.json()["detail"]
    brackets = client.post("/v1/chat/check", content=b"[" * 60_000, headers=auth("chat_service"))
    assert brackets.status_code == 400, brackets.text


@pytest.mark.parametrize(
    "path",
    ["/v1/flags", "/v1/queue", "/health", "/v1/dead-letters", "/v1/policy"],
)
def test_answers_are_neither_cached_nor_sniffed(client: TestClient, path: str) -> None:
    for headers in (ADMIN, {}):
        answer = client.get(path, headers=headers)
        assert answer.headers["cache-control"] == "no-store", (path, answer.status_code)
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["content-security-policy"].startswith("default-src 'none'")


def test_an_export_is_neither_cached_nor_sniffed(client: TestClient) -> None:
    sessions = client.get("/v1/sessions", params={"player_id": "p-ann"}, headers=ADMIN).json()
    assert sessions, "the example events give p-ann a session"
    for fmt in ("csv", "json"):
        answer = client.get(
            f"/v1/sessions/{sessions[0]['session_id']}/export",
            params={"format": fmt},
            headers=ADMIN,
        )
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "no-store"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert "attachment" in answer.headers["content-disposition"]


def test_head_answers_wherever_get_does_without_a_body(client: TestClient) -> None:
    flag_id = client.get("/v1/flags", headers=ADMIN).json()["items"][0]["flag_id"]
    for path in ("/v1/flags", f"/v1/flags/{flag_id}", "/health", "/v1/queue"):
        got, head = client.get(path, headers=ADMIN), client.head(path, headers=ADMIN)
        assert head.status_code == got.status_code == 200, path
        assert head.content == b""
        assert head.headers["content-type"] == got.headers["content-type"]
    assert client.head("/v1/flags").status_code == 401
    assert client.head("/v1/flags/f-none", headers=ADMIN).status_code == 404
    # A POST-only path still refuses HEAD, and names what it serves.
    refused = client.head("/v1/chat/check", headers=auth("chat_service"))
    assert refused.status_code == 405 and refused.headers["allow"] == "POST"


@pytest.mark.parametrize("path", ["/v1/flags/", "/console/queue/", "/health/"])
def test_no_redirect_echoes_the_host_header(client: TestClient, path: str) -> None:
    answer = client.get(path, headers={**ADMIN, "Host": "evil.example"}, follow_redirects=False)
    assert "evil.example" not in answer.headers.get("location", "")
    assert "evil.example" not in answer.text
    anonymous = client.get(
        "/console/queue", headers={"Host": "evil.example"}, follow_redirects=False
    )
    assert anonymous.headers["location"].startswith("/console/login")


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/v1/tables/join-check", {"player_id": "p-1", "blind_level": "0/0"}),
        ("/v1/tables/join-check", {"player_id": "p-1", "blind_level": "100/50"}),
        ("/v1/tables/join-check", {"player_id": "p-1", "small_blind": 0, "big_blind": 0}),
        ("/v1/tables/join-check", {"player_id": "p-1", "small_blind": 100, "big_blind": 50}),
        (
            "/v1/restrictions",
            {"player_id": "p-1", "kind": "block_table_join", "reason": "hit and run",
             "blind_level": "100/50"},
        ),
    ],
)  # fmt: skip
def test_blind_levels_no_table_plays_are_refused(
    client: TestClient, path: str, body: dict[str, object]
) -> None:
    role = "analyst" if path == "/v1/restrictions" else "lobby_service"
    answer = client.post(path, json=body, headers=auth(role))
    assert answer.status_code == 422, answer.text
    assert "blind" in answer.json()["detail"]


@pytest.mark.parametrize("level", ["1/1", "0/100", "050/100"])
def test_real_blind_levels_are_accepted(client: TestClient, level: str) -> None:
    answer = client.post(
        "/v1/tables/join-check",
        json={"player_id": "p-1", "blind_level": level},
        headers=auth("lobby_service"),
    )
    canonical = "/".join(str(int(part)) for part in level.split("/"))
    assert answer.status_code == 200 and answer.json()["blind_level"] == canonical


def test_unknown_ids_are_404s_as_documented(client: TestClient) -> None:
    reviews = client.get("/v1/flags/f-none/reviews", headers=ADMIN)
    assert reviews.status_code == 404 and "f-none" in reviews.json()["detail"]
    history = client.get("/v1/players/p-nobody/history", headers=ADMIN)
    assert history.status_code == 404 and "p-nobody" in history.json()["detail"]
    # Known, with and without flags: a record, maybe empty.
    flag_id = client.get("/v1/flags", headers=ADMIN).json()["items"][0]["flag_id"]
    assert client.get(f"/v1/flags/{flag_id}/reviews", headers=ADMIN).json() == []
    player = client.get(f"/v1/flags/{flag_id}", headers=ADMIN).json()["player_ids"][0]
    assert client.get(f"/v1/players/{player}/history", headers=ADMIN).json()["flags"]
    seen = ["p-ann", "p-bob", "p-cat", "p-dan", "p-eve", "p-fay", "p-gus", "p-hal"]
    records = [client.get(f"/v1/players/{p}/history", headers=ADMIN) for p in seen]
    assert all(r.status_code == 200 for r in records)
    assert any(not r.json()["flags"] for r in records), "a player seen but never flagged"
    paths = client.get("/openapi.json", headers=ADMIN).json()["paths"]
    for path in ("/v1/flags/{flag_id}/reviews", "/v1/players/{player_id}/history"):
        assert "404" in paths[path]["get"]["responses"]
