"""The console's page helpers and its role matrix, without a browser: highlighted chat is
escaped, a hand's timeline is in order, groups are ranked, and every page admits exactly the
roles of the API route it mirrors."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from railbird.api.app import create_app
from railbird.api.console.config import ConsoleConfig
from railbird.api.console.views import (
    bar_chart,
    collusion_groups,
    flags_by_day,
    hand_timeline,
    highlight,
    offending_terms,
)
from railbird.ingest.files.jsonl import read_jsonl
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, store_as_scan_does
from tests.console.conftest import FORM, ORIGIN, login_nonce, page_csrf, sign_in_client
from tests.paths import EXAMPLES

T0 = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)


def test_highlight_marks_the_offending_words_and_escapes_everything_else() -> None:
    out = str(highlight("<b>You</b> SHIT player, shit", ["shit"]))
    assert out == "&lt;b&gt;You&lt;/b&gt; <mark>SHIT</mark> player, <mark>shit</mark>"
    assert str(highlight("<script>x</script>", [])) == "&lt;script&gt;x&lt;/script&gt;"
    assert str(highlight("a <i>b</i>", ["<i>"])) == "a <mark>&lt;i&gt;</mark>b&lt;/i&gt;"


def test_offending_terms_come_from_the_evidence_longest_first() -> None:
    flag = {"evidence": {"measures": {"terms": ["find where you live", "live"], "count": 2}}}
    assert offending_terms(flag) == ["find where you live", "live"]
    assert offending_terms({"evidence": {"measures": {"talk": "JA"}}}) == ["JA"]
    assert offending_terms({"evidence": {}}) == []


def test_a_hand_timeline_orders_actions_and_messages_and_knows_who_folded_when() -> None:
    hand = {
        "hand_id": "h-1",
        "started_at": T0.isoformat(),
        "ended_at": (T0 + timedelta(seconds=60)).isoformat(),
        "small_blind": 50,
        "big_blind": 100,
        "seats": [{"seat": 1, "player_id": "p-1"}, {"seat": 2, "player_id": "p-2"}],
        "actions": [
            {"ts": (T0 + timedelta(seconds=5)).isoformat(), "street": "preflop",
             "player_id": "p-1", "action": "raise", "amount": 300, "to": 300},
            {"ts": (T0 + timedelta(seconds=9)).isoformat(), "street": "preflop",
             "player_id": "p-2", "action": "fold", "amount": 0},
        ],
        "board": [],
    }  # fmt: skip
    chat = [
        {"message_id": "m-1", "ts": (T0 + timedelta(seconds=20)).isoformat(),
         "player_id": "p-2", "channel": "table", "kind": "text", "text": "i had aces"},
        {"message_id": "m-0", "ts": (T0 - timedelta(seconds=20)).isoformat(),
         "player_id": "p-2", "channel": "table", "kind": "text", "text": "gl"},
    ]  # fmt: skip
    timeline = hand_timeline(hand, chat, {"m-1"})
    assert [s.what for s in timeline["steps"]] == ["raise 300", "fold", "table text: i had aces"]
    assert timeline["steps"][-1].flagged and timeline["steps"][-1].is_message
    folded = {s["player_id"]: s["folded_at"] for s in timeline["seats"]}
    assert folded == {"p-1": None, "p-2": T0 + timedelta(seconds=9)}
    assert timeline["blinds"] == "50/100"


def test_groups_are_ranked_by_their_best_flag_with_an_innocent_reading() -> None:
    def flag(category: str, players: list[str], score: float, **evidence: object) -> dict:
        return {
            "flag_id": f"f-{category}-{score}",
            "category": category,
            "player_ids": players,
            "score": score,
            "ts": T0.isoformat(),
            "evidence": {"event_ids": ["h-1", "e-2"], **evidence},
        }

    groups = collusion_groups(
        [
            flag("coordinated_sit_out", ["p-2", "p-1"], 0.5),
            flag("bounty_collusion", ["p-3", "p-4"], 0.9, target="p-9"),
            flag("coordinated_sit_out", ["p-1", "p-2"], 0.95),
            flag("profanity", ["p-5"], 1.0),
        ]
    )
    assert [(g["category"], g["players"], g["score"]) for g in groups] == [
        ("coordinated_sit_out", ("p-1", "p-2"), 0.95),
        ("bounty_collusion", ("p-3", "p-4"), 0.9),
    ]
    assert len(groups[0]["flags"]) == 2 and groups[1]["target"] == "p-9"
    assert all(g["innocent_reading"] for g in groups)


def test_the_players_chart_counts_flags_per_day_and_is_labelled() -> None:
    flags = [{"ts": (T0 - timedelta(days=d)).isoformat()} for d in (0, 0, 2)]
    series = flags_by_day(flags, days=3)
    assert series == [("2026-11-27", 1), ("2026-11-28", 0), ("2026-11-29", 2)]
    svg = str(bar_chart(series))
    assert svg.count("<rect") == 3 and 'role="img"' in svg and "most in a day: 2" in svg


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    path: Path = tmp_path_factory.mktemp("console") / "console.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    store_as_scan_does(engine, read_jsonl(EXAMPLES / "events.jsonl"))
    app = create_app(engine, KEYS, console_config=ConsoleConfig(origins=(ORIGIN,)))
    with TestClient(app, base_url=ORIGIN) as test_client:
        yield test_client
    engine.dispose()


def _signed_in(client: TestClient, role: str) -> bool:
    """Signed in, if the role has console pages (a service's key is refused at the door)."""
    key = next(k for k, r in KEYS.items() if r == role)
    answer = sign_in_client(client, key)
    if role in ("chat_service", "lobby_service", "reports"):
        assert answer.status_code == 403 and "has no console pages" in answer.text
        return False
    assert answer.status_code == 303
    return True


# Each page and who may open it: the roles of the API route it mirrors.
PAGES = {
    "/console/queue": {"analyst", "investigator", "admin"},
    "/console/collusion": {"analyst", "investigator", "admin"},
    "/console/policy": {"analyst", "investigator", "admin"},
    "/console/reports": {"analyst", "investigator", "admin"},
    "/console/sessions?player_id=p-1": {"investigator", "admin"},
    "/console/players/p-1": {"investigator", "admin"},
}


@pytest.mark.parametrize("role", sorted(set(KEYS.values())))
def test_every_page_admits_exactly_the_roles_of_its_api_route(
    client: TestClient, role: str
) -> None:
    client.cookies.clear()
    for page in PAGES:
        anonymous = client.get(page, follow_redirects=False)
        assert anonymous.status_code == 303 and "/console/login" in anonymous.headers["location"]
    if not _signed_in(client, role):
        for page in PAGES:  # no session was made: still sent to sign in
            assert client.get(page, follow_redirects=False).status_code == 303
        return
    for page, allowed in PAGES.items():
        answer = client.get(page, follow_redirects=False)
        assert answer.status_code == (200 if role in allowed else 403), (page, role)
        assert "default-src 'self'" in answer.headers["content-security-policy"]
    for form in ("/console/restrictions", "/console/policy/reload"):
        answer = client.post(form, data={"csrf": "x"}, headers=FORM, follow_redirects=False)
        may = role == "admin" or (role == "analyst" and form == "/console/restrictions")
        refused_for_role = answer.status_code == 403 and "may not do this" in answer.text
        assert refused_for_role != may, (form, role, answer.status_code, answer.text[:200])
        if may:  # past the role check, a form without fields or a valid token is still refused
            assert answer.status_code in (403, 422)


def test_a_wrong_key_is_refused_and_starts_no_session(client: TestClient) -> None:
    answer = sign_in_client(client, "not-a-key-0000000000")
    assert answer.status_code == 401 and "not known" in answer.text
    assert "railbird_console" not in answer.headers.get("set-cookie", "")


def test_sign_in_only_sends_the_analyst_back_into_the_console(client: TestClient) -> None:
    key = next(k for k, r in KEYS.items() if r == "analyst")
    for elsewhere in (
        "https://evil.example/",
        "//evil.example/console/",
        "/console/\\evil.example",
    ):
        client.cookies.clear()
        nonce = login_nonce(client)
        answer = client.post(
            "/console/login",
            data={"api_key": key, "login_csrf": nonce, "next": elsewhere},
            headers=FORM,
            follow_redirects=False,
        )
        assert answer.headers["location"] == "/console/queue", elsewhere


def test_an_analyst_applies_a_join_block_at_a_blind_level_from_the_console(
    client: TestClient,
) -> None:
    """The flag page's form: a join block needs its level (canonical, as the join check reads
    it); the lobby's check then refuses that level only."""
    _signed_in(client, "analyst")
    form = {
        "player_id": "p-hr-console",
        "kind": "block_table_join",
        "reason": "hit and run all evening",
        "duration_minutes": "30",
        "csrf": page_csrf(client),
        "next": "/console/queue",
    }
    for bad in ("", "0/0", "100/50"):
        refused = client.post(
            "/console/restrictions",
            data={**form, "blind_level": bad},
            headers=FORM,
            follow_redirects=False,
        )
        assert refused.status_code == 303
        assert "needs its blind level" in client.get("/console/queue").text, bad
    applied = client.post(
        "/console/restrictions",
        data={**form, "blind_level": "050/100"},
        headers=FORM,
        follow_redirects=False,
    )
    assert applied.status_code == 303
    assert "block_table_join at 50/100 applied to p-hr-console" in client.get("/console/queue").text
    lobby = {"X-API-Key": next(k for k, r in KEYS.items() if r == "lobby_service")}
    asked = client.post(
        "/v1/tables/join-check",
        json={"player_id": "p-hr-console", "blind_level": "50/100"},
        headers=lobby,
    )
    assert asked.json()["decision"] == "block"
    other = {"player_id": "p-hr-console", "blind_level": "100/200"}
    assert (
        client.post("/v1/tables/join-check", json=other, headers=lobby).json()["decision"]
        == "allow"
    )


def test_reports_are_shown_beside_flags_in_the_queue_the_flag_page_and_their_own_page(
    client: TestClient,
) -> None:
    filed = client.post(
        "/v1/reports",
        json={"reporter_id": "p-gus", "reported_id": "p-cat", "reason": "in_hand_influence",
              "message_ids": ["m-0002"], "note": "<b>leaked</b> his cards"},
        headers={"X-API-Key": next(k for k, r in KEYS.items() if r == "reports")},
    )  # fmt: skip
    assert filed.status_code == 201, filed.text
    flag_id = filed.json()["reports"][0]["flag_id"]
    assert _signed_in(client, "analyst")
    queue = client.get("/console/queue")
    row = next(r for r in queue.text.split("<tr") if f'data-flag-id="{flag_id}"' in r)
    assert "reported ×1" in row
    page = client.get(f"/console/flags/{flag_id}")
    assert 'id="reports-h"' in page.text and "p-gus" in page.text
    assert "&lt;b&gt;leaked&lt;/b&gt;" in page.text  # the note is escaped
    reports = client.get("/console/reports?reported_id=p-cat")
    assert reports.status_code == 200
    assert f'href="/console/flags/{flag_id}"' in reports.text
    assert "raised a detector&#39;s flag" in reports.text
