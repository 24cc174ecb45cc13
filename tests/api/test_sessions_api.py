"""Investigators' sessions: a player's stretches at tables, one in full, and its export."""

from __future__ import annotations

import csv
import io

from fastapi.testclient import TestClient

from tests.api.conftest import auth


def _a_flagged_session(client: TestClient) -> dict[str, object]:
    flags = client.get("/v1/flags", params={"limit": 200}, headers=auth("admin")).json()["items"]
    for flag in flags:
        if not flag["table_id"]:
            continue
        for player in flag["player_ids"]:
            found = client.get(
                "/v1/sessions",
                params={"player_id": player, "table_id": flag["table_id"]},
                headers=auth("investigator"),
            ).json()
            with_flag = [s for s in found if flag["flag_id"] in s["flags"]]
            if with_flag:
                return with_flag[0]
    raise AssertionError("no flag of the example stream falls in a session")


def test_a_players_sessions_hold_their_flags_and_the_full_session_reads_back(
    client: TestClient,
) -> None:
    session = _a_flagged_session(client)
    assert session["hands"] >= 1 and session["start"] <= session["end"]
    detail = client.get(f"/v1/sessions/{session['session_id']}", headers=auth("investigator"))
    assert detail.status_code == 200, detail.text
    body = detail.json()
    assert body["hands"] and all(h["table_id"] == session["table_id"] for h in body["hands"])
    assert "hole_cards" in str(body["hands"][0]["body"]) or "seats" in body["hands"][0]["body"]
    assert {f["flag_id"] for f in body["flags"]} >= set(session["flags"])  # type: ignore[arg-type]
    times = [m["ts"] for m in body["chat"]]
    assert times == sorted(times)


def test_a_session_exports_as_csv_and_json(client: TestClient) -> None:
    session = _a_flagged_session(client)
    path = f"/v1/sessions/{session['session_id']}/export"
    as_csv = client.get(path, params={"format": "csv"}, headers=auth("investigator"))
    assert as_csv.status_code == 200 and as_csv.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(as_csv.text)))
    assert rows[0] == ["kind", "ts", "who", "what"]
    kinds = {r[0] for r in rows[1:]}
    assert {"hand", "flag"} <= kinds
    as_json = client.get(path, headers=auth("investigator"))
    assert as_json.status_code == 200 and as_json.json()["session_id"] == session["session_id"]
    assert "attachment" in as_json.headers["content-disposition"]


def test_sessions_are_for_investigators_and_ids_are_checked(client: TestClient) -> None:
    assert client.get("/v1/sessions?player_id=p-1", headers=auth("analyst")).status_code == 403
    assert client.get("/v1/sessions?player_id=p-1", headers=auth("chat_service")).status_code == 403
    assert client.get("/v1/sessions", headers=auth("investigator")).status_code == 400
    assert client.get("/v1/sessions/s-bogus", headers=auth("investigator")).status_code == 404
    assert client.get("/v1/sessions/nope", headers=auth("admin")).status_code == 404


def test_export_cells_cannot_run_as_spreadsheet_formulas() -> None:
    from railbird.api.routes_sessions import _cell

    assert _cell('=HYPERLINK("http://x")') == '\'=HYPERLINK("http://x")'
    assert _cell("+1") == "'+1" and _cell("@SUM(A1)") == "'@SUM(A1)"
    assert _cell("nice hand") == "nice hand"
