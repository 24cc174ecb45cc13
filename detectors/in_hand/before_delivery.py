"""In-hand influence judged before delivery: the chat check's finding for a message sent while
a hand is in play at the sender's table.

The stream (`hand_watch`) flags such a message after the fact, the worst of it once the hand
history shows who held what; by then the table has read it. The chat server knows more at the
moment of sending than the stream does live: which hand is in play and whether the sender is
still deciding, folded, all in or not dealt in. With that, the same reading of the words
(`card_talk`) and the same rules (`verdicts.before_delivery_verdict`) give a finding the chat
check can act on before anyone reads the message; the policy decides whether it is held until
the hand ends or refused (`rules.chat_check_policy`).
"""

from __future__ import annotations

from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import Evidence, Finding
from railbird.detectors.in_hand.verdicts import SenderStatus, before_delivery_verdict

DETECTOR = "in_hand_influence"
_SCORE = {"critical": 0.97, "high": 0.85, "medium": 0.6, "low": 0.5}


def judge_before_delivery(message: ChatEvent, hand_id: str, status: SenderStatus) -> Finding | None:
    """The in-hand influence finding for `message`, sent during `hand_id` by a sender whose
    part in the hand is `status`; None when the message cannot sway the hand."""
    verdict = before_delivery_verdict(
        message.kind, message.text, status, private=message.channel == "private"
    )
    if verdict is None:
        return None
    return Finding(
        detector=DETECTOR,
        category="in_hand_influence",
        severity=verdict.severity,
        score=_SCORE[verdict.severity],
        ts=message.ts,
        player_ids=(message.player_id,),
        table_id=message.table_id,
        tournament_id=message.tournament_id,
        hand_id=hand_id,
        message_ids=(message.message_id,),
        dedupe_key=message.message_id,
        evidence=Evidence(
            kind=verdict.kind,
            summary=f"{verdict.summary} (hand {hand_id})",
            event_ids=(message.message_id,),
            measures={"hand_id": hand_id, "sender_status": status, **verdict.extra},
        ),
    )
