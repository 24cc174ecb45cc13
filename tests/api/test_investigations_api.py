"""Investigators see a flag with the chat, table events and hands around it."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.api.conftest import auth


def _flag(client: TestClient, category: str) -> dict:  # type: ignore[type-arg]
    items = client.get(
        "/v1/flags", params={"category": category, "limit": 500}, headers=auth("investigator")
    ).json()["items"]
    assert items, f"no {category} flag in the example stream"
    return items[0]  # type: ignore[no-any-return]


def test_context_holds_the_conversation_and_the_hand(client: TestClient) -> None:
    flag = _flag(client, "profanity")
    context = client.get(
        f"/v1/flags/{flag['flag_id']}/context",
        params={"window_minutes": 5},
        headers=auth("investigator"),
    ).json()
    assert context["flag"]["flag_id"] == flag["flag_id"]
    chat_ids = [m["message_id"] for m in context["chat"]]
    assert "m-0003" in chat_ids and "m-0002" in chat_ids, "the table's chat around the flag"
    assert all(m["table_id"] == "t-1" or m["player_id"] == "p-dan" for m in context["chat"])
    assert [h["hand_id"] for h in context["hands"]] == ["h-1"]
    assert {"hand_start", "hand_end"} <= {e["action"] for e in context["table_events"]}


def test_context_is_for_investigators_only(client: TestClient) -> None:
    flag = _flag(client, "profanity")
    response = client.get(f"/v1/flags/{flag['flag_id']}/context", headers=auth("analyst"))
    assert response.status_code == 403


def test_player_history(client: TestClient) -> None:
    history = client.get("/v1/players/p-dan/history", headers=auth("investigator")).json()
    assert history["player_id"] == "p-dan"
    assert history["flags"] and all("p-dan" in f["player_ids"] for f in history["flags"])
