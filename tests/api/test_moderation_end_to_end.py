"""A simulated hour through `scan --store`'s path and then the API, as an analyst meets it:
escalating mutes for a repeat abuser, a SnapCam ban for SnapCam misuse, a suspension for a
hole-card leak, referrals for a colluding group; a dismissal lifts its mute; the chat check
blocks a muted player until the mute ends."""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import orjson
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from railbird.api.app import create_app
from railbird.ingest.decode import RawRecord
from railbird.rules.actions import Action
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from railbird.store import schema
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreWriter
from tests.api.conftest import KEYS, auth, store_as_scan_does


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    engine = make_engine(f"sqlite:///{tmp_path_factory.mktemp('e2e') / 'e2e.db'}")
    migrate(engine)
    start = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=65)
    config = SimConfig(
        seed=5,
        tournaments=1,
        cash_tables=2,
        hours=1.0,
        players_per_tournament=45,
        violation_scale=3.0,
        start=start,
    )
    records = (
        RawRecord("sim", f"event {n}", orjson.dumps(record))
        for n, (kind, record) in enumerate(simulate(config))
        if kind == "event"
    )
    store_as_scan_does(engine, records)
    with TestClient(create_app(engine, KEYS)) as test_client:
        yield test_client
    engine.dispose()


def _actions(client: TestClient) -> list[dict[str, object]]:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    with engine.connect() as conn:
        return [dict(r) for r in conn.execute(select(schema.actions)).mappings()]


def test_the_day_earns_each_kind_of_action_the_house_rules_name(client: TestClient) -> None:
    actions = _actions(client)
    mutes_by_player: dict[str, list[str]] = defaultdict(list)
    for a in actions:
        if a["kind"] == "mute_chat":
            mutes_by_player[str(a["player_id"])].append(str(a["reason"]))
    assert any(
        any("strike 2" in r or "strike 3" in r for r in reasons) and len(reasons) >= 2
        for reasons in mutes_by_player.values()
    ), "a repeat abuser's mutes should climb"
    assert any(a["kind"] == "snapcam_ban" and "by SnapCam" in str(a["reason"]) for a in actions)
    assert any(
        a["kind"] == "suspend_communication" and str(a["reason"]).startswith("in_hand_influence")
        for a in actions
    )
    collusion = ("coordinated_sit_out", "bounty_collusion", "chip_dumping", "soft_play")
    referrals = [a for a in actions if a["kind"] == "refer_investigator"]
    assert any(str(a["reason"]).startswith(collusion) for a in referrals)
    assert all(
        a["kind"] == "refer_investigator" for a in actions if str(a["reason"]).startswith(collusion)
    ), "collusion is referred, never punished automatically"


def _say(client: TestClient, player: str) -> str:
    verdict = client.post(
        "/v1/chat/check",
        json={"player_id": player, "text": "nice hand"},
        headers=auth("chat_service"),
    )
    return str(verdict.json()["decision"])


def test_an_analyst_dismisses_a_flag_and_its_mute_is_lifted(client: TestClient) -> None:
    now = datetime.now(UTC)
    active = [
        a
        for a in _actions(client)
        if a["kind"] == "mute_chat"
        and a["lifted_at"] is None
        and a["expires_at"] is not None
        and a["expires_at"].replace(tzinfo=UTC) > now  # type: ignore[attr-defined]
    ]
    assert active, "the simulated hour should end with someone muted"
    mute = active[0]
    player, (flag_id,) = str(mute["player_id"]), mute["flag_ids"]  # type: ignore[misc]
    client.app.state.chat_gate.restrictions.refresh_now()  # type: ignore[attr-defined]
    assert _say(client, player) == "block"
    flag = client.get(f"/v1/flags/{flag_id}", headers=auth("analyst")).json()
    done = client.post(
        f"/v1/flags/{flag_id}/review",
        json={"decision": "dismiss", "note": "banter", "version": flag["review_version"]},
        headers=auth("analyst"),
    )
    assert done.status_code == 200, done.text
    assert mute["action_id"] in done.json()["lifted_action_ids"]
    still = [
        a
        for a in _actions(client)
        if a["player_id"] == player
        and a["kind"] in ("mute_chat", "chat_ban", "suspend_communication")
        and a["lifted_at"] is None
        and (a["expires_at"] is None or a["expires_at"].replace(tzinfo=UTC) > now)  # type: ignore[attr-defined]
    ]
    assert _say(client, player) == ("block" if still else "allow")


def test_the_chat_check_blocks_a_muted_player_until_the_mute_ends(client: TestClient) -> None:
    engine = client.app.state.engine  # type: ignore[attr-defined]
    short = Action(
        action_id="a-short-mute",
        kind="mute_chat",
        player_id="p-short",
        ts=datetime.now(UTC),
        reason="test",
        flag_ids=(),
        duration=timedelta(seconds=2),
    )
    StoreWriter(engine).write(actions=[short])
    client.app.state.chat_gate.restrictions.refresh_now()  # type: ignore[attr-defined]
    assert _say(client, "p-short") == "block"
    time.sleep(2.2)
    assert _say(client, "p-short") == "allow"
