"""The review loop: a queue most severe and oldest first, reviews that cannot collide, and a
dismissal that lifts the restriction its flag caused, at once for the chat check."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from railbird.api.review_queries import RULES_ACTOR
from railbird.detectors.findings import Evidence, Finding
from railbird.rules.actions import Action, action_id_for
from railbird.rules.flags import Flag
from railbird.store.writer import StoreWriter
from tests.api.conftest import auth

SEVERITY_ORDER = {"critical": 0, "high": 1, "medium": 2, "low": 3}


def _all_pages(client: TestClient, role: str = "analyst", **params: object) -> list[dict]:
    items: list[dict] = []
    cursor = None
    while True:
        query = {"limit": 3, **params, **({"cursor": cursor} if cursor else {})}
        page = client.get("/v1/queue", params=query, headers=auth(role))
        assert page.status_code == 200, page.text
        items += page.json()["items"]
        cursor = page.json()["next_cursor"]
        if cursor is None:
            return items


def test_the_queue_is_most_severe_then_oldest_first_in_keyset_pages(client: TestClient) -> None:
    items = _all_pages(client)
    assert items and all(i["status"] == "open" for i in items)
    keys = [(SEVERITY_ORDER[i["severity"]], i["ts"], i["flag_id"]) for i in items]
    assert keys == sorted(keys)
    assert len({i["flag_id"] for i in items}) == len(items)
    category = items[0]["category"]
    assert all(i["category"] == category for i in _all_pages(client, category=category))


def test_reviews_are_recorded_and_two_reviews_of_one_version_conflict(client: TestClient) -> None:
    flag = _all_pages(client)[0]
    body = {"decision": "confirm", "note": "clear abuse", "version": flag["review_version"]}
    first = client.post(f"/v1/flags/{flag['flag_id']}/review", json=body, headers=auth("analyst"))
    assert first.status_code == 200, first.text
    assert first.json()["flag"]["status"] == "confirmed"
    second = client.post(
        f"/v1/flags/{flag['flag_id']}/review",
        json={**body, "decision": "dismiss"},
        headers=auth("admin"),
    )
    assert second.status_code == 409
    history = client.get(f"/v1/flags/{flag['flag_id']}/reviews", headers=auth("investigator"))
    assert [(r["decision"], r["role"]) for r in history.json()] == [("confirm", "analyst")]
    assert flag["flag_id"] not in {i["flag_id"] for i in _all_pages(client)}
    missing = client.post("/v1/flags/f-none/review", json=body, headers=auth("analyst"))
    assert missing.status_code == 404


@pytest.mark.parametrize(
    ("role", "queue", "review"),
    [
        ("analyst", 200, 200),
        ("investigator", 200, 403),
        ("chat_service", 403, 403),
        ("admin", 200, 200),
    ],
)
def test_roles(client: TestClient, role: str, queue: int, review: int) -> None:
    assert client.get("/v1/queue", headers=auth(role)).status_code == queue
    flag = _all_pages(client, role="admin")[0]
    body = {"decision": "escalate", "note": "needs a look", "version": flag["review_version"]}
    response = client.post(f"/v1/flags/{flag['flag_id']}/review", json=body, headers=auth(role))
    assert response.status_code == review
    assert client.get("/v1/queue").status_code == 401
    assert client.post(f"/v1/flags/{flag['flag_id']}/review", json=body).status_code == 401


def test_dismissing_a_flag_lifts_its_mute_and_the_chat_check_lets_the_player_speak(
    client: TestClient,
) -> None:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    now = datetime.now(UTC)
    finding = Finding(
        detector="profanity",
        category="profanity",
        severity="medium",
        score=0.8,
        ts=now,
        player_ids=("p-banter",),
        evidence=Evidence(kind="test", summary="swearing"),
        message_ids=("m-banter",),
    )
    flag = Flag.from_finding(finding)
    mute = Action(
        action_id=action_id_for("mute_chat", "p-banter", (flag.flag_id,)),
        kind="mute_chat",
        player_id="p-banter",
        ts=now,
        reason="profanity (medium), strike 2",
        flag_ids=(flag.flag_id,),
        duration=timedelta(hours=1),
        actor=RULES_ACTOR,
    )
    StoreWriter(engine).write(flags=[flag], actions=[mute])

    def say() -> str:
        verdict = client.post(
            "/v1/chat/check",
            json={"player_id": "p-banter", "text": "nice hand"},
            headers=auth("chat_service"),
        )
        return str(verdict.json()["decision"])

    client.app.state.chat_gate.restrictions.refresh_now()  # type: ignore[attr-defined]
    assert say() == "block"
    body = {"decision": "dismiss", "note": "friends joking", "version": 0}
    done = client.post(f"/v1/flags/{flag.flag_id}/review", json=body, headers=auth("analyst"))
    assert done.status_code == 200, done.text
    assert done.json()["lifted_action_ids"] == [mute.action_id]
    assert say() == "allow"
    history = client.get(
        "/v1/restrictions",
        params={"player_id": "p-banter", "active": False},
        headers=auth("analyst"),
    ).json()
    assert history[0]["lifted_at"] is not None
