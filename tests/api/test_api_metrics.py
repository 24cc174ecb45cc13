"""`GET /metrics`: requests per route template, latency histograms, chat decisions, cache age;
read only with a scraper's (`metrics`) or an admin's key, as X-API-Key or a bearer token."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import KEYS, METRICS_KEY, auth


def test_metrics_count_routes_by_template_and_the_chat_checks_decisions(
    client: TestClient,
) -> None:
    flag_id = client.get("/v1/flags", headers=auth("analyst")).json()["items"][0]["flag_id"]
    client.get(f"/v1/flags/{flag_id}", headers=auth("analyst"))
    client.get("/v1/flags")  # 401
    client.post(
        "/v1/chat/check", json={"player_id": "p-1", "text": "gl all"}, headers=auth("chat_service")
    )
    scraped = client.get("/metrics", headers={"Authorization": f"Bearer {METRICS_KEY}"})
    assert scraped.status_code == 200
    text = scraped.text
    assert (
        'railbird_api_requests_total{method="GET",route="/v1/flags/{flag_id}",status="200"} 1.0'
        in text
    )
    # Refused before routing (`api.guards`): counted, under no route.
    assert 'railbird_api_requests_total{method="GET",route="unmatched",status="401"} 1.0' in text
    assert 'railbird_api_request_seconds_bucket{le="0.005",route="/v1/chat/check"}' in text
    assert 'railbird_api_chat_check_decisions{decision="allow"} 1.0' in text
    assert "railbird_api_restriction_cache_age_seconds" in text


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"X-API-Key": "not-a-key-0000000000000"}, 401),
        ({"Authorization": "Bearer not-a-key-0000000000000"}, 401),
        ({"Authorization": f"Basic {METRICS_KEY}"}, 401),
        *[(auth(role), 403) for role in sorted(set(KEYS.values()) - {"admin"})],
        (auth("admin"), 200),
        ({"X-API-Key": METRICS_KEY}, 200),
        ({"Authorization": f"bearer {METRICS_KEY}"}, 200),
    ],
)
def test_metrics_need_a_scrapers_or_an_admins_key(
    client: TestClient, headers: dict[str, str], status: int
) -> None:
    answer = client.get("/metrics", headers=headers)
    assert answer.status_code == status, answer.text
    if status != 200:
        assert "railbird_api" not in answer.text
        assert answer.headers["content-type"].startswith("application/problem+json")


def test_a_metrics_key_reads_nothing_else(client: TestClient) -> None:
    for path in ("/v1/flags", "/v1/queue", "/v1/policy", "/v1/dead-letters"):
        assert client.get(path, headers={"X-API-Key": METRICS_KEY}).status_code == 403
    refused = client.post(
        "/v1/chat/check",
        json={"player_id": "p-1", "text": "hi"},
        headers={"X-API-Key": METRICS_KEY},
    )
    assert refused.status_code == 403
