"""A whole simulated day: ordering, ids, the contract, chips, and the truth file's promises."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

import pytest

from railbird.detectors.events import event_from_dict
from railbird.sim.config import SimConfig
from railbird.sim.violations import CHAT_CATEGORIES
from tests.sim.days import Records, events_and_truth

DAY = SimConfig(
    seed=2,
    tournaments=2,
    players_per_tournament=90,
    cash_tables=2,
    hours=1.25,
    violation_scale=2.0,
)


@pytest.fixture(scope="module")
def day() -> tuple[Records, Records]:
    return events_and_truth(DAY)


def _time(event: dict[str, Any]) -> str:
    return str(event["ended_at"] if event["type"] == "hand" else event["ts"])


def test_events_are_time_ordered(day: tuple[Records, Records]) -> None:
    times = [_time(e) for e in day[0]]
    assert times == sorted(times)
    assert len(times) > 5_000


def test_ids_are_unique(day: tuple[Records, Records]) -> None:
    keys = Counter(e.get("message_id") or e.get("event_id") or e["hand_id"] for e in day[0])
    assert keys.most_common(1)[0][1] == 1
    prefixes = {k.split("-")[0] for k in keys}
    assert prefixes == {"m", "e", "h"}


def test_every_event_matches_the_contract(day: tuple[Records, Records]) -> None:
    kinds: Counter[str] = Counter()
    for event in day[0]:
        parsed = event_from_dict(event)
        kinds[type(parsed).__name__] += 1
        if event["type"] == "chat":
            assert (event["channel"] == "private") == (event["recipient_id"] is not None)
            if event["channel"] == "private":
                assert event["table_id"] is None
    assert set(kinds) == {"ChatEvent", "TableEvent", "HandEvent"}


def test_table_lifecycle_actions_all_occur(day: tuple[Records, Records]) -> None:
    actions = Counter(e["action"] for e in day[0] if e["type"] == "table")
    for action in (
        "join",
        "leave",
        "sit_out",
        "sit_in",
        "disconnect",
        "reconnect",
        "timeout",
        "hand_start",
        "hand_end",
    ):
        assert actions[action] > 0, action
    assert actions["hand_start"] == actions["hand_end"]
    chat = Counter((e["channel"], e["kind"]) for e in day[0] if e["type"] == "chat")
    for key in (
        ("table", "text"),
        ("table", "emoji"),
        ("private", "text"),
        ("lobby", "text"),
        ("tournament", "text"),
    ):
        assert chat[key] > 0, key


def test_hand_events_follow_their_start_and_end(day: tuple[Records, Records]) -> None:
    seen: dict[str, str] = {}
    for event in day[0]:
        if event["type"] == "table" and event["action"] in ("hand_start", "hand_end"):
            seen[event["hand_id"]] = seen.get(event["hand_id"], "") + event["action"][5]
        elif event["type"] == "hand":
            assert seen[event["hand_id"]] == "se"  # start, end, then the history
            dealt = {s["player_id"] for s in event["seats"]}
            assert dealt


def test_tournament_chips_are_conserved(day: tuple[Records, Records]) -> None:
    latest: dict[str, dict[str, int]] = defaultdict(dict)
    players: dict[str, set[str]] = defaultdict(set)
    for event in day[0]:
        trn = event.get("tournament_id")
        if trn is None:
            continue
        if event["type"] == "table" and event["action"] == "join":
            players[trn].add(event["player_id"])
        if event["type"] != "hand":
            continue
        after = {s["player_id"]: s["stack"] for s in event["seats"]}
        put: Counter[str] = Counter()
        for action in event["actions"]:
            put[action["player_id"]] += action["amount"]
        for win in event["winners"]:
            after[win["player_id"]] += win["amount"]
        top = max(put, key=put.__getitem__)  # an uncalled bet goes back to whoever made it
        after[top] += sum(put.values()) - sum(w["amount"] for w in event["winners"])
        for pid, amount in put.items():
            after[pid] -= amount
        assert min(after.values()) >= 0
        latest[trn].update(after)
    assert len(latest) == DAY.tournaments
    for trn, stacks in latest.items():
        total = sum(stacks.values()) + DAY.starting_stack * len(players[trn] - set(stacks))
        assert total == DAY.players_per_tournament * DAY.starting_stack


def test_every_category_is_injected_at_default_rates(day: tuple[Records, Records]) -> None:
    found = Counter(t["category"] for t in day[1] if "category" in t)
    expected = (
        *CHAT_CATEGORIES,
        "in_hand_influence",
        "coordinated_sit_out",
        "bounty_collusion",
        "chip_dumping",
        "soft_play",
    )
    for category in expected:
        assert found[category] > 0, category
    kinds = {t["kind"] for t in day[1] if t.get("category") == "in_hand_influence"}
    assert len(kinds) >= 4


def test_truth_names_existing_messages_with_their_context(day: tuple[Records, Records]) -> None:
    events, truth = day
    chats = {e["message_id"]: e for e in events if e["type"] == "chat"}
    hands = {e["hand_id"]: e for e in events if e["type"] == "hand"}
    for record in truth:
        if "message_id" in record:
            assert record["message_id"] in chats, record
        if record.get("category") == "in_hand_influence":
            message, hand = chats[record["message_id"]], hands[record["hand_id"]]
            assert hand["started_at"] < message["ts"] < hand["ended_at"]
            if record["kind"] == "hole_card_leak":
                seat = next(s for s in hand["seats"] if s["player_id"] == message["player_id"])
                assert seat["hole_cards"]
        if "accept" in record:
            assert record["category"] in record["accept"]


def test_group_truth_is_sorted_and_acted(day: tuple[Records, Records]) -> None:
    groups = [t for t in day[1] if "player_ids" in t and "accept" in t and "message_id" not in t]
    assert {g["category"] for g in groups} >= {"coordinated_sit_out", "bounty_collusion"}
    for group in groups:
        assert group["player_ids"] == sorted(group["player_ids"])
        assert 2 <= len(group["player_ids"]) <= 3
    bounty = [g for g in groups if g["category"] == "bounty_collusion"]
    assert all(g["target"] not in g["player_ids"] for g in bounty if g["target"])
    assert any(g["acts"] >= 3 and g["first_violation_ts"] for g in groups)


def test_hard_negatives_are_present_and_clean(day: tuple[Records, Records]) -> None:
    events, truth = day
    negatives = Counter(t["hard_negative"] for t in truth if "hard_negative" in t)
    for kind in (
        "scheduled_break",
        "mass_disconnect",
        "dry_side_pot_checkdown",
        "banter",
        "post_hand_card_talk",
    ):
        assert negatives[kind] > 0, kind
    flagged = {t["message_id"] for t in truth if "category" in t and "message_id" in t}
    clean = {
        t["message_id"]
        for t in truth
        if t.get("hard_negative") in ("banter", "post_hand_card_talk")
    }
    assert not flagged & clean
    starts = {e["hand_id"]: e["ts"] for e in events if e.get("action") == "hand_start"}
    chats = {e["message_id"]: e for e in events if e["type"] == "chat"}
    hands = {e["hand_id"]: e for e in events if e["type"] == "hand"}
    for record in truth:
        if record.get("hard_negative") == "post_hand_card_talk":
            said = chats[record["message_id"]]["ts"]
            assert said > hands[record["hand_id"]]["ended_at"]
            later = [ts for ts in starts.values() if ts > hands[record["hand_id"]]["ended_at"]]
            table_starts = [
                starts[h]
                for h, e in hands.items()
                if e["table_id"] == hands[record["hand_id"]]["table_id"]
                and starts[h] > hands[record["hand_id"]]["ended_at"]
            ]
            assert later is not None
            assert not table_starts or min(table_starts) > said


def _table_chat_in_play(events: Records) -> list[tuple[dict[str, Any], str | None]]:
    """Every table-channel message with the hand in play at its table when it was said."""
    in_play: dict[str, str] = {}
    said: list[tuple[dict[str, Any], str | None]] = []
    for event in events:
        if event["type"] == "table" and event["action"] == "hand_start":
            in_play[event["table_id"]] = event["hand_id"]
        elif event["type"] == "table" and event["action"] == "hand_end":
            in_play.pop(event["table_id"], None)
        elif event["type"] == "chat" and event["channel"] == "table":
            said.append((event, in_play.get(event["table_id"])))
    return said


def test_table_chat_during_a_hand_is_labelled_by_the_house_rule(
    day: tuple[Records, Records],
) -> None:
    events, truth = day
    labels = {t["message_id"]: t for t in truth if "message_id" in t}
    during: Counter[str] = Counter()
    for message, hand_id in _table_chat_in_play(events):
        label = labels.get(message["message_id"])
        if hand_id is None:
            assert label is None or label.get("category") != "in_hand_influence"
            continue
        assert label is not None, message  # nothing said during a hand goes unlabelled
        if "category" in label:  # a violation: it names the hand, and in-hand flags count
            assert label["hand_id"] == hand_id
            assert "in_hand_influence" in label["accept"]
        else:  # honest: small talk only, never an emoji or a SnapCam
            assert label["hard_negative"] == "in_hand_small_talk"
            assert label["hand_id"] == hand_id
            assert message["kind"] == "text"
        during[label.get("category") or label["hard_negative"]] += 1
    assert during["in_hand_small_talk"] > 100
    assert during["in_hand_influence"] > 5


def test_in_hand_kinds_name_who_spoke(day: tuple[Records, Records]) -> None:
    events, truth = day
    chats = {e["message_id"]: e for e in events if e["type"] == "chat"}
    dealt = {e["hand_id"]: {s["player_id"] for s in e["seats"]} for e in events if "seats" in e}
    roles: Counter[str] = Counter()
    for record in truth:
        if record.get("category") != "in_hand_influence":
            continue
        message = chats[record["message_id"]]
        seated = message["player_id"] in dealt[record["hand_id"]]
        assert record["speaker"] == ("folded_player" if seated else "railbird")
        if message["channel"] == "table" and not seated:
            assert record["kind"] == "railbird"  # railbird advice is `railbird`, not `advice`
        if record["kind"] == "private":
            assert message["recipient_id"] in dealt[record["hand_id"]]
        roles[record["speaker"]] += 1
    assert roles["railbird"] > 0 and roles["folded_player"] > 0


def test_honest_emoji_during_a_hand_are_off_the_table(day: tuple[Records, Records]) -> None:
    events, truth = day
    reactions = {t["message_id"] for t in truth if t.get("hard_negative") == "other_table_reaction"}
    seat_of: dict[str, str] = {}
    in_play: set[str] = set()
    off_table_in_hand = 0
    for event in events:
        if event["type"] == "table":
            if event["action"] == "join":
                seat_of[event["player_id"]] = event["table_id"]
            elif event["action"] == "hand_start":
                in_play.add(event["table_id"])
            elif event["action"] == "hand_end":
                in_play.discard(event["table_id"])
        elif event["type"] == "chat" and event["message_id"] in reactions:
            assert event["channel"] in ("tournament", "private")
            if event["kind"] == "emoji" and seat_of.get(event["player_id"]) in in_play:
                off_table_in_hand += 1
    assert off_table_in_hand > 0
