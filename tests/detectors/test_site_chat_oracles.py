"""The site detectors' chat paths must find exactly what their former code found.

Each chat message of a tournament passes `BountyCollusion` and `CoordinatedSitOut`, so their
chat paths were trimmed: the sender's tournament is noted once per message by
`remember_chat_tournament`, the bounty hand path moved out of `detect`, and `known_name_keys`
reads a name's words once. The references below are the former code, verbatim; random streams
(plans naming screen names, near-miss texts, tournament changes by chat and by table events,
silences around every ttl) and a simulated evening must give identical flags and tournament
memory at every step.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from railbird.detectors.collusion.bounty_collusion import BountyCollusion
from railbird.detectors.collusion.coordinated_sit_out import CoordinatedSitOut
from railbird.detectors.collusion.name_directory import see_name
from railbird.detectors.collusion.planning_chat import (
    TOURNAMENT_TTL,
    fold_text,
    is_bounty_plan,
    is_sitout_plan,
    known_name_keys,
    remember_tournament,
)
from railbird.detectors.detector import Detector
from railbird.detectors.events import AnyEvent, ChatEvent, event_from_dict
from railbird.detectors.findings import Finding
from railbird.detectors.state import State
from railbird.rules.pipeline import Outcome, Pipeline
from railbird.sim.config import SimConfig
from railbird.sim.run import simulate
from tests.builders import chat, table

# -- the former code, verbatim -------------------------------------------------------------

_OLD_WORD = re.compile(r"[a-z0-9]+")


def old_known_name_keys(screen_name: str | None, player_id: str) -> tuple[str, ...]:
    keys: set[str] = set()
    for raw in (screen_name or "", player_id):
        folded = fold_text(raw)
        joined = "".join(_OLD_WORD.findall(folded))
        if len(joined) >= 3:
            keys.add(joined)
        keys.update(w for w in _OLD_WORD.findall(folded) if len(w) >= 3 and not w.isdigit())
    return tuple(sorted(keys))


def old_remember_chat_tournament(event: ChatEvent, state: State) -> None:
    tid = event.tournament_id
    if tid is not None:
        key = (event.player_id, "tournament")
        if state.get(key) != tid:
            state.put(key, tid, TOURNAMENT_TTL)


@dataclass(frozen=True, slots=True)
class OldBountyCollusion(BountyCollusion):
    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if isinstance(event, ChatEvent):  # nearly every event of the site: kept short
            old_remember_chat_tournament(event, state)
            # Names are kept per tournament now (a plan's target plays where it is made).
            where = event.tournament_id or state.get((event.player_id, "tournament"))
            if where is not None:
                see_name(state, event.screen_name, event.player_id, self.names_ttl, where)
            if event.kind != "text" or not is_bounty_plan(event.text):
                return []
            return self._plan(event, state)
        return self._on_play(event, state)  # play is not what this oracle compares


@dataclass(frozen=True, slots=True)
class OldCoordinatedSitOut(CoordinatedSitOut):
    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if isinstance(event, ChatEvent):
            old_remember_chat_tournament(event, state)
            if event.kind != "text" or not is_sitout_plan(event.text):
                return []
            return self._chat(event, state)
        return self._on_play(event, state)  # play is not what this oracle compares


def _site(old: bool) -> list[Detector]:
    if old:
        return [OldBountyCollusion(), OldCoordinatedSitOut()]
    return [BountyCollusion(), CoordinatedSitOut()]


# -- name keys -----------------------------------------------------------------------------

_NAME_CHARS = (
    "abcXYZhalKING019 -_.'@#\t\n\x0b\x1c\x1f\xa0"
    "\u00e9\u00c9\u00df\ufb01\u0130\u0131\u00f8\u2019\uff21\uff11\u0663\u00bd\U0001f600"
)


def test_name_keys_match_the_former_code_on_random_names() -> None:
    rng = random.Random(7)
    seen = 0
    for _ in range(3000):
        screen = None if rng.random() < 0.1 else _random_name(rng)
        player = _random_name(rng)
        expected = old_known_name_keys(screen, player)
        assert known_name_keys.__wrapped__(screen, player) == expected, (screen, player)
        seen += bool(expected)
    assert seen > 1500  # most names gave keys: the comparison was not of empty tuples


@pytest.mark.parametrize(
    ("screen_name", "player_id", "keys"),
    [
        ("a-b-c", "p-1", ("abc",)),  # joined makes a key, no word is long enough
        ("ab", "p1", ()),  # near miss: nothing reaches three characters
        ("12345 kong", "p-2", ("12345kong", "kong")),  # digits-only word, "p2": no keys
        ("\u00c9MILE\u2019s", "P-\u00c9", ("emiles",)),  # the quote folds away
        ("\ufb01sh AND chips", "p-3", ("and", "chips", "fish", "fishandchips")),
    ],
)
def test_name_keys_edges(screen_name: str | None, player_id: str, keys: tuple[str, ...]) -> None:
    assert known_name_keys(screen_name, player_id) == keys
    assert old_known_name_keys(screen_name, player_id) == keys


def _random_name(rng: random.Random) -> str:
    return "".join(rng.choice(_NAME_CHARS) for _ in range(rng.randint(0, 12)))


# -- random streams ------------------------------------------------------------------------

PLAYERS = [f"p-{i}" for i in range(1, 9)]
SCREENS = ["King Ace", "Ace-High", "HAL", "hal 9000", None, "Royal Kicker", "R\u00e9my"]
TOURNAMENTS = [None, "trn-1", "trn-2"]
TEXTS = [
    "gl all",
    "nh",
    "lets take out {name} together, i raise you shove",
    "bust {name} together, same plan",
    "i will bust {name}",  # near miss: no coordination
    "sitting out for dinner",  # near miss: no coordination
    "lets sit out together in 2 min",
    "ok now sit out",
    "sit out with me",
]
TTL_S = TOURNAMENT_TTL.total_seconds()
STEPS = [0.0, 0.0, 0.5, 30.0, 600.0, 3 * 3600.0, 4 * 3600.0, 6 * 3600.0, TTL_S - 1, TTL_S]


def _random_stream(seed: int, n: int = 500) -> list[AnyEvent]:
    rng = random.Random(seed)
    names = [s for s in SCREENS if s is not None]
    events: list[AnyEvent] = []
    t = 0.0
    hands: dict[str, str] = {}
    for i in range(n):
        t += rng.choice(STEPS) if rng.random() < 0.15 else rng.uniform(0, 20)
        r = rng.random()
        if r < 0.15:  # table events: hands (for the private detector) and tournament moves
            tid = f"t-{rng.randint(1, 2)}"
            if tid in hands and rng.random() < 0.6:
                events.append(table("hand_end", t=t, table_id=tid, hand_id=hands.pop(tid)))
            else:
                hands[tid] = f"h-{i}"
                seated = rng.sample(PLAYERS, 4)
                trn = rng.choice(TOURNAMENTS)
                events.append(
                    table(
                        "hand_start",
                        t=t,
                        table_id=tid,
                        tournament=trn,
                        hand_id=f"h-{i}",
                        players=seated,
                    )
                )
            continue
        channel = rng.choice(["table", "table", "private", "private", "tournament", "lobby"])
        private = channel == "private"
        player = rng.choice(PLAYERS)
        events.append(
            chat(
                rng.choice(TEXTS).format(name=rng.choice(names)),
                t=t,
                player=player,
                screen_name=rng.choice(SCREENS),
                channel=channel,
                table=None if private else f"t-{rng.randint(1, 2)}",
                tournament=None if private else rng.choice(TOURNAMENTS),
                recipient=rng.choice([p for p in PLAYERS if p != player]) if private else None,
                kind="emoji" if rng.random() < 0.05 else "text",
                message_id=f"m-{i}",
            )
        )
    return events


def _compare(events: Sequence[AnyEvent]) -> dict[str, int]:
    new, old = Pipeline(_site(old=False)), Pipeline(_site(old=True))
    found: dict[str, int] = {}
    for event in events:
        got, expected = new.process(event), old.process(event)
        assert _flat(got) == _flat(expected), event
        for flag in got.flags:
            found[flag.finding.detector] = found.get(flag.finding.detector, 0) + 1
        for name in ("bounty_collusion", "coordinated_sit_out"):
            for player in PLAYERS:
                key = (player, "tournament")
                assert new.states[name].get(key) == old.states[name].get(key), (name, key)
    assert new.state_size() == old.state_size()
    return found


def _flat(outcome: Outcome) -> list[Any]:
    return [(f.flag_id, f.severity, f.finding) for f in outcome.flags] + list(outcome.actions)


@pytest.mark.parametrize("seed", range(8))
def test_random_chat_streams_flag_like_the_former_code(seed: int) -> None:
    found = _compare(_random_stream(seed))
    assert found.get("bounty_collusion", 0) + found.get("coordinated_sit_out", 0) > 0


def test_plans_resolve_names_and_tournaments_like_the_former_code() -> None:
    events = [e for seed in range(8, 12) for e in _random_stream(seed, 200)]
    events.sort(key=lambda e: e.time)
    found = _compare(events)
    assert found.get("bounty_collusion", 0) > 0 and found.get("coordinated_sit_out", 0) > 0


@pytest.fixture(scope="module")
def evening() -> list[AnyEvent]:
    config = SimConfig(
        seed=3,
        tournaments=2,
        cash_tables=1,
        hours=2.0,
        players_per_tournament=60,
        bounty_share=1.0,
        team_intensity=0.9,
    )
    return [event_from_dict(e) for kind, e in simulate(config) if kind == "event"]


def test_a_simulated_evening_flags_like_the_former_code(evening: list[AnyEvent]) -> None:
    found = _compare(evening)
    # every site detector found something from play, not only from chat
    assert set(found) == {"bounty_collusion", "coordinated_sit_out"}


def test_a_chat_message_notes_its_tournament_as_remember_tournament_does() -> None:
    """The chat note and the general one agree (same value, same expiry)."""
    for detector in (BountyCollusion(), CoordinatedSitOut()):
        new, ref = Pipeline([detector]), Pipeline([detector])
        for t, trn in [(0, "trn-1"), (60, "trn-1"), (120, None), (180, "trn-2"), (240, "trn-2")]:
            event = chat("gl", t=t, player="p-1", tournament=trn)
            new.process(event)
            ref.clock.advance(event.ts)
            remember_tournament(event, ref.states[detector.name])
        state, ref_state = new.states[detector.name], ref.states[detector.name]
        assert state.get(("p-1", "tournament")) == "trn-2"
        for late in (240 + TTL_S - 1, 180 + TTL_S - 1, 180 + TTL_S):
            stamp = chat("x", t=late, player="p-9", tournament=None).ts
            new.clock.advance(stamp)
            ref.clock.advance(stamp)
            assert state.get(("p-1", "tournament")) == ref_state.get(("p-1", "tournament"))
        # put at 180 (the change), not refreshed at 240: gone exactly TOURNAMENT_TTL later
        assert state.get(("p-1", "tournament")) is None


def test_plan_window_near_miss() -> None:
    """A bounty plan a second after the name's ttl no longer names the player."""
    det = BountyCollusion()
    ttl = det.names_ttl.total_seconds()
    for gap, target in [(ttl - 1, "p-hal"), (ttl, None), (ttl + 1, None)]:
        pipeline = Pipeline([det])
        pipeline.process(chat("gl", t=0, player="p-hal", screen_name="HAL"))
        pipeline.process(chat("gl", t=gap - 1, player="p-eve"))  # the plan's tournament: trn-1
        plan = chat(
            "lets take out hal together, i raise you shove",
            t=gap,
            player="p-eve",
            channel="private",
            table=None,
            tournament=None,
            recipient="p-fay",
        )
        flags = pipeline.process(plan).flags
        assert [f.finding.evidence.details["target"] for f in flags] == [target]
