"""Bad input gets a clear 4xx problem, never a 500, and costs nothing before the key is known."""

from __future__ import annotations

import base64
import time

import pytest
from fastapi.testclient import TestClient

from railbird.api.guards import MAX_BODY_BYTES
from tests.api.conftest import auth


def _cursor(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode()).decode()


@pytest.mark.parametrize(
    "cursor",
    [
        _cursor("0001-01-01T00:00:00+05:00|f-1"),
        _cursor("9999-12-31T23:59:59+00:00|f-1"),
        _cursor("2026-11-29T18:00:00+00:00|" + "x" * 500),
        _cursor("2026-11-29T18:00:00+00:00"),
        "%%%",
        "A" * 5000,
    ],
)
@pytest.mark.parametrize("path", ["/v1/flags", "/v1/dead-letters"])
def test_a_tampered_cursor_is_a_400(client: TestClient, path: str, cursor: str) -> None:
    response = client.get(path, params={"cursor": cursor}, headers=auth("admin"))
    assert response.status_code in (400, 422), response.text
    assert response.headers["content-type"].startswith("application/problem+json")


def test_an_unauthenticated_huge_post_is_refused_before_its_body_is_read(
    client: TestClient,
) -> None:
    body = b"{" + b" " * (200 * 1024 * 1024) + b"}"
    started = time.perf_counter()
    response = client.post("/v1/restrictions", content=body)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "APIKey"
    assert time.perf_counter() - started < 2.0


def test_a_body_over_the_limit_is_a_413_declared_or_streamed(client: TestClient) -> None:
    declared = client.post(
        "/v1/restrictions", content=b"x" * (MAX_BODY_BYTES + 1), headers=auth("analyst")
    )
    assert declared.status_code == 413

    def chunks() -> object:
        for _ in range(10):
            yield b"x" * (MAX_BODY_BYTES // 4)

    streamed = client.post("/v1/restrictions", content=chunks(), headers=auth("analyst"))
    assert streamed.status_code == 413
    assert streamed.headers["content-type"].startswith("application/problem+json")


def test_field_limits_and_strict_numbers(client: TestClient) -> None:
    long_id = client.get("/v1/flags", params={"table_id": "t" * 10_000}, headers=auth("analyst"))
    assert long_id.status_code == 422
    base = {"player_id": "p-1", "kind": "mute_chat", "reason": "test reason"}
    as_bool = client.post(
        "/v1/restrictions", json={**base, "duration_minutes": True}, headers=auth("analyst")
    )
    assert as_bool.status_code == 422
    unknown = client.post(
        "/v1/restrictions", json={**base, "flag_ids": ["f-nope"]}, headers=auth("analyst")
    )
    assert unknown.status_code == 422 and "f-nope" in unknown.json()["detail"]
    huge = client.post(
        "/v1/restrictions", json={**base, "flag_ids": ["f" * 100_000]}, headers=auth("analyst")
    )
    assert huge.status_code in (413, 422)


def test_a_wrong_method_is_a_405_with_allow(client: TestClient) -> None:
    response = client.delete("/v1/flags", headers=auth("analyst"))
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, HEAD"
    assert response.headers["content-type"].startswith("application/problem+json")
    # Two routes share this path: the Allow names both methods.
    both = client.delete("/v1/restrictions", headers=auth("analyst"))
    assert both.status_code == 405 and both.headers["allow"] == "GET, HEAD, POST"


@pytest.mark.parametrize(
    ("query", "status", "says"),
    [
        ("player=p-1", 400, "unknown query parameter(s) 'player'"),
        ("category=spam&category=profanity", 400, "'category' given more than once"),
        ("since=0.5", 422, "RFC 3339"),
        ("since=1733000000", 422, "RFC 3339"),
        ("since=2026-12-01T20:00:00Z&category=spam", 200, ""),
    ],
)
def test_query_strings_are_checked_as_strictly_as_bodies(
    client: TestClient, query: str, status: int, says: str
) -> None:
    response = client.get(f"/v1/flags?{query}", headers=auth("analyst"))
    assert response.status_code == status, response.text
    if says:
        assert says in response.json()["detail"]


def test_a_route_with_an_id_documents_its_404(client: TestClient) -> None:
    paths = client.get("/openapi.json", headers=auth("analyst")).json()["paths"]
    assert "404" in paths["/v1/flags/{flag_id}"]["get"]["responses"]
    assert "404" in paths["/v1/sessions/{session_id}/export"]["get"]["responses"]
    assert "404" not in paths["/v1/flags"]["get"]["responses"]


def test_the_openapi_schema_documents_the_problems_every_route_may_answer(
    client: TestClient,
) -> None:
    schema = client.get("/openapi.json", headers=auth("analyst")).json()
    assert "Problem" in schema["components"]["schemas"]
    for path, methods in schema["paths"].items():
        if not path.startswith("/v1/"):
            continue
        for method, operation in methods.items():
            for status in ("401", "403", "413", "422"):
                answer = operation["responses"].get(status)
                assert answer is not None, f"{method.upper()} {path} does not document {status}"
                assert "application/problem+json" in answer["content"], (method, path, status)
