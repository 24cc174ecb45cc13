"""GET /v1/dead-letters: what the pipeline set aside, for admins only, newest first."""

from __future__ import annotations

import orjson
import pytest
from fastapi.testclient import TestClient

from railbird.store.batches import write_requests
from railbird.store.writer import StoreWriter
from tests.api.conftest import auth


def set_aside(client: TestClient) -> None:
    writer = StoreWriter(client.app.state.engine)  # type: ignore[attr-defined]
    for offset in range(5):
        writer.write_dead_letter(
            "chat.messages", f"partition 0 offset {offset}", "invalid JSON", "{"
        )
    writer.write_dead_letter("day.jsonl", "line 9", "unknown event type 'x'", '{"type": "x"}')
    no_player = {"type": "chat", "message_id": "m-bad", "ts": "2026-11-29T20:15:03.120Z"}
    good = {**no_player, "message_id": "m-good", "player_id": "p-1", "channel": "table"}
    records = [("chat", orjson.dumps(good)), ("chat", orjson.dumps(no_player))]
    assert write_requests(writer, [(1, "batch", records, [], [])]) == 1


def test_only_admins_read_dead_letters(client: TestClient) -> None:
    for role in ("analyst", "investigator", "chat_service"):
        assert client.get("/v1/dead-letters", headers=auth(role)).status_code == 403, role
    assert client.get("/v1/dead-letters").status_code == 401


def test_dead_letters_by_source_with_the_reason_and_the_record(client: TestClient) -> None:
    set_aside(client)
    page = client.get("/v1/dead-letters?source=store", headers=auth("admin")).json()
    [item] = page["items"]
    assert item["reason"].startswith("chat record m-bad could not be stored: KeyError")
    assert orjson.loads(item["raw"])["message_id"] == "m-bad"
    assert item["ts"].endswith("Z")
    assert page["next_cursor"] is None
    page = client.get("/v1/dead-letters?source=day.jsonl", headers=auth("admin")).json()
    assert [(i["position"], i["reason"]) for i in page["items"]] == [
        ("line 9", "unknown event type 'x'")
    ]


def test_pages_cover_every_dead_letter_once_newest_first(client: TestClient) -> None:
    set_aside(client)
    seen: list[dict[str, str]] = []
    cursor = None
    for _page in range(10):  # 7 letters, 2 a page: a cursor that does not advance fails here
        query = "/v1/dead-letters?limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(query, headers=auth("admin")).json()
        seen.extend(page["items"])
        cursor = page["next_cursor"]
        if cursor is None:
            break
    else:
        pytest.fail("the pages never ended")
    assert len(seen) == len({i["id"] for i in seen}) == 7
    times = [i["ts"] for i in seen]  # milliseconds; the order is on the stored microseconds
    assert times == sorted(times, reverse=True)


@pytest.mark.parametrize(
    ("query", "status"),
    [("limit=0", 422), ("limit=501", 422), ("cursor=not-ours", 400), ("since=yesterday", 422)],
)
def test_bad_parameters_are_problems(client: TestClient, query: str, status: int) -> None:
    response = client.get(f"/v1/dead-letters?{query}", headers=auth("admin"))
    assert response.status_code == status
    assert response.headers["content-type"].startswith("application/problem+json")
