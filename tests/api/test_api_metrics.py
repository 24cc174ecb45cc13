"""`GET /metrics`: requests per route template, latency histograms, chat decisions, cache age."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import auth


def test_metrics_count_routes_by_template_and_the_chat_checks_decisions(
    client: TestClient,
) -> None:
    flag_id = client.get("/v1/flags", headers=auth("analyst")).json()["items"][0]["flag_id"]
    client.get(f"/v1/flags/{flag_id}", headers=auth("analyst"))
    client.get("/v1/flags")  # 401
    client.post(
        "/v1/chat/check", json={"player_id": "p-1", "text": "gl all"}, headers=auth("chat_service")
    )
    scraped = client.get("/metrics")
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
