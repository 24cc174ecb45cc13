"""The chat check remembers across requests, and its restrictions stay current off the request
path: a flood or a bot wave is stopped before it is broadcast, and a mute written by the rules
(not through the API) reaches the check at its next incremental refresh."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from railbird.api.app import create_app
from railbird.api.restriction_cache import RestrictionCache
from railbird.api.restriction_store import lift_restriction
from railbird.rules.actions import Action
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreWriter
from tests.api.conftest import KEYS, auth

LINE = "join my private freeroll now, best bonus of the year for everyone here"


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    made = make_engine(f"sqlite:///{tmp_path / 'gate.db'}")
    migrate(made)
    return made


def _check(client: TestClient, player: str, text: str, **extra: str) -> dict[str, object]:
    response = client.post(
        "/v1/chat/check",
        json={"player_id": player, "text": text, **extra},
        headers=auth("chat_service"),
    )
    assert response.status_code == 200, response.text
    body: dict[str, object] = response.json()
    return body


def test_one_player_repeating_a_line_is_blocked_once_it_is_spam(engine: Engine) -> None:
    with TestClient(create_app(engine, KEYS)) as client:
        decisions = [_check(client, "p-1", "anyone up for a side game later")["decision"]]
        decisions += [
            _check(client, "p-1", "anyone up for a side game later")["decision"] for _ in range(7)
        ]
        other = _check(client, "p-2", "anyone up for a side game later")
    assert decisions[0] == "allow"
    assert "block" in decisions, decisions
    assert other["decision"] == "allow"  # another player's first time: not their flood


def test_a_bot_wave_across_players_is_blocked_before_it_spreads(engine: Engine) -> None:
    with TestClient(create_app(engine, KEYS)) as client:
        verdicts = [_check(client, f"bot-{i}", LINE, channel="lobby") for i in range(10)]
    assert verdicts[0]["decision"] == "allow"
    assert any(v["decision"] == "block" and "spam" in v["categories"] for v in verdicts)  # type: ignore[operator]


def _mute(player: str, minutes: int) -> Action:
    return Action(
        action_id=f"a-rules-{player}",
        kind="mute_chat",
        player_id=player,
        ts=datetime.now(UTC),
        reason="profanity (medium), strike 2",
        flag_ids=("f-x",),
        duration=timedelta(minutes=minutes),
    )


def test_a_mute_the_rules_stored_reaches_the_cache_incrementally_and_a_lift_removes_it(
    engine: Engine,
) -> None:
    cache = RestrictionCache(engine, refresh=0.05, full_every=3600)
    now = datetime.now(UTC)
    assert cache.for_player("p-9", now) == []
    full_at = cache._full_at
    StoreWriter(engine).write(actions=[_mute("p-9", 30)])
    cache.refresh_now()
    assert [r.kind for r in cache.for_player("p-9", datetime.now(UTC))] == ["mute_chat"]
    assert cache._full_at == full_at, "an incremental read, not a full reload"
    lift_restriction(engine, "a-rules-p-9", "key:test", "appeal upheld", datetime.now(UTC))
    cache.refresh_now()
    assert cache.for_player("p-9", datetime.now(UTC)) == []
    assert cache.age_seconds < 5 and cache.refresh_errors == 0


def test_the_background_refresh_keeps_the_check_current_without_a_request_reading(
    engine: Engine,
) -> None:
    app = create_app(engine, KEYS)
    app.state.chat_gate.restrictions.refresh = 0.05
    with TestClient(app) as client:
        assert _check(client, "p-7", "hello all")["decision"] == "allow"
        StoreWriter(engine).write(actions=[_mute("p-7", 10)])
        deadline = datetime.now(UTC) + timedelta(seconds=5)
        while datetime.now(UTC) < deadline:
            if app.state.chat_gate.restrictions.for_player("p-7", datetime.now(UTC)):
                break
        verdict = _check(client, "p-7", "hello again")
    assert verdict["decision"] == "block"
    assert "mute_chat" in str(verdict["reasons"])
