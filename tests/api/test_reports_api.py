"""Players' reports: stored once per (reporter, reported, message), sent to the flag a detector
already raised on the message (its priority up) or to a report case, weighed by unrelated
reporters, rate-limited per reporter with the refusals counted, and reviewed like any flag."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select

from railbird.store import schema
from tests.api.conftest import auth


def report(client: TestClient, role: str = "reports", **body: Any) -> Any:
    return client.post("/v1/reports", json=body, headers=auth(role))


def flag_of(client: TestClient, flag_id: str) -> dict[str, Any]:
    answer = client.get(f"/v1/flags/{flag_id}", headers=auth("analyst"))
    assert answer.status_code == 200, answer.text
    flag: dict[str, Any] = answer.json()
    return flag


def test_a_report_sent_twice_is_stored_once(client: TestClient) -> None:
    body = {"reporter_id": "p-dan", "reported_id": "p-ann", "reason": "harassment"}
    first = report(client, **body, message_ids=["m-0015"])
    again = report(client, **body, message_ids=["m-0015"])
    assert first.status_code == 201, first.text
    assert again.status_code == 200, again.text
    (filed,) = first.json()["reports"]
    (repeat,) = again.json()["reports"]
    assert not filed["duplicate"] and repeat["duplicate"]
    assert repeat["report_id"] == filed["report_id"] and repeat["flag_id"] == filed["flag_id"]
    stored = client.get("/v1/reports?reported_id=p-ann", headers=auth("analyst")).json()
    assert [r["report_id"] for r in stored["items"]] == [filed["report_id"]]
    # the same reporter on another message of the same player is a second report
    other = report(client, **body, message_ids=["m-0001"])
    assert other.status_code == 201 and not other.json()["reports"][0]["duplicate"]


def _queue_ids(client: TestClient, severity: str) -> list[str]:
    page = client.get(f"/v1/queue?severity={severity}&limit=500", headers=auth("analyst"))
    assert page.status_code == 200, page.text
    return [f["flag_id"] for f in page.json()["items"]]


def test_a_report_on_a_flagged_message_raises_that_flags_priority_not_a_new_row(
    client: TestClient,
) -> None:
    flags = client.get("/v1/flags?player_id=p-dan&limit=100", headers=auth("analyst")).json()
    on_message = [f for f in flags["items"] if "m-0003" in f["message_ids"]]
    assert on_message, "the example flags p-dan's m-0003"
    rank = ["low", "medium", "high", "critical"]
    worst = max(on_message, key=lambda f: rank.index(f["severity"]))
    severity = worst["severity"]
    before = _queue_ids(client, severity)
    answer = report(
        client, reporter_id="p-gus", reported_id="p-dan", reason="harassment",
        message_ids=["m-0003"],
    )  # fmt: skip
    (filed,) = answer.json()["reports"]
    assert filed["effect"] == "raised"
    flag_id = filed["flag_id"]
    assert flag_id == worst["flag_id"]  # the most severe flag citing the message
    assert flag_of(client, flag_id)["priority"] == 1
    after = _queue_ids(client, severity)
    assert after[0] == flag_id and len(after) == len(before)  # first of its severity, no row
    # p-cat messages p-gus privately (m-0017): the same group, the priority stays
    report(client, reporter_id="p-cat", reported_id="p-dan", reason="harassment",
           message_ids=["m-0003"])  # fmt: skip
    assert flag_of(client, flag_id)["priority"] == 1
    # a stranger: a second unrelated group
    report(client, reporter_id="p-zed", reported_id="p-dan", reason="harassment",
           message_ids=["m-0003"])  # fmt: skip
    assert flag_of(client, flag_id)["priority"] == 2
    reports = client.get(f"/v1/reports?flag_id={flag_id}", headers=auth("investigator")).json()
    assert {r["reporter_id"] for r in reports["items"]} == {"p-gus", "p-cat", "p-zed"}


def test_a_report_case_grows_more_severe_with_unrelated_reporters(client: TestClient) -> None:
    def file(reporter: str) -> dict[str, Any]:
        answer = report(client, reporter_id=reporter, reported_id="p-bob", reason="profanity",
                        message_ids=["m-0004"], table_id="t-1")  # fmt: skip
        assert answer.status_code == 201, answer.text
        filed: dict[str, Any] = answer.json()["reports"][0]
        return filed

    opened = file("p-eve")
    assert opened["effect"] == "opened"
    case = flag_of(client, opened["flag_id"])
    assert (case["detector"], case["category"], case["severity"]) == (
        "player_reports",
        "profanity",
        "low",
    )
    assert case["player_ids"] == ["p-bob"] and case["message_ids"] == ["m-0004"]
    assert case["status"] == "open"
    joined = file("p-fay")  # p-eve messaged p-fay privately (m-0018): one group
    assert joined == {**joined, "effect": "joined", "flag_id": opened["flag_id"]}
    assert flag_of(client, opened["flag_id"])["severity"] == "low"
    file("p-hal")
    assert flag_of(client, opened["flag_id"])["severity"] == "medium"
    file("p-gus")
    case = flag_of(client, opened["flag_id"])
    assert case["severity"] == "high" and case["priority"] == 3
    assert case["evidence"]["measures"] == {"reports": 4, "reporters": 4, "unrelated_groups": 3}
    assert "4 players (3 unrelated groups)" in case["explanation"]


def test_an_analysts_decision_on_a_report_case_is_audited_and_a_new_report_opens_another(
    client: TestClient,
) -> None:
    opened = report(client, reporter_id="p-hal", reported_id="p-gus", reason="spam")
    case_id = opened.json()["reports"][0]["flag_id"]
    decision = client.post(
        f"/v1/flags/{case_id}/review",
        json={"decision": "dismiss", "note": "nothing in the chat log", "version": 0},
        headers=auth("analyst"),
    )
    assert decision.status_code == 200, decision.text
    history = client.get(f"/v1/flags/{case_id}/reviews", headers=auth("analyst")).json()
    assert [h["decision"] for h in history] == ["dismiss"]
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        audited = conn.execute(
            select(schema.audit_log.c.action).where(schema.audit_log.c.target == case_id)
        ).all()
    assert [a for (a,) in audited] == ["flag.dismiss"]
    again = report(client, reporter_id="p-ann", reported_id="p-gus", reason="spam")
    assert again.json()["reports"][0]["effect"] == "opened"
    assert again.json()["reports"][0]["flag_id"] != case_id


def test_one_reporter_filing_too_many_is_refused_and_counted(client: TestClient) -> None:
    for n in range(20):
        answer = report(client, reporter_id="p-angry", reported_id=f"p-v{n}", reason="hate")
        assert answer.status_code == 201, answer.text
    refused = report(client, reporter_id="p-angry", reported_id="p-v99", reason="hate")
    assert refused.status_code == 429
    assert refused.headers["content-type"] == "application/problem+json"
    assert 1 <= int(refused.headers["retry-after"]) <= 3600
    assert "20 reports in the last hour" in refused.json()["detail"]
    report(client, reporter_id="p-angry", reported_id="p-v98", reason="hate")
    counted = client.get("/v1/reports/refused", headers=auth("analyst")).json()
    assert [(r["reporter_id"], r["refused"]) for r in counted] == [("p-angry", 2)]
    # mass reporting is abuse too: a case on the reporter, once however many are refused
    spam = client.get("/v1/flags?player_id=p-angry", headers=auth("analyst")).json()["items"]
    assert [(f["category"], f["evidence"]["kind"]) for f in spam] == [("spam", "mass_reporting")]
    assert spam[0]["evidence"]["measures"]["refused_reports"] == 2
    # a duplicate of a stored report is not a new report: answered, never refused
    again = report(client, reporter_id="p-angry", reported_id="p-v0", reason="hate")
    assert again.status_code == 200 and again.json()["reports"][0]["duplicate"]
    # other reporters are not limited by this one
    assert (
        report(client, reporter_id="p-calm", reported_id="p-v0", reason="hate").status_code == 201
    )


def test_a_report_must_be_about_the_reported_players_own_message(client: TestClient) -> None:
    wrong = report(
        client,
        reporter_id="p-ann",
        reported_id="p-bob",
        reason="harassment",
        message_ids=["m-0002"],
    )  # fmt: skip  (m-0002 is p-cat's)
    assert wrong.status_code == 422
    assert "sent by another player" in wrong.json()["detail"]
    itself = report(client, reporter_id="p-ann", reported_id="p-ann", reason="harassment")
    assert itself.status_code == 422
    unknown = report(client, reporter_id="p-ann", reported_id="p-bob", reason="refusal_to_play")
    assert unknown.status_code == 422 and "unknown reason" in unknown.text


def test_the_reporters_words_are_stored_redacted(client: TestClient) -> None:
    note = "he keeps asking, mail me at ann.smith@example.com or call +44 7700 900123"
    answer = report(client, reporter_id="p-ann", reported_id="p-dan",
                    reason="pii_solicitation", note=note)  # fmt: skip
    assert answer.status_code == 201
    (stored,) = client.get(
        "/v1/reports?reporter_id=p-ann&reported_id=p-dan", headers=auth("analyst")
    ).json()["items"]
    assert "example.com" not in stored["note"] and "7700" not in stored["note"]
    assert "he keeps asking" in stored["note"]


def test_roles(client: TestClient) -> None:
    body = {"reporter_id": "p-ann", "reported_id": "p-eve", "reason": "impersonation"}
    assert report(client, "reports", **body).status_code == 201
    assert report(client, "chat_service", **body).status_code == 200  # the same report
    assert report(client, "admin", **body).status_code == 200
    for role in ("analyst", "investigator", "lobby_service"):
        assert report(client, role, **body).status_code == 403
    for role in ("reports", "chat_service", "lobby_service"):
        assert client.get("/v1/reports", headers=auth(role)).status_code == 403
        assert client.get("/v1/reports/refused", headers=auth(role)).status_code == 403
    assert client.get("/v1/flags", headers=auth("reports")).status_code == 403
    assert client.post("/v1/reports", json=body).status_code == 401
