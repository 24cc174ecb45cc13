"""The chat check's direct path (`api.chat_check_direct`) answers exactly as the route does, and
leaves every request it cannot answer so to the framework, errors and all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from railbird.api.app import create_app
from railbird.api.chat_check_direct import ChatCheckDirect
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, METRICS_KEY, auth

BODIES: list[dict[str, Any]] = [
    {"player_id": "p-1", "text": "gl all", "table_id": "t-1"},
    {"player_id": "p-2", "text": "you fucking idiot", "table_id": "t-1"},
    {"player_id": "p-3", "text": "94 i folded", "table_id": "t-1", "hand_id": "h-1",
     "sender_status": "folded"},
    {"player_id": "p-4", "text": "bob has AK", "table_id": "t-1", "hand_id": "h-1",
     "sender_status": "not_dealt"},
    {"player_id": "p-5", "kind": "emoji", "text": "👀", "table_id": "t-1", "hand_id": "h-1",
     "sender_status": "folded"},
    *[{"player_id": "p-6", "text": "buy chips cheap", "table_id": "t-2"}] * 6,  # a repeat
    {"player_id": "p-7", "text": "ｃａｌｌ ｈｅｓ ｂｌｕｆｆｉｎｇ", "channel": "private",
     "recipient_id": "p-8", "hand_id": "h-2", "sender_status": "not_dealt"},
]  # fmt: skip


def _app(tmp_path: Path, name: str, direct: bool) -> FastAPI:
    engine = make_engine(f"sqlite:///{tmp_path / name}")
    migrate(engine)
    app = create_app(engine, {**KEYS, METRICS_KEY: "metrics"})
    if not direct:
        app.user_middleware = [m for m in app.user_middleware if m.cls is not ChatCheckDirect]
    return app


@pytest.fixture
def both(tmp_path: Path) -> Iterator[tuple[TestClient, TestClient]]:
    with (
        TestClient(_app(tmp_path, "direct.db", True)) as direct,
        TestClient(_app(tmp_path, "framework.db", False)) as framework,
    ):
        yield direct, framework


def _answers(client: TestClient) -> list[tuple[int, dict[str, Any]]]:
    found = []
    for body in BODIES:
        response = client.post("/v1/chat/check", json=body, headers=auth("chat_service"))
        answer = response.json()
        answer.pop("checked_in_ms")
        found.append((response.status_code, answer))
    return found


def test_both_paths_give_the_same_answers(both: tuple[TestClient, TestClient]) -> None:
    direct, framework = both
    answers = _answers(direct)
    assert answers == _answers(framework)
    decisions = [a["decision"] for _, a in answers]
    assert decisions[:5] == ["allow", "block", "hold", "block", "hold"]
    assert "block" in decisions[5:11]  # the repeated line is caught on either path


@pytest.mark.parametrize(
    ("request_kwargs", "status"),
    [
        ({"json": {"text": "no player"}, "headers": auth("chat_service")}, 422),
        ({"json": {"player_id": "p-1"}, "headers": auth("analyst")}, 403),
        ({"json": {"player_id": "p-1", "hand_id": "h-1"}, "headers": auth("chat_service")}, 422),
        (
            {
                "content": b'{"player_id": "p-1", "text": "gl", "text": "abuse"}',
                "headers": {**auth("chat_service"), "content-type": "application/json"},
            },
            400,
        ),
        ({"json": {"player_id": "p-1"}, "headers": {"X-API-Key": "not-a-key-0123456789"}}, 401),
    ],
)
def test_what_the_direct_path_cannot_answer_keeps_its_problem_details(
    both: tuple[TestClient, TestClient], request_kwargs: dict[str, Any], status: int
) -> None:
    for client in both:
        response = client.post("/v1/chat/check", **request_kwargs)
        assert response.status_code == status, response.text
        assert response.headers["content-type"] == "application/problem+json"
    query = both[0].post(
        "/v1/chat/check?player=p-1", json={"player_id": "p-1"}, headers=auth("chat_service")
    )
    assert query.status_code == 400 and "player" in query.json()["detail"]


def test_the_direct_path_keeps_the_answer_headers_and_the_routes_metrics(
    both: tuple[TestClient, TestClient],
) -> None:
    direct, _ = both
    response = direct.post("/v1/chat/check", json=BODIES[0], headers=auth("chat_service"))
    assert response.headers["cache-control"] == "no-store"
    assert response.headers["x-content-type-options"] == "nosniff"
    scraped = direct.get("/metrics", headers={"X-API-Key": METRICS_KEY}).text
    assert 'railbird_api_requests_total{method="POST",route="/v1/chat/check",status="200"}' in (
        scraped
    )
