"""What a message sent during a hand amounts to: the in-hand influence detector's verdicts.

Pure functions of the message and, after the hand, of its history (who held what, who had
folded when): the detector (`in_hand_influence`) keeps the hands and their
messages in state and turns a verdict into a finding. Apart so that the rules of the house
policy on hands in play read in one place, without the state keeping around them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Literal, get_args

from railbird.detectors.events import MessageKind
from railbird.detectors.findings import MeasureValue, Severity
from railbird.detectors.in_hand.card_talk import CardMention, CardTalk, emoji_count, poker_talk

# The sender's part in the hand in play at their table, as the chat server knows it: dealt in
# and still deciding, folded, all in (no decision left, still in the pot), or not dealt in (a
# railbird watching, a player sitting out).
SenderStatus = Literal["playing", "folded", "all_in", "not_dealt"]
SENDER_STATUSES: tuple[str, ...] = get_args(SenderStatus)


@dataclass(frozen=True, slots=True)
class Verdict:
    severity: Severity
    kind: str  # evidence kind
    summary: str
    extra: dict[str, MeasureValue] = field(default_factory=dict)


@dataclass(slots=True)
class InHandMessage:
    message_id: str
    ts: datetime
    player_id: str
    kind: MessageKind
    text: str
    private: bool
    recipient_id: str | None
    talk: CardTalk
    railbird: bool
    in_grace: bool
    live: Severity | None = None


def live_verdict(m: InHandMessage) -> Verdict | None:
    """At the message, with the hand in play: only talk clearly about the hand, or a railbird's
    emoji or SnapCam. Talk in the hand's first seconds waits for the history (it may be about
    the previous hand), and so does anything weaker."""
    if m.in_grace:
        return None
    who = _role(m, folded=None)
    if m.kind != "text":
        if not m.railbird:
            return None
        return Verdict("medium", f"{m.kind}_during_hand", f"{who} sent {_what(m)}")
    talk = m.talk
    if talk.strong or (m.railbird and (talk.imperative or talk.names_cards)):
        kind = "private_card_talk" if m.private else _talk_kind(talk)
        return Verdict("high", kind, f"{who} said '{talk.describe()}'")
    return None


def retro_verdict(
    m: InHandMessage,
    holdings: dict[str, tuple[str, ...]],
    folds: dict[str, datetime],
    previous: dict[str, tuple[str, ...]],
) -> Verdict | None:
    """With the hand's history (`holdings` this hand, `previous` the last one, `folds` when
    each player folded): naming one's own folded cards or a live player's is critical, and
    weaker talk flags once it is known the speaker had folded or was a railbird."""
    folded_at = folds.get(m.player_id)
    folded = folded_at is not None and folded_at <= m.ts
    who = _role(m, folded)
    own = holdings.get(m.player_id)
    talk = m.talk
    hits = [x for x in talk.mentions if own and _specific(x, talk) and x.matches(own)]
    if folded and own and not hits:
        # "i let 72 go": a bare rank pair is a leak only when it is exactly the folded hand
        hits = [x for x in talk.loose if x.matches(own)]
    stale = [x for x in talk.mentions if (p := previous.get(m.player_id)) and x.matches(p)]
    if m.in_grace and stale and not hits:
        return None  # talk about the previous hand, sent as this one was dealt
    if folded and own and hits:
        cards = " ".join(own)
        summary = (
            f"{who} named own folded hole cards ({cards}) as '{hits[0].text}' while hand "
            f"was in play (folded at {folded_at:%H:%M:%S})"
        )
        extra: dict[str, MeasureValue] = {"hole_cards": list(own), "folded_at": _iso(folded_at)}
        return Verdict("critical", "hole_card_leak", summary, extra)
    live = [
        p
        for p, cards in holdings.items()
        if p != m.player_id and (folds.get(p) is None or folds[p] > m.ts)
        for x in talk.mentions
        if (x.cards or (talk.holds_talk and len(x.ranks) == 2)) and x.matches(cards)
    ]
    if live:
        cards = " ".join(holdings[live[0]])
        summary = f"{who} named live hole cards of {live[0]} ({cards}) while hand was in play"
        extra = {"hole_cards": list(holdings[live[0]]), "cards_of": live[0]}
        return Verdict("critical", "live_cards_named", summary, extra)
    if m.live is not None or not (folded or m.railbird):
        return None
    if m.kind != "text":
        if m.in_grace:
            return None
        return Verdict("medium", f"{m.kind}_during_hand", f"{who} sent {_what(m)}")
    if talk.strong or (not m.in_grace and (talk.imperative or talk.names_cards)):
        kind = "private_card_talk" if m.private else _talk_kind(talk)
        return Verdict("high", kind, f"{who} said '{talk.describe()}'")
    return None


def before_delivery_verdict(
    kind: MessageKind,
    text: str,
    status: SenderStatus,
    private: bool = False,
    max_emoji: int = 3,
) -> Verdict | None:
    """Before anyone reads it, with a hand in play at the sender's table and the sender's part
    in it known: what the message would be if the stream saw it during the hand.

    The stream reads the same words the same way (`card_talk`), but it learns who folded only
    from the history, so it waits; the chat server knows now, and a message that can sway the
    hand is better held than punished. Card talk in any form the stream reads (bare digits
    included: holding them costs a few seconds, and only the history could clear them), reads
    and advice, and hand-strength talk, from anyone, a player still deciding included (their
    own cards sway the others); bare commands from whoever has no decision left to make;
    emoji and SnapCam from a folded player or a railbird. Cards named as another player's
    holding by someone with no decision to make ("bob has AK") is the stream's worst case,
    `live_cards_named`, critical. As in the stream, emoji and SnapCam in a `private` message
    are nobody's reaction at the table, and walls of more than `max_emoji` emoji are spam's."""
    who = _status_role(status)
    if kind != "text":
        if status not in ("folded", "not_dealt") or private:
            return None
        if kind == "emoji" and emoji_count(text) > max_emoji:
            return None
        what = "a SnapCam broadcast" if kind == "snapcam" else f"emoji '{text}'"
        return Verdict("medium", f"{kind}_during_hand", f"{who} sent {what}")
    talk = poker_talk(text)
    if talk is None:
        return None
    said = talk.describe() or ", ".join(m.text for m in talk.loose) or text
    decides = status == "playing"
    if talk.others_cards and talk.names_cards and not decides:
        summary = f"{who} named another player's cards '{said}' while the hand was in play"
        return Verdict("critical", "live_cards_named", summary)
    card_talk = (
        talk.names_cards
        or bool(talk.loose)
        or any(_specific(m, talk) or talk.holds_talk for m in talk.mentions)
    )
    if talk.advice or card_talk or talk.strength or (talk.imperative and not decides):
        if talk.advice:
            verdict_kind = "advice_during_hand"
        elif card_talk:
            verdict_kind = "card_talk_during_hand"
        elif talk.strength:
            verdict_kind = "strength_talk_during_hand"
        else:
            verdict_kind = "action_talk_during_hand"
        return Verdict("high", verdict_kind, f"{who} said '{said}' while the hand was in play")
    return None


def _status_role(status: SenderStatus) -> str:
    return {
        "playing": "player in the hand",
        "folded": "folded player",
        "all_in": "player all in",
        "not_dealt": "railbird",
    }[status]


def _specific(mention: CardMention, talk: CardTalk) -> bool:
    """Two ranks or exact cards, or a single rank said with fold talk ("folded the ace")."""
    return len(mention.ranks) == 2 or bool(mention.cards) or talk.fold_talk


def _talk_kind(talk: CardTalk) -> str:
    if talk.advice:
        return "advice_during_hand"
    return "card_talk_during_hand" if talk.mentions else "action_talk_during_hand"


def _role(m: InHandMessage, folded: bool | None) -> str:
    if m.railbird:
        role = "railbird"
    elif folded:
        role = "folded player"
    else:
        role = "player dealt in"
    return f"{role} {m.player_id}"


def _iso(moment: datetime | None) -> str | None:
    return None if moment is None else moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def _what(m: InHandMessage) -> str:
    return "a SnapCam broadcast" if m.kind == "snapcam" else f"emoji '{m.text}'"
