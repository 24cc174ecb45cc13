"""GET /v1/flags: roles enforced, filters applied, pages stable, errors as problem details."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import auth


def test_health_needs_no_key(client: TestClient) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    assert response.json()["status"] == "ok" and response.json()["database"] == "ok"


def test_missing_key_is_a_401_problem(client: TestClient) -> None:
    response = client.get("/v1/flags")
    assert response.status_code == 401
    assert response.headers["content-type"] == "application/problem+json"
    assert response.json()["detail"] == "missing X-API-Key header"


def test_wrong_key_is_rejected(client: TestClient) -> None:
    response = client.get("/v1/flags", headers={"X-API-Key": "not-a-real-key-at-all"})
    assert response.status_code == 401


def test_chat_service_may_not_read_flags(client: TestClient) -> None:
    response = client.get("/v1/flags", headers=auth("chat_service"))
    assert response.status_code == 403
    assert "chat_service" in response.json()["detail"]


def test_analyst_reads_flags_with_filters(client: TestClient) -> None:
    everything = client.get("/v1/flags", headers=auth("analyst")).json()["items"]
    assert everything
    profanity = client.get(
        "/v1/flags", params={"category": "profanity"}, headers=auth("investigator")
    ).json()["items"]
    assert profanity and all(f["category"] == "profanity" for f in profanity)
    by_player = client.get(
        "/v1/flags", params={"player_id": "p-dan"}, headers=auth("analyst")
    ).json()["items"]
    assert by_player and all("p-dan" in f["player_ids"] for f in by_player)
    nobody = client.get(
        "/v1/flags", params={"player_id": "p-nobody"}, headers=auth("analyst")
    ).json()["items"]
    assert nobody == []


def test_pages_cover_every_flag_once_newest_first(client: TestClient) -> None:
    everything = client.get("/v1/flags", params={"limit": 500}, headers=auth("admin")).json()
    seen: list[str] = []
    cursor = None
    while True:
        params: dict[str, str | int] = {"limit": 1}
        if cursor:
            params["cursor"] = cursor
        page = client.get("/v1/flags", params=params, headers=auth("admin")).json()
        seen.extend(f["flag_id"] for f in page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert seen == [f["flag_id"] for f in everything["items"]]
    times = [f["ts"] for f in everything["items"]]
    assert times == sorted(times, reverse=True)


def test_bad_parameters_are_problems(client: TestClient) -> None:
    bad_cursor = client.get("/v1/flags", params={"cursor": "zzz"}, headers=auth("analyst"))
    assert bad_cursor.status_code == 400
    assert "invalid cursor" in bad_cursor.json()["detail"]
    bad_limit = client.get("/v1/flags", params={"limit": 0}, headers=auth("analyst"))
    assert bad_limit.status_code == 422
    assert bad_limit.json()["errors"][0]["where"] == "query.limit"


def test_one_flag_and_a_missing_one(client: TestClient) -> None:
    first = client.get("/v1/flags", headers=auth("analyst")).json()["items"][0]
    one = client.get(f"/v1/flags/{first['flag_id']}", headers=auth("analyst"))
    assert one.status_code == 200 and one.json() == first
    missing = client.get("/v1/flags/f-nope", headers=auth("analyst"))
    assert missing.status_code == 404 and missing.json()["title"] == "Not Found"
