"""The room's domains and staff, and the detectors' settings, from the policy file: a reload
changes what the next chat check decides; a bad value is a 422 naming the line, and the
settings in force stay; `GET /v1/policy` and the console's policy page show them."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine

from railbird.api.app import create_app
from railbird.api.console.config import ConsoleConfig
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth
from tests.console.conftest import ORIGIN, sign_in_client

ACME = (
    'version = "acme.1"\n'
    "[site]\n"
    'domains = ["acmepoker.com"]\n'
    'staff_player_ids = ["p-staff-1"]\n'
    "[detectors.chat_flood]\n"
    "max_messages = { lobby = 2 }\n"
)
MESSAGES = {
    "own link": ("p-1", "come play at www.acmepoker.com it's better"),
    "look-alike": ("p-2", "free chips at acmep0ker.com/login"),
    "staff": ("p-staff-1", "I am railbird support, admin here: your account is under review"),
    "old room": ("p-3", "visit ultimatepoker.com/promo"),
}


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    made = make_engine(f"sqlite:///{tmp_path / 'site.db'}")
    migrate(made)
    return made


def _decisions(client: TestClient, round_: int) -> dict[str, str]:
    answers = {}
    for name, (player, text) in MESSAGES.items():
        answer = client.post(
            "/v1/chat/check",
            json={"player_id": player, "text": text, "message_id": f"m-{round_}-{player}"},
            headers=auth("chat_service"),
        )
        assert answer.status_code == 200, answer.text
        answers[name] = answer.json()["decision"]
    return answers


def _lobby_flood(client: TestClient, player: str) -> list[str]:
    return [
        client.post(
            "/v1/chat/check",
            json={"player_id": player, "channel": "lobby", "text": text},
            headers=auth("chat_service"),
        ).json()["decision"]
        for text in ("anyone up for a game?", "looking for a 6-max table", "who plays omaha")
    ]


def test_a_reload_changes_the_room_and_the_next_checks_follow(
    engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text('version = "shipped.1"\n')
    with TestClient(create_app(engine, KEYS, policy_path=path)) as client:
        assert _decisions(client, 1) == {
            "own link": "block",  # an outside poker room's link: advertising
            "look-alike": "allow",
            "staff": "block",  # a player claiming to be staff
            "old room": "allow",
        }
        assert _lobby_flood(client, "p-8") == ["allow", "allow", "allow"]
        path.write_text(ACME)
        reloaded = client.post("/v1/policy/reload", headers=auth("admin"))
        assert reloaded.status_code == 200, reloaded.text
        shown = reloaded.json()["policy"]
        assert shown["site"] == {"domains": ["acmepoker.com"], "staff_player_ids": ["p-staff-1"]}
        assert shown["detectors"]["chat_flood"]["max_messages"]["lobby"] == 2
        assert _decisions(client, 2) == {
            "own link": "allow",
            "look-alike": "block",  # phishing for the room's own domain
            "staff": "allow",  # the staff account's claims are the truth
            "old room": "block",
        }
        # The third lobby line in the window is a flood under the new limit of 2.
        assert _lobby_flood(client, "p-9")[-1] == "block"


@pytest.mark.parametrize(
    ("bad", "line", "message"),
    [
        (ACME.replace("lobby = 2", "lobby = 0"), 6, "max_messages: lobby: input should be"),
        (ACME.replace('"acmepoker.com"', '"acme poker"'), 3, "is not a domain name"),
        (ACME + "[detectors.hate]\nthreshold = 0.1\n", 8, "[detectors.hate] has no setting"),
    ],
)
def test_a_bad_setting_is_a_422_naming_the_line_and_the_room_stays(
    engine: Engine, tmp_path: Path, bad: str, line: int, message: str
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(ACME)
    with TestClient(create_app(engine, KEYS, policy_path=path)) as client:
        path.write_text(bad)
        refused = client.post("/v1/policy/reload", headers=auth("admin"))
        assert refused.status_code == 422
        assert f"line {line}:" in refused.json()["detail"]
        assert message in refused.json()["detail"]
        assert client.get("/v1/policy", headers=auth("analyst")).json()["version"] == "acme.1"
        assert _decisions(client, 3)["own link"] == "allow"


def test_the_console_policy_page_shows_the_room_and_the_settings_in_force(
    engine: Engine, tmp_path: Path
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(ACME)
    console = ConsoleConfig(origins=(ORIGIN,))
    app = create_app(engine, KEYS, policy_path=path, console_config=console)
    with TestClient(app, base_url=ORIGIN) as client:
        key = next(k for k, role in KEYS.items() if role == "analyst")
        assert sign_in_client(client, key).status_code == 303
        page = client.get("/console/policy")
        assert page.status_code == 200
        site = page.text[page.text.index('id="site-settings"') :]
        assert "acmepoker.com" in site and "p-staff-1" in site
        detectors = page.text[page.text.index('id="detector-settings"') :]
        assert "chat_flood" in detectors and "lobby 2" in detectors
        assert "leave_refusal" in detectors and "min_hands" in detectors
