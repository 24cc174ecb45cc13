"""Bounty collusion read against a model of honest play: a pair that raises and comes along
together, far more than the model expects of anyone, is flagged; honest tables, one-off streaks
and a target's answers to the team are not; planning chat flags low on its own and shares the
flag's identity with the play."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest

from railbird.detectors.collusion.bounty_collusion import BountyCollusion, TournamentPlay
from railbird.detectors.events import AnyEvent, HandEvent
from railbird.detectors.findings import Finding
from railbird.detectors.play.pair_evidence import PairRecord, PairScore, PlayLedger
from railbird.detectors.state import TtlState
from tests.builders import chat, hand
from tests.detectors.play_stub import write_stub_model

FOLD_P, CALL_P, RAISE_P = 0.8, 0.15, 0.05  # what the stub model expects of anyone, anywhere
# The seats in acting order at the first hand; the order turns by one seat every hand.
ORDER = ["p-a", "p-c", "p-b", "p-t", "p-d", "p-e", "p-f", "p-g", "p-h"]
CARDS = ["As", "Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c", "6s", "5d", "4h", "3c", "2s", "Ah",
         "Kc", "Qs", "Jd", "Th"]  # fmt: skip


@pytest.fixture(scope="module")
def stub_dir(tmp_path_factory: pytest.TempPathFactory) -> str:
    return write_stub_model(tmp_path_factory.mktemp("stub-model"), (FOLD_P, CALL_P, RAISE_P))


def detector(stub_dir: str, **settings: Any) -> BountyCollusion:
    """Small-table settings: 36 pairs make the reference, 30 shared hands make a pair."""
    base: dict[str, Any] = {
        "model_dir": stub_dir,
        "min_reference_pairs": 20,
        "min_shared_hands": 30,
        "refresh_every": 10,
        "confirm_hands": 10,
        "threshold": 6.0,
    }
    return BountyCollusion(**{**base, **settings})


def run(det: BountyCollusion, events: Iterable[AnyEvent]) -> list[Finding]:
    state, found = TtlState(), []
    for event in events:
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


def play_hand(n: int, rng: random.Random, team_on: bool, bounty: int | None = 500) -> HandEvent:
    """Everyone faces the big blind and folds, calls or raises with the stub model's own
    probabilities (an honest table by construction), except that when `team_on` the first of
    p-a and p-b to act raises and the other comes along behind the raise, whatever their
    cards (the stub model expects a fold 80% of the time from anyone)."""
    k = n % len(ORDER)
    order = ORDER[k:] + ORDER[:k]
    blinds = order[-2:]
    acts: list[dict[str, Any]] = [
        {"street": "preflop", "player_id": blinds[0], "action": "post_sb", "amount": 50},
        {"street": "preflop", "player_id": blinds[1], "action": "post_bb", "amount": 100},
    ]
    to_call, team_raised = 100, False
    for pid in order[:-2]:
        roll = rng.random()
        if team_on and pid in ("p-a", "p-b"):
            action = "call" if team_raised else "raise"
            team_raised = True
        elif roll < FOLD_P:
            action = "fold"
        elif roll < FOLD_P + CALL_P or to_call > 100:
            action = "call"
        else:
            action = "raise"
        if action == "raise":
            to_call = 300
            acts.append({"street": "preflop", "player_id": pid, "action": "raise",
                         "amount": 300, "to": 300})  # fmt: skip
        elif action == "call":
            acts.append({"street": "preflop", "player_id": pid, "action": "call",
                         "amount": to_call})  # fmt: skip
        else:
            acts.append({"street": "preflop", "player_id": pid, "action": "fold", "amount": 0})
    deck = rng.sample(CARDS, 18)
    seats = [
        {
            "seat": k + 1,
            "player_id": p,
            "stack": 20_000,
            "bounty": bounty,
            "hole_cards": deck[2 * k : 2 * k + 2],
        }
        for k, p in enumerate(order)
    ]
    return hand(f"h-{n}", start=60.0 * n, end=60.0 * n + 40, seats=seats, actions=acts,
                button_seat=7)  # fmt: skip


def day(team_every: int | None, hands: int = 240, seed: int = 5) -> list[HandEvent]:
    rng = random.Random(seed)
    return [
        play_hand(n, rng, team_on=bool(team_every) and n % team_every == 0) for n in range(hands)
    ]


def test_a_pair_raising_and_coming_along_together_is_flagged(stub_dir: str) -> None:
    found = run(detector(stub_dir), day(team_every=2))
    play = [f for f in found if f.evidence.kind == "play_against_model"]
    assert [f.player_ids for f in play] == [("p-a", "p-b")]
    flag = play[0]
    assert flag.category == "bounty_collusion" and flag.severity in ("medium", "high")
    details, measures = flag.evidence.details, flag.evidence.measures
    assert details["target"] not in (None, "p-a", "p-b")  # whoever was caught most
    assert details["innocent_reading"] and details["surprising_moves"]
    assert "co-deviate" in flag.evidence.summary
    assert float(measures["combined_z"]) >= 6.0  # type: ignore[arg-type]
    assert int(measures["shared_hands"]) >= 40  # type: ignore[call-overload]
    assert flag.dedupe_key == "trn-1:p-a,p-b" and flag.evidence.event_ids


@pytest.mark.parametrize("seed", [5, 6, 7])
def test_an_honest_table_flags_nothing(stub_dir: str, seed: int) -> None:
    assert run(detector(stub_dir), day(team_every=None, seed=seed)) == []


def test_a_pair_must_stay_over_the_line(stub_dir: str) -> None:
    """The test runs after every hand: a pair is flagged only once it has stayed over the
    threshold for `confirm_hands` more shared hands, never at its first crossing."""
    hands = day(team_every=2)
    quick = run(detector(stub_dir, confirm_hands=0), hands)
    patient = run(detector(stub_dir, confirm_hands=25), hands)
    first = {f.player_ids: int(str(f.hand_id).split("-")[1]) for f in quick}
    later = {f.player_ids: int(str(f.hand_id).split("-")[1]) for f in patient}
    assert ("p-a", "p-b") in first and ("p-a", "p-b") in later
    assert later[("p-a", "p-b")] >= first[("p-a", "p-b")] + 25


def test_no_judgement_before_the_reference_has_pairs_enough(stub_dir: str) -> None:
    assert run(detector(stub_dir, min_reference_pairs=40), day(team_every=2)) == []


def test_non_bounty_tournaments_are_not_read(stub_dir: str) -> None:
    rng = random.Random(3)
    hands = [play_hand(n, rng, team_on=n % 2 == 0, bounty=None) for n in range(240)]
    assert run(detector(stub_dir), hands) == []


def test_a_teams_target_answering_it_is_not_a_new_team() -> None:
    trn = TournamentPlay()
    trn.flagged[("p-a", "p-b")] = "p-t"
    assert trn.explained(("p-a", "p-t")) and trn.explained(("p-b", "p-t"))
    assert not trn.explained(("p-c", "p-t")) and not trn.explained(("p-a", "p-c"))
    trn.flagged[("p-b", "p-c")] = "p-x"
    assert trn.group(("p-a", "p-b")) == ("p-a", "p-b", "p-c")


def test_the_stronger_direction_counts_only_as_far_as_the_weaker_supports_it() -> None:
    """One player's moves around a seatmate (a direction of 8) cannot flag the seatmate whose
    own moves are ordinary: the stronger direction is capped at the weaker plus 2."""
    ledger = PlayLedger()
    record = ledger.pairs[("p-a", "p-b")] = PairRecord(shared=100, cc=0.0, vcc=1.0)
    # direction 0 (p-a acting): attack z = 4 (clipped), join z = 4; direction 1 all zero
    record.spots[0:3] = [8.0, 4.0, 10.0]
    record.spots[3:6] = [8.0, 4.0, 10.0]
    record.spots[12 + 0 : 12 + 3] = [0.0, 4.0, 10.0]
    one_sided = ledger.score(("p-a", "p-b"))
    assert one_sided.spot_z[0][:2] == (4.0, 4.0)  # 8 / sqrt(4) = 4, at the clip
    assert one_sided.spots == pytest.approx((0.0 + 2.0 + 0.0) / math.sqrt(2.0))
    record.spots[12 + 3 : 12 + 6] = [8.0, 4.0, 10.0]  # now p-b joins p-a's pots too
    both = ledger.score(("p-a", "p-b"))
    assert both.spots > one_sided.spots


def test_planning_chat_names_the_target(stub_dir: str) -> None:
    hal_speaks = chat("gl all", player="p-hal", screen_name="P-HAL", t=1)
    plan = chat(
        "lets take out hal together, i raise you shove",
        t=2,
        player="p-eve",
        channel="private",
        table=None,
        tournament=None,
        recipient="p-fay",
        message_id="m-plan",
    )
    eve_at_the_table = chat("gl", player="p-eve", t=1.5)  # the plan is made in trn-1
    found = run(detector(stub_dir), [hal_speaks, eve_at_the_table, plan])
    assert len(found) == 1
    assert found[0].severity == "low"
    assert found[0].player_ids == ("p-eve", "p-fay")
    assert found[0].evidence.details["target"] == "p-hal"
    assert found[0].message_ids == ("m-plan",)


@pytest.mark.parametrize(
    "text",
    ["we should all get some food", "bust him with that flush lol", "nice hand", "gl all"],
)
def test_ordinary_private_chat_is_not_a_plan(stub_dir: str, text: str) -> None:
    hal = chat("hi", player="p-hal", screen_name="P-HAL", t=1)
    msg = chat(text, t=2, player="p-eve", channel="private", table=None, recipient="p-fay")
    assert run(detector(stub_dir), [hal, msg]) == []


def test_planning_chat_and_play_share_one_flag_identity(stub_dir: str) -> None:
    plan = chat(
        "lets isolate p-t together, i raise you reraise",
        t=70,
        player="p-a",
        channel="private",
        table=None,
        tournament=None,
        recipient="p-b",
        message_id="m-plan",
    )
    events: list[AnyEvent] = list(day(team_every=2))
    events.insert(2, plan)
    found = run(detector(stub_dir), events)
    chat_only = [f for f in found if f.evidence.kind == "bounty_planning_chat"]
    play = [f for f in found if f.evidence.kind == "play_against_model"]
    assert chat_only and play
    assert chat_only[0].severity == "low" and play[0].severity == "high"  # planned: high
    assert chat_only[0].tournament_id == "trn-1"
    assert chat_only[0].dedupe_key == play[0].dedupe_key == "trn-1:p-a,p-b"
    assert play[0].message_ids == ("m-plan",)


def test_the_shipped_model_reads_a_simulated_bounty_day_without_error(
    tmp_path: Path,
) -> None:
    """The real model end to end on a small simulated day: decisions read, pairs scored."""
    from railbird.detectors.events import event_from_dict
    from railbird.sim.config import SimConfig
    from railbird.sim.run import simulate

    config = SimConfig(seed=2, tournaments=1, cash_tables=0, hours=0.5,
                       players_per_tournament=36, bounty_share=1.0)  # fmt: skip
    hands = [
        event_from_dict(r)
        for kind, r in simulate(config)
        if kind == "event" and r["type"] == "hand"
    ]
    det = BountyCollusion(min_reference_pairs=5, min_shared_hands=5)
    state = TtlState()
    for h in hands:
        state.advance(h.time)
        det.detect(h, state)
    play: TournamentPlay = state.get(("trn-1", "bounty_play"))
    assert play.ledger.hands_seen == len(hands) > 20
    scores = [play.ledger.score(p) for p, r in play.ledger.pairs.items() if r.shared >= 5]
    assert scores and all(math.isfinite(s.score) for s in scores)


def _scored(pair: tuple[str, str], score: float, spots: float) -> PairScore:
    return PairScore(pair, 0.0, 0.0, score, spots, score, ((0.0,) * 4, (0.0,) * 4))


@pytest.mark.parametrize(
    ("with_c", "third"),
    [
        (((6.0, 2.0), (7.0, 1.5)), "p-c"),  # three pairs, each short of the line, together over
        (((6.0, 2.0), (4.0, 1.5)), None),  # one pair too weak: a seatmate of two, not a third
        (((6.0, 0.2), (7.0, 1.5)), None),  # no play around the pair: a target answering them
        (((3.0, 2.0), (3.0, 2.0)), None),  # together short of the trio's line
    ],
)
@pytest.mark.parametrize("stale", [False, True])
def test_a_team_of_three_spreads_its_moves_over_three_pairs(
    stub_dir: str,
    monkeypatch: pytest.MonkeyPatch,
    with_c: tuple[tuple[float, float], tuple[float, float]],
    third: str | None,
    stale: bool,
) -> None:
    """The pairs' scores now decide, whatever their records last said: the ledger's `score`
    is replaced by the scores each case needs (building hands that give exact robust z's
    against a reference is not what this test is about). `stale`: the records' last scores
    were high, as before a refresh moved the reference; they still pick the candidates only."""
    det = detector(stub_dir, trio_pair=5.0, trio_threshold=10.0, min_spots=1.0)
    trn = TournamentPlay()
    now: dict[tuple[str, str], PairScore] = {}
    for (score, spots), pair in zip(with_c, (("p-a", "p-c"), ("p-b", "p-c")), strict=True):
        cached = 9.0 if stale else score
        trn.ledger.pairs[pair] = PairRecord(shared=80, combined=cached, robust_spots=spots)
        now[pair] = _scored(pair, score, spots)
    trn.ledger.pairs[("p-a", "p-b")] = PairRecord(shared=80)
    trn.ledger.pairs[("p-a", "p-d")] = PairRecord(shared=80, combined=9.0, robust_spots=3.0)
    now[("p-a", "p-d")] = _scored(("p-a", "p-d"), 9.0, 3.0)
    now[("p-b", "p-d")] = _scored(("p-b", "p-d"), 0.0, 0.0)
    monkeypatch.setattr(PlayLedger, "score", lambda _self, pair: now[pair])
    assert det._third(trn, ("p-a", "p-b"), _scored(("p-a", "p-b"), 7.5, 2.0)) == third


def test_busted_players_are_forgotten_and_a_re_entry_is_not(stub_dir: str) -> None:
    """A tournament's state shrinks as its field does: a player knocked out, never dealt again,
    leaves the ledger at the next refresh with every pair of theirs. One who is dealt again
    (a re-entry) is kept."""
    det = detector(stub_dir)
    hands = day(team_every=None, hands=25)
    out, back = ORDER[2], ORDER[3]

    def without(event: HandEvent, player: str) -> HandEvent:
        data = event.model_dump(mode="json")
        data["seats"] = [s for s in data["seats"] if s["player_id"] != player]
        data["actions"] = [a for a in data["actions"] if a["player_id"] != player]
        return HandEvent.model_validate(data)

    busting = hands[3].model_dump(mode="json")
    busting["eliminated"] = [{"player_id": out, "by": [ORDER[0]]}, {"player_id": back, "by": []}]
    stream = [*hands[:3], HandEvent.model_validate(busting), *(without(h, out) for h in hands[4:])]
    state = TtlState()
    for event in stream:
        state.advance(event.time)
        det.detect(event, state)
    play = state.get(("trn-1", "bounty_play"))
    assert isinstance(play, TournamentPlay)
    assert not any(out in pair for pair in play.ledger.pairs)
    assert out not in play.ledger.styles
    assert any(back in pair for pair in play.ledger.pairs)  # dealt again: re-entered
    assert play.knockouts[out] == [ORDER[0]]  # who knocked out whom stays
