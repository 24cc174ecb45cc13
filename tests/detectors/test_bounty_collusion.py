"""Bounty collusion: a pair sandwiching one target flags; hunters and dry side pots don't."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import pytest

from railbird.detectors.collusion.bounty_collusion import BountyCollusion
from railbird.detectors.collusion.hand_features import hand_features
from railbird.detectors.events import AnyEvent, HandEvent
from railbird.detectors.findings import Finding
from railbird.detectors.state import TtlState
from tests.builders import chat, hand

PLAYERS = ["p-a", "p-b", "p-t", "p-c", "p-d", "p-e", "p-f", "p-g", "p-h"]
Act = tuple[str, str, int]  # player, action, to (or amount for calls)


def run(events: Iterable[AnyEvent]) -> list[Finding]:
    det, state, found = BountyCollusion(), TtlState(), []
    for event in events:
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


def make_hand(
    n: int,
    preflop: list[Act],
    *,
    post: list[tuple[str, str, str, int]] | None = None,
    eliminated: list[dict[str, Any]] | None = None,
    stacks: dict[str, int] | None = None,
    bounty: int | None = 500,
    players: list[str] | None = None,
) -> HandEvent:
    seated = players or PLAYERS
    acts: list[dict[str, Any]] = [
        {"street": "preflop", "player_id": seated[0], "action": "post_sb", "amount": 50},
        {"street": "preflop", "player_id": seated[1], "action": "post_bb", "amount": 100},
    ]
    for pid, action, to in preflop:
        item: dict[str, Any] = {"street": "preflop", "player_id": pid, "action": action}
        if action in ("raise", "all_in"):
            item.update(amount=to, to=to)
        elif action == "call":
            item["amount"] = to
        acts.append(item)
    for street, pid, action, amount in post or []:
        acts.append({"street": street, "player_id": pid, "action": action, "amount": amount})
    stacks = stacks or {}
    return hand(
        f"h-{n}",
        start=60.0 * n,
        end=60.0 * n + 50,
        seats=[
            {"seat": i + 1, "player_id": p, "stack": stacks.get(p, 10_000), "bounty": bounty}
            for i, p in enumerate(seated)
        ],
        actions=acts,
        eliminated=eliminated,
    )


def honest_hand(n: int, rng: random.Random) -> HandEvent:
    """Players act in a random order: each folds or (15%) opens until someone opens; after the
    open each folds, calls or (6%) re-raises, whoever opened. Entering never depends on who
    is still live, which is what an honest player's choice looks like to the contrast."""
    order = PLAYERS[2:] + PLAYERS[:2]
    rng.shuffle(order)
    acts: list[Act] = []
    opened = reraised = False
    for p in order:
        roll = rng.random()
        if not opened:
            opened = roll < 0.15
            acts.append((p, "raise", 250) if opened else (p, "fold", 0))
        elif not reraised and roll < 0.06:
            acts.append((p, "raise", 800))
            reraised = True
        elif roll < 0.2:
            acts.append((p, "call", 250))
        else:
            acts.append((p, "fold", 0))
    return make_hand(n, acts)


def sandwich_hand(n: int, a: str, b: str, target: str, early: int = 0) -> HandEvent:
    """Some seatmates fold before the pair acts (a different few each time); the target is
    still to act when the pair opens and re-raises, then gives up."""
    others = [p for p in PLAYERS if p not in (a, b, target)]
    k = early % len(others)
    others = others[k:] + others[:k]
    acts: list[Act] = [(p, "fold", 0) for p in others[:2]]
    acts += [(a, "raise", 250), (b, "raise", 1200)]
    acts += [(p, "fold", 0) for p in others[2:]]
    acts += [(target, "fold", 0), (a, "fold", 0)]
    return make_hand(n, acts)


def tournament(colluding_every: int | None, hands: int = 400, seed: int = 3) -> list[HandEvent]:
    rng = random.Random(seed)
    out: list[HandEvent] = []
    for n in range(hands):
        if colluding_every and n % colluding_every == 0:
            a, b = ("p-a", "p-b") if n % 2 else ("p-b", "p-a")
            out.append(sandwich_hand(n, a, b, "p-t", early=n // colluding_every))
        else:
            out.append(honest_hand(n, rng))
    return out


def test_sandwiching_pair_is_flagged_with_target() -> None:
    found = run(tournament(colluding_every=8))
    assert found, "a pair re-raising each other around one target should flag"
    first = found[0]
    assert first.player_ids == ("p-a", "p-b")
    assert first.evidence.details["target"] == "p-t"
    m = first.evidence.measures
    assert isinstance(m["p_value_bonferroni"], float) and m["p_value_bonferroni"] < 0.001
    assert isinstance(m["reraises"], int) and isinstance(m["expected_reraises"], float)
    assert m["reraises"] > 3 * m["expected_reraises"]
    # the target is named from the co-entry contrast: both join pots while p-t is live
    assert first.evidence.details["pair"] == ["p-a", "p-b"]
    live, expected = m["live_entries"], m["expected_live_entries"]
    assert isinstance(live, list) and isinstance(expected, list) and len(live) == 2
    for n, e in zip(live, expected, strict=True):
        assert isinstance(n, int) and isinstance(e, float) and n > e
    # the re-raises alone survive Bonferroni by a wide margin, so weaker target evidence
    # (p < 0.2 after correcting for candidate targets) is enough; otherwise p < 0.01 is needed
    pairs, p_rr = m["candidate_pairs"], m["p_value_reraises"]
    assert isinstance(pairs, int) and isinstance(p_rr, float) and p_rr * pairs < 1e-4
    assert isinstance(m["p_value_target"], float) and m["p_value_target"] < 0.2
    assert "converge on p-t" in first.evidence.summary
    assert first.evidence.event_ids and all(e.startswith("h-") for e in first.evidence.event_ids)
    assert first.dedupe_key == "trn-1:p-a,p-b"


def _whipsaw_random_victims() -> list[HandEvent]:
    rng = random.Random(7)
    hands: list[HandEvent] = []
    for n in range(400):
        if n % 8 == 0:
            victim = rng.choice(PLAYERS[2:])
            a, b = ("p-a", "p-b") if n % 2 else ("p-b", "p-a")
            hands.append(sandwich_hand(n, a, b, victim, early=n // 8))
        else:
            hands.append(honest_hand(n, rng))
    return hands


def test_weak_target_is_enough_only_for_overwhelming_reraises() -> None:
    """A pair whipsawing a different victim each time has no clear target. It is flagged only
    because its re-raises alone pass Bonferroni by a wide margin; with that path off, the
    weak target evidence keeps it out."""
    strict = BountyCollusion(strong_pair_p=0.0)
    det, state, found = strict, TtlState(), []
    for event in _whipsaw_random_victims():
        state.advance(event.time)
        found.extend(det.detect(event, state))
    assert found == []
    flagged = run(_whipsaw_random_victims())
    assert flagged and flagged[0].player_ids == ("p-a", "p-b")
    m = flagged[0].evidence.measures
    pairs, p_rr, p_t = m["candidate_pairs"], m["p_value_reraises"], m["p_value_target"]
    assert isinstance(pairs, int) and isinstance(p_rr, float) and p_rr * pairs < 1e-4
    assert isinstance(p_t, float) and 0.01 <= p_t < 0.2


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_honest_tables_do_not_flag(seed: int) -> None:
    assert run(tournament(colluding_every=None, hands=600, seed=seed)) == []


def test_honest_bounty_hunters_do_not_flag() -> None:
    # The big bounty shoves often; different players call it off independently.
    rng = random.Random(11)
    events: list[AnyEvent] = []
    for n in range(300):
        if n % 5 == 0:
            callers = rng.sample([p for p in PLAYERS if p != "p-t"], 2)
            behind = [p for p in PLAYERS if p != "p-t"]
            rng.shuffle(behind)  # the callers sit anywhere behind the shove
            acts: list[Act] = [("p-t", "all_in", 1500)]
            acts += [(p, "call", 1500) if p in callers else (p, "fold", 0) for p in behind]
            post = [("flop", callers[0], "check", 0), ("flop", callers[1], "check", 0)]
            events.append(make_hand(n, acts, post=post, stacks={"p-t": 1500}))
        else:
            events.append(honest_hand(n, rng))
    assert run(events) == []


def test_dry_side_pot_check_down_once_does_not_flag() -> None:
    acts: list[Act] = [("p-t", "all_in", 900), ("p-a", "call", 900), ("p-b", "call", 900)]
    acts += [(p, "fold", 0) for p in PLAYERS if p not in ("p-t", "p-a", "p-b")]
    post = [
        ("flop", "p-a", "check", 0),
        ("flop", "p-b", "check", 0),
        ("turn", "p-a", "check", 0),
        ("turn", "p-b", "check", 0),
    ]
    bust = [{"player_id": "p-t", "by": ["p-a"], "bounty_awarded": 500}]
    h = make_hand(1, acts, post=post, eliminated=bust, stacks={"p-t": 900})
    feats = hand_features(h)
    assert [(c.all_in, c.others) for c in feats.checkdowns] == [("p-t", ("p-a", "p-b"))]
    rng = random.Random(5)
    assert run([h, *(honest_hand(n, rng) for n in range(2, 200))]) == []


def test_knockouts_and_check_downs_raise_severity() -> None:
    events: list[AnyEvent] = list(tournament(colluding_every=8, hands=120))
    acts: list[Act] = [("p-t", "all_in", 900), ("p-a", "call", 900), ("p-b", "call", 900)]
    acts += [(p, "fold", 0) for p in PLAYERS if p not in ("p-t", "p-a", "p-b")]
    post = [("flop", "p-a", "check", 0), ("flop", "p-b", "check", 0)]
    bust = [{"player_id": "p-t", "by": ["p-b"], "bounty_awarded": 500}]
    events.append(make_hand(121, acts, post=post, eliminated=bust, stacks={"p-t": 900}))
    events += [sandwich_hand(n, "p-a", "p-b", "p-t", early=n) for n in range(122, 130)]
    found = run(events)
    assert found[-1].severity == "high"
    assert found[-1].evidence.measures["knockouts_of_target"] == 1
    assert found[-1].evidence.measures["checkdowns_with_target_all_in"] == 1


def test_non_bounty_tournament_is_ignored() -> None:
    rng = random.Random(2)
    events = [
        make_hand(
            n, [("p-a", "raise", 250), ("p-b", "raise", 900), ("p-a", "fold", 0)], bounty=None
        )
        if n % 3 == 0
        else honest_hand(n, rng)
        for n in range(200)
    ]
    assert [f for f in run(events) if f.evidence.kind == "bounty_targeting"] == []


def test_planning_chat_names_the_target() -> None:
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
    found = run([hal_speaks, plan])
    assert len(found) == 1
    assert found[0].severity == "low"
    assert found[0].player_ids == ("p-eve", "p-fay")
    assert found[0].evidence.details["target"] == "p-hal"
    assert found[0].message_ids == ("m-plan",)


@pytest.mark.parametrize(
    "text",
    ["we should all get some food", "bust him with that flush lol", "nice hand", "gl all"],
)
def test_ordinary_private_chat_is_not_a_plan(text: str) -> None:
    hal = chat("hi", player="p-hal", screen_name="P-HAL", t=1)
    msg = chat(text, t=2, player="p-eve", channel="private", table=None, recipient="p-fay")
    assert run([hal, msg]) == []


TRIO = ("p-a", "p-b", "p-c")


def hunt_hand(n: int, rng: random.Random, hunters: tuple[str, ...]) -> HandEvent:
    """Seats act in a random order; a hunter with the short big bounty still to act behind
    limps in 80% of the time hoping it shoves, everyone else plays as in `honest_hand` minus
    raises. Hunters join pots far more while p-t is still to act than after it has acted: a
    strong co-entry contrast, with no re-raises among them."""
    order = list(PLAYERS)
    rng.shuffle(order)
    acts: list[Act] = []
    for p in order:
        if p == "p-t":
            acts.append(("p-t", "all_in", 1500) if rng.random() < 0.5 else ("p-t", "fold", 0))
            continue
        hunting = p in hunters and "p-t" not in [a[0] for a in acts]
        enter = rng.random() < (0.8 if hunting else 0.15)
        acts.append((p, "call", 100) if enter else (p, "fold", 0))
    return make_hand(n, acts, stacks={"p-t": 1500})


def group_day(sandwiches: int, seed: int) -> list[AnyEvent]:
    """300 hands: honest play, a hunt of p-t every 2nd hand by the trio, and `sandwiches`
    raise/re-raise hands around p-t rotating over the trio's three pairs (so each pair has only
    a couple of re-raises, below the pair test's minimum)."""
    rng = random.Random(seed)
    pairs = [("p-a", "p-b"), ("p-c", "p-b"), ("p-a", "p-c"), ("p-b", "p-a"), ("p-b", "p-c")]
    pairs.append(("p-c", "p-a"))
    events: list[AnyEvent] = []
    done = 0
    for n in range(300):
        if n % 2 == 0:
            events.append(hunt_hand(n, rng, TRIO))
        elif n % 9 == 1 and done < sandwiches:
            a, b = pairs[done % len(pairs)]
            events.append(sandwich_hand(n, a, b, "p-t", early=done))
            done += 1
        else:
            events.append(honest_hand(n, rng))
    return events


@pytest.mark.parametrize(
    ("case", "sandwiches", "seed", "flagged"),
    [
        ("trio spreads 2 re-raises per pair", 6, 1, True),
        ("trio spreads re-raises, other seed", 6, 2, True),
        ("trio spreads 3 re-raises per pair", 9, 3, True),
        ("three honest hunters of one big bounty", 0, 1, False),
        ("three honest hunters, other seed", 0, 2, False),
        ("hunters with one sandwich pair only", 1, 4, False),
    ],
)
def test_group_test(case: str, sandwiches: int, seed: int, flagged: bool) -> None:
    det, state = BountyCollusion(), TtlState()
    found: list[Finding] = []
    for event in group_day(sandwiches, seed):
        state.advance(event.time)
        found.extend(det.detect(event, state))
    # the near misses are real near misses: every hunter's co-entry contrast on p-t is strong
    trn = state.get(("trn-1", "bounty"))
    for pid in TRIO:
        contrast = trn.entry_contrast(pid, "p-t")
        assert contrast is not None and contrast.p_value < 0.01, case
    if not flagged:
        assert found == [], case
        return
    groups = [f for f in found if len(f.player_ids) == 3]
    assert groups, case
    flag = groups[0]
    assert flag.player_ids == TRIO
    assert flag.evidence.details["target"] == "p-t"
    assert flag.evidence.details["group"] == list(TRIO)
    assert flag.dedupe_key == "trn-1:p-a,p-b,p-c"
    m = flag.evidence.measures
    assert isinstance(m["reraises"], int) and isinstance(m["expected_reraises"], float)
    assert m["reraises"] >= 5 and m["reraises"] > 3 * m["expected_reraises"]
    assert isinstance(m["p_value_bonferroni"], float) and m["p_value_bonferroni"] < 0.01
    assert "as a group" in flag.evidence.summary


def test_planning_chat_and_play_share_one_flag_identity() -> None:
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
    events: list[AnyEvent] = list(tournament(colluding_every=8, hands=200))
    events.insert(2, plan)
    found = run(events)
    chat_only = [f for f in found if f.evidence.kind == "bounty_planning_chat"]
    play = [f for f in found if f.evidence.kind == "bounty_targeting"]
    assert chat_only and play
    assert chat_only[0].severity == "low" and play[0].severity == "high"
    assert chat_only[0].tournament_id == "trn-1"
    assert chat_only[0].dedupe_key == play[0].dedupe_key == "trn-1:p-a,p-b"
    assert chat_only[0].identity == play[0].identity


def isolation_hand(n: int, a: str, b: str, target: str, early: int = 0) -> HandEvent:
    """The isolate tactic: one member opens, the partner flat-calls so the target, still to
    act, is caught between them and calls; the rest fold. No re-raise anywhere."""
    others = [p for p in PLAYERS if p not in (a, b, target)]
    k = early % len(others)
    others = others[k:] + others[:k]
    acts: list[Act] = [(p, "fold", 0) for p in others[:2]]
    acts += [(a, "raise", 250), (b, "call", 250)]
    acts += [(p, "fold", 0) for p in others[2:]]
    acts += [(target, "call", 250)]
    return make_hand(n, acts)


def isolating_tournament(every: int, hands: int = 400, seed: int = 3) -> list[HandEvent]:
    rng = random.Random(seed)
    out: list[HandEvent] = []
    for n in range(hands):
        if n % every == 0:
            a, b = ("p-a", "p-b") if n % 2 else ("p-b", "p-a")
            out.append(isolation_hand(n, a, b, "p-t", early=n // every))
        else:
            out.append(honest_hand(n, rng))
    return out


def test_a_pair_that_isolates_by_flat_calls_is_flagged_on_play_alone() -> None:
    found = run(isolating_tournament(every=8))
    assert found, "a pair flat-calling each other's opens around one target should flag"
    first = found[0]
    assert first.player_ids == ("p-a", "p-b")
    assert first.evidence.details["target"] == "p-t"
    m = first.evidence.measures
    assert m["pair_move"] == "flat-called"
    assert isinstance(m["flat_calls"], int) and m["flat_calls"] >= 5
    assert "flat-called each other's opens" in first.evidence.summary
    assert first.message_ids == ()  # play alone: no planning chat


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_honest_tables_never_flag_by_flat_calls(seed: int) -> None:
    assert run(tournament(colluding_every=None, hands=600, seed=seed)) == []


def _run_with(det: BountyCollusion, events: Iterable[AnyEvent]) -> list[Finding]:
    state, found = TtlState(), []
    for event in events:
        state.advance(event.time)
        found.extend(det.detect(event, state))
    return found


# The field-wide tests (re-raises, flat calls over every pair) switched off, so only the
# screened test can flag: a pair the co-entry screen picked, tested against the screened pairs.
_SCREENED_ONLY = {"alpha": 0.0, "alpha_with_plan": 0.0}


def test_a_quiet_pair_is_found_by_the_screened_test_against_few_pairs() -> None:
    found = _run_with(BountyCollusion(**_SCREENED_ONLY), isolating_tournament(every=10))
    assert found, "a pair converging on p-t and flat-calling each other should flag"
    first = found[0]
    assert first.player_ids == ("p-a", "p-b")
    assert first.evidence.details["target"] == "p-t"
    m = first.evidence.measures
    # the family is the screened pairs, never fewer than the floor
    assert m["candidate_pairs"] == BountyCollusion().min_screened_family
    p = m["p_value_bonferroni"]
    assert isinstance(p, float) and p < BountyCollusion().alpha_screened


@pytest.mark.parametrize("seed", [1, 2])
def test_honest_hunters_converge_but_the_screened_test_needs_answers(seed: int) -> None:
    """Three honest hunters of one big bounty pass the co-entry screen (each joins pots far
    more while p-t is live) but never answer each other's opens unlike anybody else's."""
    det, state = BountyCollusion(**_SCREENED_ONLY), TtlState()
    found: list[Finding] = []
    for event in group_day(0, seed):
        state.advance(event.time)
        found.extend(det.detect(event, state))
    assert found == []
    assert state.get(("trn-1", "bounty")).screened, "the hunters should have passed the screen"


def test_a_whipsawing_pair_without_a_target_is_not_screened_in() -> None:
    """A pair re-raising each other around a different victim each time answers each other
    strongly but converges on nobody: the screened test needs a target on its own."""
    assert _run_with(BountyCollusion(**_SCREENED_ONLY), _whipsaw_random_victims()) == []


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5])
def test_honest_tables_never_flag_by_the_screened_test(seed: int) -> None:
    det = BountyCollusion(**_SCREENED_ONLY)
    assert _run_with(det, tournament(colluding_every=None, hands=600, seed=seed)) == []


def test_evidence_gives_the_innocent_reading_to_rule_out() -> None:
    flat = run(isolating_tournament(every=8))[0].evidence.details["innocent_reading"]
    reraise = run(tournament(colluding_every=8))[0].evidence.details["innocent_reading"]
    assert isinstance(flat, str) and "call each other's opens" in flat and "p-t" in flat
    assert isinstance(reraise, str) and "3-bet light" in reraise and "p-t" in reraise
