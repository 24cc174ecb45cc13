"""The lobby's question, "may this player join a table at this blind level now?": a refusal
block answers `block` with its end at that level only, never blocks chat, and is lifted like
any restriction; blocks the rules apply from the stream answer the same way."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import orjson
import pytest
from fastapi.testclient import TestClient

from railbird.api.app import create_app
from railbird.ingest.decode import RawRecord
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth, store_as_scan_does
from tests.builders import iso


def join_check(client: TestClient, player: str, role: str = "lobby_service", **body: Any) -> Any:
    response = client.post(
        "/v1/tables/join-check", json={"player_id": player, **body}, headers=auth(role)
    )
    assert response.status_code == 200, response.text
    return response.json()


def block(client: TestClient, player: str, level: str, minutes: int = 30) -> dict[str, Any]:
    response = client.post(
        "/v1/restrictions",
        json={
            "player_id": player,
            "kind": "block_table_join",
            "blind_level": level,
            "duration_minutes": minutes,
            "reason": "hit and run, third time tonight",
        },
        headers=auth("analyst"),
    )
    assert response.status_code == 201, response.text
    body: dict[str, Any] = response.json()
    return body


def test_a_block_at_one_level_blocks_that_level_only_and_ends_with_its_expiry(
    client: TestClient,
) -> None:
    assert join_check(client, "p-hr", blind_level="50/100")["decision"] == "allow"
    applied = block(client, "p-hr", "50/100")
    assert applied["blind_level"] == "50/100" and applied["kind"] == "block_table_join"
    blocked = join_check(client, "p-hr", blind_level="50/100")
    assert blocked["decision"] == "block"
    assert blocked["blocked_until"] == applied["expires_at"]
    assert blocked["restriction"]["action_id"] == applied["action_id"]
    assert "50/100" in blocked["reasons"][0]
    # The same level given as blinds, or with a leading zero, is the same level.
    assert join_check(client, "p-hr", small_blind=50, big_blind=100)["decision"] == "block"
    assert join_check(client, "p-hr", blind_level="050/100")["decision"] == "block"
    assert join_check(client, "p-hr", blind_level="100/200")["decision"] == "allow"
    assert join_check(client, "p-other", blind_level="50/100")["decision"] == "allow"


def test_a_join_block_never_blocks_chat_and_a_mute_never_blocks_joins(
    client: TestClient,
) -> None:
    block(client, "p-hr", "1/2")
    checked = client.post(
        "/v1/chat/check", json={"player_id": "p-hr", "text": "gl all"}, headers=auth("chat_service")
    )
    assert checked.json()["decision"] == "allow"
    client.post(
        "/v1/restrictions",
        json={"player_id": "p-m", "kind": "mute_chat", "duration_minutes": 30, "reason": "abuse"},
        headers=auth("analyst"),
    )
    assert join_check(client, "p-m", blind_level="1/2")["decision"] == "allow"


def test_the_players_blocks_are_listed_and_lifted_like_any_restriction(client: TestClient) -> None:
    applied = block(client, "p-hr", "2/5")
    listed = client.get("/v1/restrictions?player_id=p-hr", headers=auth("chat_service")).json()
    assert [(r["kind"], r["blind_level"], r["active"]) for r in listed] == [
        ("block_table_join", "2/5", True)
    ]
    lifted = client.post(
        f"/v1/restrictions/{applied['action_id']}/lift",
        json={"reason": "left to catch a train"},
        headers=auth("analyst"),
    )
    assert lifted.status_code == 200 and lifted.json()["active"] is False
    assert join_check(client, "p-hr", blind_level="2/5")["decision"] == "allow"


def test_the_chat_service_may_ask_too_and_other_roles_may_not(client: TestClient) -> None:
    assert join_check(client, "p-1", role="chat_service", blind_level="1/2")["decision"] == "allow"
    for role in ("analyst", "investigator"):
        refused = client.post(
            "/v1/tables/join-check",
            json={"player_id": "p-1", "blind_level": "1/2"},
            headers=auth(role),
        )
        assert refused.status_code == 403, role
    lobby_on_chat = client.post(
        "/v1/chat/check", json={"player_id": "p-1", "text": "hi"}, headers=auth("lobby_service")
    )
    assert lobby_on_chat.status_code == 403, "the lobby's key only asks about joins"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"blind_level": "1/2", "big_blind": 2, "small_blind": 1},
        {"big_blind": 2},
        {"blind_level": "one/two"},
        {"blind_level": "1/2", "small_blind": True},
    ],
    ids=["no level", "both forms", "half the blinds", "not a level", "a boolean blind"],
)
def test_a_question_without_one_clear_level_is_a_422(
    client: TestClient, body: dict[str, Any]
) -> None:
    response = client.post(
        "/v1/tables/join-check", json={"player_id": "p-1", **body}, headers=auth("lobby_service")
    )
    assert response.status_code == 422, response.text


def test_an_analysts_join_block_names_its_level_and_only_a_join_block_has_one(
    client: TestClient,
) -> None:
    for body in (
        {"kind": "block_table_join"},
        {"kind": "mute_chat", "blind_level": "1/2"},
    ):
        response = client.post(
            "/v1/restrictions",
            json={"player_id": "p-1", "reason": "testing", "duration_minutes": 5, **body},
            headers=auth("analyst"),
        )
        assert response.status_code == 422, body


def _cash_session(
    player: str, join_at: datetime, hands: int, level: tuple[int, int]
) -> list[dict[str, Any]]:
    """`player` joins a cash table of `level` where two others sit, plays `hands`, leaves."""
    table = f"t-cash-{level[1]}"
    blinds = {"small_blind": level[0], "big_blind": level[1]}
    records: list[dict[str, Any]] = []

    def event(action: str, at: datetime, **fields: Any) -> None:
        records.append(
            {"type": "table", "event_id": f"e-{player}-{len(records)}-{at.timestamp()}",
             "ts": iso(at), "table_id": table, "tournament_id": None, "action": action, **fields}
        )  # fmt: skip

    for other in ("p-reg1", "p-reg2"):
        event("join", join_at - timedelta(minutes=1), player_id=other, **blinds)
    event("join", join_at, player_id=player, **blinds)
    for n in range(hands):
        ts = join_at + timedelta(seconds=30 + 60 * n)
        event(
            "hand_start",
            ts,
            hand_id=f"h-{table}-{ts.timestamp()}",
            players=[player, "p-reg1", "p-reg2"],
        )
    event("leave", join_at + timedelta(seconds=60 * hands + 30), player_id=player)
    for other in ("p-reg1", "p-reg2"):
        event("leave", join_at + timedelta(seconds=60 * hands + 40), player_id=other)
    return records


def test_blocks_the_rules_apply_from_the_stream_answer_the_join_check(tmp_path: Path) -> None:
    """Three refusals at 1/2 in the last hour (5 then 15 minutes blocked), one at 2/5."""
    now = datetime.now(UTC)
    records = [
        *_cash_session("p-hr", now - timedelta(minutes=40), 2, (1, 2)),
        *_cash_session("p-hr", now - timedelta(minutes=25), 3, (1, 2)),
        *_cash_session("p-hr", now - timedelta(minutes=10), 1, (1, 2)),
        *_cash_session("p-hr", now - timedelta(minutes=5), 4, (2, 5)),
    ]
    records.sort(key=lambda r: r["ts"])
    engine = make_engine(f"sqlite:///{tmp_path / 'api.db'}")
    migrate(engine)
    raw = [RawRecord("stream", f"line {n}", orjson.dumps(r)) for n, r in enumerate(records, 1)]
    store_as_scan_does(engine, raw)
    with TestClient(create_app(engine, KEYS)) as client:
        blocked = join_check(client, "p-hr", blind_level="1/2")
        assert blocked["decision"] == "block"
        until = datetime.fromisoformat(blocked["blocked_until"])
        assert until - (now - timedelta(minutes=10)) == pytest.approx(
            timedelta(minutes=15), abs=timedelta(minutes=2)
        )
        assert "refusal 3 in 12 h" in blocked["restriction"]["reason"]
        assert join_check(client, "p-hr", blind_level="2/5")["decision"] == "allow"  # first at 2/5
        listed = client.get("/v1/restrictions?player_id=p-hr&active=false", headers=auth("analyst"))
        assert sorted(r["blind_level"] for r in listed.json()) == ["1/2", "1/2"]
    engine.dispose()
