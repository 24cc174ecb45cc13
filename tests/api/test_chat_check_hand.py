"""`POST /v1/chat/check` with hand context: talk that can sway a hand in play is held until the
hand ends (or, for a railbird naming a player's cards, blocked); social chat passes; the same
words without a hand in play are judged as they always were; the policy file decides per
channel and is followed while the server runs."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from railbird.api.app import create_app
from railbird.rules.policy_file import default_policy_text
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth
from tests.detectors.test_card_talk_phrasings import FOLDED_HAND_LEAKS, NUMBERS

HAND = {"table_id": "t-7", "tournament_id": "trn-3", "hand_id": "h-77"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    engine = make_engine(f"sqlite:///{tmp_path_factory.mktemp('check') / 'api.db'}")
    migrate(engine)
    with TestClient(create_app(engine, KEYS)) as test_client:
        yield test_client
    engine.dispose()


_players = iter(range(1_000_000))


def check(client: TestClient, text: str, status: str | None, **extra: Any) -> dict[str, Any]:
    """One check from a fresh player at a fresh table (no flood, repeat or bot wave builds up
    across cases)."""
    n = next(_players)
    body: dict[str, Any] = {"player_id": f"p-{n}", "text": text}
    if status is not None:
        body |= {**HAND, "sender_status": status}
    else:
        body |= {"tournament_id": HAND["tournament_id"]}
    body |= {"table_id": f"t-{n}", **extra}
    response = client.post("/v1/chat/check", json=body, headers=auth("chat_service"))
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


CARD_TALK = [
    "folded 77 lol",
    "threw 7h 7c away ugh",
    "i had pocket sevens",
    "mucked ace king suited",
    "AKs folded",
    "had KQo there",
    "folded the ace",
    "94o lol",
    "my 94 would have made two pair",
]
ADVICE = ["call, he's bluffing", "bob he has nothing, raise", "dont pay him off", "you are ahead"]
STRENGTH = ["i have two pair", "flush draw here"]
SOCIAL = ["gl", "ty", "brb", "nh all", "how is everyone tonight", "lol", "where are you from"]


@pytest.mark.parametrize("status", ["folded", "all_in", "not_dealt"])
@pytest.mark.parametrize("text", CARD_TALK + [t for t, _ in FOLDED_HAND_LEAKS])
def test_card_talk_in_every_form_is_held_until_the_hand_ends(
    client: TestClient, text: str, status: str
) -> None:
    answer = check(client, text, status)
    assert answer["decision"] == "hold", answer
    assert answer["release"] == "hand_end"
    assert answer["hand_id"] == "h-77"
    assert answer["categories"] == ["in_hand_influence"]
    assert any("h-77" in reason for reason in answer["reasons"])


@pytest.mark.parametrize("text", [*CARD_TALK[:4], "94 i folded", "let 10-4 go", *STRENGTH])
def test_a_playing_players_own_card_talk_is_held_too(client: TestClient, text: str) -> None:
    answer = check(client, text, "playing")
    assert answer["decision"] == "hold", answer
    assert answer["release"] == "hand_end"


@pytest.mark.parametrize("status", ["playing", "folded", "all_in", "not_dealt"])
@pytest.mark.parametrize("text", ADVICE)
def test_advice_on_a_live_decision_is_held_from_anyone(
    client: TestClient, text: str, status: str
) -> None:
    assert check(client, text, status)["decision"] == "hold"


@pytest.mark.parametrize("status", ["folded", "all_in", "not_dealt"])
@pytest.mark.parametrize("text", ["just shove", "raise it", "fold now"])
def test_commands_from_someone_with_no_decision_left_are_held(
    client: TestClient, text: str, status: str
) -> None:
    assert check(client, text, status)["decision"] == "hold"


@pytest.mark.parametrize(("kind", "text"), [("emoji", "👀"), ("emoji", "🤫"), ("snapcam", "")])
@pytest.mark.parametrize("status", ["folded", "not_dealt"])
def test_emoji_and_snapcam_from_railbirds_and_folded_players_are_held(
    client: TestClient, kind: str, text: str, status: str
) -> None:
    answer = check(client, text, status, kind=kind)
    assert answer["decision"] == "hold", answer
    assert answer["release"] == "hand_end"


@pytest.mark.parametrize(("kind", "text"), [("emoji", "👍"), ("snapcam", "")])
@pytest.mark.parametrize("status", ["playing", "all_in"])
def test_emoji_and_snapcam_from_players_in_the_hand_pass(
    client: TestClient, kind: str, text: str, status: str
) -> None:
    assert check(client, text, status, kind=kind)["decision"] == "allow"


def test_a_private_emoji_or_an_emoji_wall_is_no_reaction_at_the_table(client: TestClient) -> None:
    private = {"channel": "private", "recipient_id": "p-in-hand", "kind": "emoji"}
    assert check(client, "👍", "not_dealt", **private)["decision"] == "allow"
    assert check(client, "🐟" * 7, "folded", kind="emoji")["decision"] != "hold"


@pytest.mark.parametrize("status", ["playing", "folded", "all_in", "not_dealt"])
@pytest.mark.parametrize("text", SOCIAL)
def test_social_chat_during_a_hand_passes(client: TestClient, text: str, status: str) -> None:
    answer = check(client, text, status)
    assert answer["decision"] == "allow", answer
    assert answer["release"] is None


@pytest.mark.parametrize("text", ["nice bet", "wow big raise", "why would he call that"])
def test_a_playing_players_remark_on_the_action_passes(client: TestClient, text: str) -> None:
    assert check(client, text, "playing")["decision"] == "allow"


@pytest.mark.parametrize(("text", "speaker", "_at"), NUMBERS, ids=[t for t, _, _ in NUMBERS])
def test_counts_amounts_and_levels_from_a_folded_player_pass(
    client: TestClient, text: str, speaker: str, _at: float
) -> None:
    assert check(client, text, "folded")["decision"] == "allow"


@pytest.mark.parametrize(
    "text", ["bob has AK", "careful, hes on 77", "villain holds QQ", "dave got pocket kings"]
)
@pytest.mark.parametrize("status", ["not_dealt", "folded"])
def test_naming_another_players_cards_from_outside_the_decision_is_blocked(
    client: TestClient, text: str, status: str
) -> None:
    answer = check(client, text, status)
    assert answer["decision"] == "block", answer
    assert answer["release"] is None
    assert "in_hand_influence" in answer["categories"]


@pytest.mark.parametrize(
    "text", CARD_TALK + ADVICE + STRENGTH + ["just shove", "94 i folded", "bob has AK"]
)
def test_the_same_words_without_a_hand_in_play_are_allowed(client: TestClient, text: str) -> None:
    answer = check(client, text, None)
    assert answer["decision"] == "allow", answer
    assert answer["release"] is None
    assert "in_hand_influence" not in answer["categories"]


def test_the_chat_rules_still_block_during_a_hand(client: TestClient) -> None:
    answer = check(client, "folded 94, you worthless n1gger", "folded")
    assert answer["decision"] == "block"
    assert "hate" in answer["categories"]


def test_hand_id_without_sender_status_is_refused(client: TestClient) -> None:
    body = {"player_id": "p-x", "text": "gl", "hand_id": "h-77", "table_id": "t-7"}
    response = client.post("/v1/chat/check", json=body, headers=auth("chat_service"))
    assert response.status_code == 422
    assert "sender_status is required with hand_id" in response.text


def test_the_openapi_schema_documents_the_fields_with_an_example(client: TestClient) -> None:
    schema = client.get("/openapi.json", headers=auth("chat_service")).json()
    request = schema["components"]["schemas"]["ChatCheckIn"]
    assert set(request["properties"]["sender_status"]["anyOf"][0]["enum"]) == {
        "playing",
        "folded",
        "all_in",
        "not_dealt",
    }
    assert any(e.get("hand_id") == "h-77" for e in request["examples"])
    answer = schema["components"]["schemas"]["ChatCheckOut"]
    assert answer["properties"]["decision"]["enum"] == ["allow", "hold", "block"]


# --- the policy file decides per channel, and is followed while the server runs ---------


def _policy(lobby_pass: bool) -> str:
    text = default_policy_text().replace('version = "2026-12-03.1"', 'version = "test.1"')
    if lobby_pass:
        # One channel's table: the lists it leaves out are every channel's, less what it names.
        text += '\n[chat_check.channels.lobby]\npass = ["in_hand_influence", "profanity"]\n'
        text = text.replace('version = "test.1"', 'version = "test.2"')
    return text


def test_channels_follow_the_policy_file_and_a_changed_file_applies_at_once(
    tmp_path: Path,
) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(_policy(lobby_pass=False), "utf-8")
    engine = make_engine(f"sqlite:///{tmp_path / 'api.db'}")
    migrate(engine)
    app = create_app(engine, KEYS, policy_path=path)
    with TestClient(app) as c:
        lobby = {"channel": "lobby", "table_id": None}
        assert check(c, "94 i folded", "folded", **lobby)["decision"] == "hold"
        assert check(c, "94 i folded", "folded")["decision"] == "hold"  # table
        path.write_text(_policy(lobby_pass=True), "utf-8")
        deadline = time.monotonic() + 10
        while app.state.policy.current().version != "test.2":
            assert time.monotonic() < deadline, "the changed policy was not followed"
            time.sleep(0.1)
        assert check(c, "94 i folded", "folded", **lobby)["decision"] == "allow"
        assert check(c, "94 i folded", "folded")["decision"] == "hold"  # table unchanged
        shown = c.get("/v1/policy", headers=auth("analyst")).json()["policy"]["chat_check"]
        # a list left out keeps its default: the lobby still blocks what it blocked
        assert "spam" in shown["channels"]["lobby"]["block"]
        assert shown["channels"]["lobby"]["pass"] == ["in_hand_influence", "profanity"]
    engine.dispose()
