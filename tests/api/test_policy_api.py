"""`GET /v1/policy`, `POST /v1/policy/reload`, and the new restriction kinds in the chat check."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from railbird.api.app import create_app
from railbird.rules.policy_file import default_policy_text
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    made = make_engine(f"sqlite:///{tmp_path / 'p.db'}")
    migrate(made)
    return made


def test_the_policy_is_shown_to_readers_and_reloaded_by_admins_only(
    engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(default_policy_text())
    with TestClient(create_app(engine, KEYS, policy_path=path)) as client:
        shown = client.get("/v1/policy", headers=auth("analyst"))
        assert shown.status_code == 200
        assert shown.json()["version"] == "2026-12-03.1"
        assert shown.json()["policy"]["ladders"]["profanity"][0] == {
            "kind": "warn",
            "minutes": None,
        }
        assert client.get("/v1/policy", headers=auth("chat_service")).status_code == 403
        assert client.post("/v1/policy/reload", headers=auth("analyst")).status_code == 403
        path.write_text(default_policy_text().replace("[ladders.spam]", "[ladders.spamm]"))
        bad = client.post("/v1/policy/reload", headers=auth("admin"))
        assert bad.status_code == 422 and "line" in bad.json()["detail"]
        assert client.get("/v1/policy", headers=auth("analyst")).json()["version"] == "2026-12-03.1"
        path.write_text(default_policy_text().replace("2026-12-03.1", "v2"))
        good = client.post("/v1/policy/reload", headers=auth("admin"))
        assert good.status_code == 200 and good.json()["version"] == "v2"


@pytest.mark.parametrize(
    ("kind", "blocked"),
    [
        ("chat_ban", {"text", "emoji"}),
        ("snapcam_ban", {"snapcam"}),
        ("mute_chat", {"text", "emoji"}),
        ("suspend_communication", {"text", "emoji", "snapcam"}),
    ],
)
def test_each_restriction_kind_blocks_what_it_names(
    engine: Engine, kind: str, blocked: set[str]
) -> None:
    with TestClient(create_app(engine, KEYS)) as client:
        applied = client.post(
            "/v1/restrictions",
            json={"player_id": "p-5", "kind": kind, "reason": "policy test"},
            headers=auth("analyst"),
        )
        assert applied.status_code == 201, applied.text
        decisions = {
            message: client.post(
                "/v1/chat/check",
                json={
                    "player_id": "p-5",
                    "kind": message,
                    "text": "hi" if message != "snapcam" else "",
                },
                headers=auth("chat_service"),
            ).json()["decision"]
            for message in ("text", "emoji", "snapcam")
        }
    assert {m for m, d in decisions.items() if d == "block"} == blocked
