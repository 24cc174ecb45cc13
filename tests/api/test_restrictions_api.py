"""Analysts apply and lift restrictions; the chat server's check honours them at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import select

from railbird.api.app import create_app
from railbird.api.restriction_store import apply_restriction
from railbird.store import schema
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth


def mute(client: TestClient, player: str = "p-ann", minutes: int | None = 30) -> dict[str, object]:
    response = client.post(
        "/v1/restrictions",
        json={
            "player_id": player,
            "kind": "mute_chat",
            "duration_minutes": minutes,
            "reason": "repeated abuse after warning",
        },
        headers=auth("analyst"),
    )
    assert response.status_code == 201, response.text
    body: dict[str, object] = response.json()
    return body


def check(client: TestClient, text: str, player: str = "p-ann", kind: str = "text") -> dict:  # type: ignore[type-arg]
    response = client.post(
        "/v1/chat/check",
        json={"player_id": player, "text": text, "kind": kind, "table_id": "t-1"},
        headers=auth("chat_service"),
    )
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_mute_blocks_chat_until_lifted(client: TestClient) -> None:
    assert check(client, "gl all")["decision"] == "allow"
    restriction = mute(client)
    assert restriction["active"] is True and restriction["expires_at"] is not None
    blocked = check(client, "gl all")
    assert blocked["decision"] == "block"
    assert blocked["restriction"]["action_id"] == restriction["action_id"]
    assert "mute_chat" in blocked["reasons"][0]
    assert check(client, "", kind="snapcam")["decision"] == "allow", "a mute leaves SnapCam"
    assert check(client, "gl all", player="p-bob")["decision"] == "allow"

    lifted = client.post(
        f"/v1/restrictions/{restriction['action_id']}/lift",
        json={"reason": "appeal accepted"},
        headers=auth("analyst"),
    )
    assert lifted.status_code == 200 and lifted.json()["active"] is False
    assert check(client, "gl all")["decision"] == "allow"


def test_suspension_blocks_snapcam_too(client: TestClient) -> None:
    client.post(
        "/v1/restrictions",
        json={"player_id": "p-cat", "kind": "suspend_communication", "reason": "hole card leak"},
        headers=auth("analyst"),
    )
    assert check(client, "", player="p-cat", kind="snapcam")["decision"] == "block"


def test_lifting_twice_is_a_conflict_and_unknown_is_404(client: TestClient) -> None:
    restriction = mute(client)
    path = f"/v1/restrictions/{restriction['action_id']}/lift"
    assert (
        client.post(path, json={"reason": "appeal upheld"}, headers=auth("analyst")).status_code
        == 200
    )
    again = client.post(path, json={"reason": "appeal upheld"}, headers=auth("analyst"))
    assert again.status_code == 409 and again.json()["title"] == "Conflict"
    unknown = client.post(
        "/v1/restrictions/a-nope/lift", json={"reason": "appeal upheld"}, headers=auth("analyst")
    )
    assert unknown.status_code == 404


def test_every_manual_change_is_audited(client: TestClient) -> None:
    restriction = mute(client)
    client.post(
        f"/v1/restrictions/{restriction['action_id']}/lift",
        json={"reason": "appeal"},
        headers=auth("analyst"),
    )
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(select(schema.audit_log).order_by(schema.audit_log.c.id)).all()
    assert [r.action for r in rows] == ["restriction.apply", "restriction.lift"]
    assert rows[0].actor.startswith("key:") and "analyst" not in rows[0].actor


def test_roles_are_least_privilege(client: TestClient) -> None:
    body = {"player_id": "p-ann", "kind": "mute_chat", "reason": "testing roles"}
    for role in ("chat_service", "investigator"):
        response = client.post("/v1/restrictions", json=body, headers=auth(role))
        assert response.status_code == 403, role
    analyst_check = client.post(
        "/v1/chat/check", json={"player_id": "p-ann", "text": "hi"}, headers=auth("analyst")
    )
    assert analyst_check.status_code == 403


def test_the_check_blocks_a_message_that_breaks_the_rules(client: TestClient) -> None:
    verdict = check(client, "free chips at www.chipdealz.biz msg me on telegram @chipdealz")
    assert verdict["decision"] == "block"
    assert "advertising" in verdict["categories"]


def test_listing_restrictions(client: TestClient) -> None:
    restriction = mute(client, player="p-dan")
    listed = client.get(
        "/v1/restrictions", params={"player_id": "p-dan"}, headers=auth("chat_service")
    ).json()
    assert [r["action_id"] for r in listed] == [restriction["action_id"]]


def test_a_restriction_stored_before_the_server_starts_holds_from_its_first_check(
    tmp_path: Path,
) -> None:
    """The cache loads before the server answers: its background refresh comes a `refresh`
    later, and a restarted server once let every muted player through in between."""
    engine = make_engine(f"sqlite:///{tmp_path / 'api.db'}")
    migrate(engine)
    apply_restriction(
        engine,
        player_id="p-ann",
        kind="mute_chat",
        duration=timedelta(minutes=30),
        reason="muted before the restart",
        actor="key:test",
        flag_ids=(),
        now=datetime.now(UTC),
    )
    app = create_app(engine, KEYS)
    app.state.chat_gate.restrictions.refresh = 3600.0  # only the load at start can see it
    with TestClient(app) as fresh:
        assert check(fresh, "gl all")["decision"] == "block"
    engine.dispose()
