"""The outbox of restriction changes: written in the change's own transaction by the API's
apply, lift and dismissal, and by the expiry sweep, once per change."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, update
from sqlalchemy.exc import IntegrityError

from railbird.api.app import create_app
from railbird.api.restriction_store import apply_restriction
from railbird.api.review_queries import RULES_ACTOR
from railbird.detectors.findings import Evidence, Finding
from railbird.rules.actions import Action, action_id_for
from railbird.rules.flags import Flag
from railbird.store import schema
from railbird.store.database import make_engine, migrate
from railbird.store.outbox import mark_sent, pending, sweep_expired
from railbird.store.writer import StoreWriter
from tests.api.conftest import KEYS, auth


@pytest.fixture
def engine(tmp_path: Path) -> Iterator[Engine]:
    created = make_engine(f"sqlite:///{tmp_path / 'outbox.db'}")
    migrate(created)
    yield created
    created.dispose()


@pytest.fixture
def client(engine: Engine) -> Iterator[TestClient]:
    with TestClient(create_app(engine, KEYS)) as test_client:
        yield test_client


def _changes(engine: Engine) -> list[tuple[str, str]]:
    o = schema.action_outbox.c
    with engine.connect() as conn:
        return [(r[0], r[1]) for r in conn.execute(select(o.action_id, o.change).order_by(o.seq))]


def test_a_manual_mute_and_its_lift_are_each_written_once_with_the_state_after_them(
    client: TestClient, engine: Engine
) -> None:
    body = {"player_id": "p-7", "kind": "mute_chat", "duration_minutes": 30, "reason": "abuse"}
    applied = client.post("/v1/restrictions", json=body, headers=auth("analyst"))
    assert applied.status_code == 201, applied.text
    action_id = applied.json()["action_id"]
    lifted = client.post(
        f"/v1/restrictions/{action_id}/lift", json={"reason": "appeal"}, headers=auth("admin")
    )
    assert lifted.status_code == 200, lifted.text
    records = pending(engine, 10)
    assert [(r.value["action_id"], r.value["status"]) for r in records] == [
        (action_id, "applied"),
        (action_id, "lifted"),
    ]
    first, second = (r.value for r in records)
    assert records[0].key == "p-7"
    assert first["lifted_at"] is None and first["duration_s"] == 1800
    assert second["lifted_at"] is not None and second["lifted_by"].startswith("key:")
    assert first["revision"] < second["revision"]
    assert set(first) >= {"kind", "player_id", "ts", "expires_at", "reason", "actor"}
    # A second lift of the same restriction changes nothing, so it announces nothing.
    again = client.post(
        f"/v1/restrictions/{action_id}/lift", json={"reason": "appeal"}, headers=auth("admin")
    )
    assert again.status_code == 409  # no longer in force
    assert len(_changes(engine)) == 2


def test_a_change_that_rolls_back_writes_nothing_to_the_outbox(engine: Engine) -> None:
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    kwargs = {
        "player_id": "p-1",
        "kind": "mute_chat",
        "duration": timedelta(minutes=5),
        "reason": "abuse",
        "actor": "analyst:x",
        "flag_ids": (),
        "now": now,
    }
    apply_restriction(engine, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(IntegrityError):  # the same id again: the insert fails
        apply_restriction(engine, **kwargs)  # type: ignore[arg-type]
    assert len(_changes(engine)) == 1


def _rules_mute(engine: Engine, player: str, now: datetime, minutes: int) -> tuple[Flag, Action]:
    finding = Finding(
        detector="profanity",
        category="profanity",
        severity="medium",
        score=0.8,
        ts=now,
        player_ids=(player,),
        evidence=Evidence(kind="test", summary="swearing"),
        message_ids=(f"m-{player}",),
    )
    flag = Flag.from_finding(finding)
    mute = Action(
        action_id=action_id_for("mute_chat", player, (flag.flag_id,)),
        kind="mute_chat",
        player_id=player,
        ts=now,
        reason="profanity (medium), strike 2",
        flag_ids=(flag.flag_id,),
        duration=timedelta(minutes=minutes),
        actor=RULES_ACTOR,
    )
    StoreWriter(engine).write(flags=[flag], actions=[mute])
    return flag, mute


def test_a_dismissal_announces_the_lift_of_the_mute_its_flag_caused(
    client: TestClient, engine: Engine
) -> None:
    flag, mute = _rules_mute(engine, "p-banter", datetime.now(UTC), 60)
    assert _changes(engine) == []  # the stream publishes its own actions
    body = {"decision": "dismiss", "note": "friends joking", "version": 0}
    done = client.post(f"/v1/flags/{flag.flag_id}/review", json=body, headers=auth("analyst"))
    assert done.status_code == 200, done.text
    assert _changes(engine) == [(mute.action_id, "lifted")]


def test_each_expiry_is_written_once_and_again_only_for_a_new_expiry(engine: Engine) -> None:
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    _flag, ended = _rules_mute(engine, "p-1", now - timedelta(hours=2), 30)
    _flag, running = _rules_mute(engine, "p-2", now - timedelta(minutes=10), 30)
    _flag, lifted = _rules_mute(engine, "p-3", now - timedelta(hours=2), 30)
    _flag, ancient = _rules_mute(engine, "p-4", now - timedelta(days=30), 30)
    a = schema.actions.c
    with engine.begin() as conn:
        conn.execute(
            update(schema.actions)
            .where(a.action_id == lifted.action_id)
            .values(lifted_at=now - timedelta(hours=1, minutes=50), lifted_by="analyst:x")
        )
    assert sweep_expired(engine, now) == 1
    assert sweep_expired(engine, now) == 0
    assert _changes(engine) == [(ended.action_id, "expired")]
    assert sweep_expired(engine, now + timedelta(minutes=25)) == 1
    assert _changes(engine)[-1] == (running.action_id, "expired")
    # Re-decided with a later expiry (its flag got worse): it expires again, once.
    with engine.begin() as conn:
        conn.execute(
            update(schema.actions)
            .where(a.action_id == ended.action_id)
            .values(expires_at=now + timedelta(hours=1))
        )
    assert sweep_expired(engine, now + timedelta(hours=2)) == 1
    assert sweep_expired(engine, now + timedelta(hours=2)) == 0
    expired = [c for c in _changes(engine) if c[1] == "expired"]
    assert expired.count((ended.action_id, "expired")) == 2
    assert ancient.action_id not in {c[0] for c in expired}


def test_sent_changes_are_not_pending_and_the_rest_stay_in_order(engine: Engine) -> None:
    now = datetime(2026, 12, 1, 12, tzinfo=UTC)
    for n in range(5):
        _rules_mute(engine, f"p-{n}", now - timedelta(hours=2, minutes=n), 30)
    sweep_expired(engine, now)
    records = pending(engine, 10)
    assert len(records) == 5
    mark_sent(engine, [records[0].seq, records[2].seq], now)
    assert [r.seq for r in pending(engine, 10)] == [records[1].seq, *[r.seq for r in records[3:]]]
