"""`POST /v1/chat/check` runs its detectors through the pipeline: one that raises is counted and
named, and the check still answers with what the others found (never a 500)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from fastapi.testclient import TestClient

from railbird.api.app import create_app
from railbird.detectors.chat.profanity import Profanity
from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import State
from railbird.store.database import make_engine, migrate
from tests.api.conftest import KEYS, auth


@dataclass(frozen=True, slots=True)
class Exploding:
    """A detector with a bug: it raises on every chat message."""

    name: ClassVar[str] = "exploding"
    consumes: ClassVar[frozenset[str]] = frozenset({"chat"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        raise RuntimeError(f"bug on {event.event_id}")


@dataclass(frozen=True, slots=True)
class HandsOnly:
    """Reads hands only: the pipeline's `consumes` routing never calls it for chat."""

    name: ClassVar[str] = "hands_only"
    consumes: ClassVar[frozenset[str]] = frozenset({"hand"})

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        raise AssertionError("a chat check must not reach a hand-only detector")


def _client(tmp_path: Path) -> TestClient:
    engine = make_engine(f"sqlite:///{tmp_path / 'api.db'}")
    migrate(engine)
    return TestClient(create_app(engine, KEYS, detectors=[Exploding(), HandsOnly(), Profanity()]))


def test_a_detector_that_raises_is_counted_and_the_check_still_answers(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        body = {"player_id": "p-1", "table_id": "t-1", "text": "you fucking idiot"}
        first = client.post("/v1/chat/check", json=body, headers=auth("chat_service"))
        second = client.post("/v1/chat/check", json=body, headers=auth("chat_service"))
        gate = client.app.state.chat_gate  # type: ignore[attr-defined]
    assert first.status_code == 200, first.text
    answer = first.json()
    assert answer["failed_detectors"] == ["exploding"]
    # The working detector still judged the message.
    assert "profanity" in answer["categories"]
    assert second.status_code == 200
    assert gate.detector_errors["exploding"] == 2
    assert "hands_only" not in gate.detector_errors


def test_a_clean_message_with_a_broken_detector_is_allowed_and_says_so(tmp_path: Path) -> None:
    with _client(tmp_path) as client:
        answer = client.post(
            "/v1/chat/check",
            json={"player_id": "p-1", "table_id": "t-1", "text": "nice hand"},
            headers=auth("chat_service"),
        ).json()
    assert answer["decision"] == "allow"
    assert answer["failed_detectors"] == ["exploding"]
    assert answer["categories"] == []
