"""Injected, labelled chat violations at a table: every chat category and in-hand influence.

Each injection writes its truth record next to the message, so the truth file can never name a
message that was not emitted. Rates are per table-hour (see `SimConfig.rates`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from railbird.sim import abuse_lines as abuse
from railbird.sim import influence_lines as influence
from railbird.sim.names import staff_name
from railbird.sim.players import new_player
from railbird.sim.table_view import HandResult

if TYPE_CHECKING:
    import random

    from railbird.sim.players import Player
    from railbird.sim.table import TableRun

CHAT_CATEGORIES = (
    "profanity",
    "harassment",
    "hate",
    "spam",
    "advertising",
    "malicious_link",
    "pii_solicitation",
    "pii_disclosure",
    "impersonation",
)
ACCEPT: dict[str, list[str]] = {
    "profanity": ["profanity", "harassment", "hate"],
    "harassment": ["harassment", "profanity", "hate"],
    "hate": ["hate", "harassment", "profanity"],
    "spam": ["spam"],
    "advertising": ["advertising", "spam"],
    "malicious_link": ["malicious_link", "advertising", "spam"],
    "pii_solicitation": ["pii_solicitation"],
    "pii_disclosure": ["pii_disclosure"],
    "impersonation": ["impersonation", "malicious_link", "pii_solicitation"],
    "in_hand_influence": ["in_hand_influence"],
    "coordinated_sit_out": ["coordinated_sit_out"],
    "bounty_collusion": ["bounty_collusion"],
}
_IN_HAND_KINDS = ("hole_card_leak", "advice", "emoji", "snapcam", "railbird", "private")
_IN_HAND_WEIGHTS = (0.3, 0.18, 0.12, 0.1, 0.14, 0.16)


def label(
    table: TableRun, ms: int, message_id: str, category: str, optional: bool = False, **extra: Any
) -> dict[str, Any]:
    record: dict[str, Any] = {
        "message_id": message_id,
        "category": category,
        "accept": ACCEPT[category],
        "optional": optional,
    }
    record.update(extra)
    table.out.truth(ms, record)
    return record


def railbird(table: TableRun, staff: bool = False) -> Player:
    """An observer account at the table; abusers often post from accounts that never sit."""
    rng = table.rng
    if table.railbirds and not staff and rng.random() < 0.6:
        return rng.choice(table.railbirds)
    bird = new_player(table.out.ids.player(), rng)
    if staff:
        bird.name = staff_name(rng)
    table.railbirds.append(bird)
    if len(table.railbirds) > 4:
        table.railbirds.pop(0)
    return bird


def inject(
    table: TableRun,
    dealt: list[Player],
    result: HandResult,
    start: int,
    end: int,
    folds: dict[str, int],
) -> None:
    rng, cfg = table.rng, table.cfg
    hours = (end - start + 4_000) / 3_600_000
    for category in CHAT_CATEGORIES:
        if rng.random() < cfg.rate(category) * hours:
            _chat(table, category, dealt, start, end)
    if rng.random() < cfg.rate("in_hand_influence") * hours:
        _in_hand(table, dealt, result, start, end, folds)


def _chat(table: TableRun, category: str, dealt: list[Player], start: int, end: int) -> None:
    rng, out = table.rng, table.out
    ms = end + rng.randint(200, 5_000) if rng.random() < 0.6 else rng.randint(start, end)
    toxic = [p for p in dealt if p.toxic]
    speaker = rng.choice(toxic) if toxic and rng.random() < 0.8 else rng.choice(dealt)
    others = [p for p in dealt if p is not speaker] or dealt
    target = rng.choice(others)
    name = (
        target.name if rng.random() < 0.7 else rng.choice(("u", "you", "seat " + str(target.seat)))
    )
    channel, recipient = "table", None

    def post(text: str, at: int, kind: str = "text") -> str:
        private = channel == "private"
        return out.chat(
            at,
            speaker.pid,
            speaker.name,
            text,
            channel=channel,
            table_id=None if private else table.table_id,
            tournament_id=None if private else table.tournament_id,
            recipient_id=recipient,
            kind=kind,
        )

    if category == "spam":
        _spam(table, post, ms)
        return
    if category in ("advertising", "malicious_link") and rng.random() < 0.5:
        speaker = railbird(table)
    if category == "impersonation":
        speaker = railbird(table, staff=rng.random() < 0.8)
    if category in ("impersonation", "pii_solicitation", "malicious_link") and rng.random() < 0.35:
        channel, recipient, name = "private", target.pid, target.name
    text = {
        "profanity": lambda: abuse.profanity(rng, name),
        "harassment": lambda: abuse.harassment(rng, name),
        "hate": lambda: abuse.hate(rng, name),
        "advertising": lambda: abuse.advertising(rng),
        "malicious_link": lambda: abuse.malicious_link(rng),
        "pii_solicitation": lambda: abuse.pii_solicitation(rng, name),
        "pii_disclosure": lambda: abuse.pii_disclosure(rng, name, abuse.real_name(rng)),
        "impersonation": lambda: abuse.impersonation(rng, name),
    }[category]()
    mid = post(text, ms)
    record = label(table, ms, mid, category)
    if channel == "table":
        table.carry(ms, mid, record)


def _spam(table: TableRun, post: Any, ms: int) -> None:
    rng = table.rng
    style = rng.randrange(4)
    if style == 0:  # flood: many short lines within seconds
        count, spacing, texts = rng.randint(7, 11), (300, 1_100), None
    elif style == 1:  # the same line again and again
        count, spacing, texts = (
            rng.randint(4, 6),
            (4_000, 14_000),
            abuse.flood_line(rng)
            + (" " + abuse.shouting(rng).lower() if rng.random() < 0.5 else ""),
        )
    elif style == 2:  # emoji walls
        count, spacing, texts = rng.randint(5, 8), (400, 1_200), abuse.emoji_spam(rng)
    else:  # shouting
        count, spacing, texts = rng.randint(3, 5), (2_000, 9_000), None
    at = ms
    for i in range(count):
        if style == 0:
            text = abuse.flood_line(rng)
        elif style == 3:
            text = abuse.shouting(rng)
        else:
            text = texts or ""
        mid = post(text, at, "emoji" if style == 2 else "text")
        table.carry(
            at, mid, label(table, at, mid, "spam", optional=i < (3 if style in (0, 2) else 1))
        )
        at += rng.randint(*spacing)


def _in_hand(
    table: TableRun,
    dealt: list[Player],
    result: HandResult,
    start: int,
    end: int,
    folds: dict[str, int],
) -> None:
    rng, out = table.rng, table.out
    if end - start < 8_000:
        return
    cards = {s["player_id"]: tuple(s["hole_cards"]) for s in result.hand["seats"]}
    by_id = {p.pid: p for p in dealt}
    folders = [pid for pid, ms in folds.items() if ms + 2_500 < end - 1_500 and not by_id[pid].away]
    kind = rng.choices(_IN_HAND_KINDS, _IN_HAND_WEIGHTS)[0]
    if not folders and kind != "railbird":
        kind = "railbird"
    lo = start
    folder = rng.choice(folders) if folders else None
    if folder is not None:
        lo = folds[folder]
    ms = rng.randint(lo + 500, end - 1_000) if end - 1_000 > lo + 500 else end - 1_000
    live = [p for p in dealt if folds.get(p.pid, end + 1) > ms]
    if len(live) < 2:
        return
    victim = rng.choice(live)
    channel, recipient, text_kind = "table", None, "text"
    speaker: Player
    if (
        kind == "railbird"
        or (folder is None)
        or (kind in ("advice", "private") and rng.random() < 0.3)
    ):
        speaker = railbird(table)
        if kind not in ("advice", "private"):
            kind = "railbird"
    else:
        speaker = by_id[folder]
    own = cards.get(speaker.pid) if speaker.pid in by_id else None
    if kind == "hole_card_leak":
        text = influence.in_hand_line(rng, influence.LEAK, victim.name, own)
    elif kind == "advice":
        text = influence.in_hand_line(rng, influence.ADVICE, victim.name, None)
    elif kind == "emoji":
        text, text_kind = rng.choice(influence.SIGNAL_EMOJI), "emoji"
    elif kind == "snapcam":
        text, text_kind = "", "snapcam"
    else:
        other = rng.choice([p for p in live if p is not victim])
        text = _tell(rng, speaker, own, victim, other, cards)
        if kind == "private":
            channel, recipient = "private", victim.pid
    private = channel == "private"
    mid = out.chat(
        ms,
        speaker.pid,
        speaker.name,
        text,
        channel=channel,
        table_id=None if private else table.table_id,
        tournament_id=None if private else table.tournament_id,
        recipient_id=recipient,
        kind=text_kind,
    )
    seated = speaker.pid in by_id
    label(
        table,
        ms,
        mid,
        "in_hand_influence",
        hand_id=result.hand["hand_id"],
        # who said it decides the kind: anything typed into the table by an observer is
        # `railbird` (advice included); a private message keeps `private`, its speaker below
        kind=kind if seated or private else "railbird",
        content=kind,
        speaker="folded_player" if seated else "railbird",
        player_ids=[speaker.pid],
        table_id=table.table_id,
    )


def _tell(
    rng: random.Random,
    speaker: Player,
    own: tuple[str, ...] | None,
    victim: Player,
    other: Player,
    cards: dict[str, tuple[str, ...]],
) -> str:
    roll = rng.random()
    if own and roll < 0.35:
        return influence.in_hand_line(rng, influence.LEAK, victim.name, (own[0], own[1]))
    if roll < 0.7:
        held = cards[other.pid]
        return influence.in_hand_line(rng, influence.TELL_CARDS, other.name, (held[0], held[1]))
    return influence.in_hand_line(rng, influence.ADVICE, victim.name, None)
