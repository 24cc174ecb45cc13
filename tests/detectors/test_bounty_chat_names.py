"""A screen name resolves for exactly `names_ttl` after its owner's last message.

The detector no longer re-puts every name on every message (see `BountyCollusion._see_name`);
these tests pin the expiry the re-put gave: a name seen last at time L names its player until
just before L + names_ttl, whether the player spoke once or kept chatting, and a name taken
over by another player points at the newest speaker.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from railbird.detectors.collusion.bounty_collusion import BountyCollusion
from railbird.detectors.events import AnyEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import chat

HOUR = 3600.0
TTL = BountyCollusion().names_ttl.total_seconds()


def run(events: Iterable[AnyEvent]) -> list[Finding]:
    det, state, found = BountyCollusion(), TtlState(), []
    for event in events:
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


def plan(t: float) -> AnyEvent:
    return chat(
        "lets take out hal together, i raise you shove",
        t=t,
        player="p-eve",
        channel="private",
        table=None,
        tournament=None,
        recipient="p-fay",
    )


def hal(t: float, player: str = "p-hal", tournament: str = "trn-1") -> AnyEvent:
    return chat("gl all", player=player, screen_name="HAL", t=t, tournament=tournament)


def planned(t: float) -> list[AnyEvent]:
    """The plan, after its sender has been seen at a table of trn-1 (where names resolve)."""
    return [chat("gl", player="p-eve", t=t - 1), plan(t)]


@pytest.mark.parametrize(
    ("spoken", "plan_at", "target"),
    [
        ([0.0], TTL - 1, "p-hal"),
        ([0.0], TTL, None),  # expired exactly at last message + ttl
        ([0.0, 0.5 * HOUR, 3 * HOUR, 5.5 * HOUR], 5.5 * HOUR + TTL - 1, "p-hal"),
        ([0.0, 0.5 * HOUR, 3 * HOUR, 5.5 * HOUR], 5.5 * HOUR + TTL, None),
        ([float(m * 60) for m in range(200)], 199 * 60 + TTL - 1, "p-hal"),
        ([float(m * 60) for m in range(200)], 199 * 60 + TTL + 1, None),
    ],
)
def test_a_name_names_its_player_for_ttl_after_the_last_message(
    spoken: list[float], plan_at: float, target: str | None
) -> None:
    found = run([*(hal(t) for t in spoken), *planned(plan_at)])
    assert [f.evidence.details["target"] for f in found] == [target]


def test_a_name_taken_over_points_at_the_newest_speaker() -> None:
    found = run([hal(0.0), hal(10.0, player="p-hal2"), *planned(20.0)])
    assert [f.evidence.details["target"] for f in found] == ["p-hal2"]
    found = run([hal(0.0), hal(10.0, player="p-hal2"), hal(15.0), *planned(20.0)])
    assert [f.evidence.details["target"] for f in found] == ["p-hal"]


def test_a_name_resolves_only_among_the_plans_tournament() -> None:
    # HAL plays in trn-2 only: a plan made in trn-1 does not name him (and a stream split by
    # tournament could not know him there).
    found = run([hal(0.0, tournament="trn-2"), *planned(20.0)])
    assert [f.evidence.details["target"] for f in found] == [None]
    found = run([hal(0.0, tournament="trn-2"), hal(5.0, player="p-hal1"), *planned(20.0)])
    assert [f.evidence.details["target"] for f in found] == ["p-hal1"]
    # A sender never seen in any tournament leaves no name to resolve.
    found = run([chat("gl all", player="p-hal", screen_name="HAL", table="c-1", tournament=None)])
    found += run(
        [
            chat("gl all", player="p-hal", screen_name="HAL", table="c-1", tournament=None),
            *planned(20.0),
        ]
    )
    assert [f.evidence.details["target"] for f in found] == [None]
