"""Watches hands in play and the talk during them: the in-hand influence detector's work.

`in_hand_influence` is this watch with its name, keying and the channels it reads.

House policy: influencing a hand in play or its participants by discussion, emoji or SnapCam is
prohibited, whoever does it (a player at the table, a folded player, a railbird watching, or
someone messaging a player privately). A generic chat filter cannot see this: "folded 77" is
fine after the hand and a violation during it.

Two passes, one flag: *live*, at the chat event, when a hand is in play at that table (between
`hand_start` and `hand_end`) and the talk is clearly about the hand (severity high; emoji or
SnapCam from a railbird medium); *retrospective*, when the hand history arrives, which knows who
had folded by the message time and who held what. Then a message naming the speaker's own folded
cards becomes `hole_card_leak` (critical) and one naming a live player's cards `live_cards_named`
(critical); the finding keeps the message id as `dedupe_key`, so the flag id stays the same and
the pipeline re-emits it only because the severity rose. Messages too weak to flag live (bare
emoji from a dealt-in player, "jam it") are flagged retrospectively only if the speaker had
folded by then.

Talk in the first `grace` of a hand is treated as the tail of the previous hand ("nh", "had 77"
sent as the next hand is dealt) and waits for the retrospective, which checks it against the
speaker's previous holding.

Table chat and private messages alike: a private message is read against the hand of its
recipient (the newest one they were dealt into, while it is in play), so its verdicts and flag
are those of the same words said at the table. A stream brings each table the private messages
sent to its players (keyed by hand: `ingest.kafka.topology`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import ClassVar

from railbird.detectors.events import AnyEvent, ChatEvent, HandEvent, TableEvent
from railbird.detectors.findings import SEVERITY_RANK, Evidence, Finding
from railbird.detectors.in_hand.card_talk import CardTalk, emoji_count, poker_talk
from railbird.detectors.in_hand.verdicts import (
    InHandMessage,
    Verdict,
    live_verdict,
    retro_verdict,
)
from railbird.detectors.state import State


@dataclass(slots=True)
class _Hand:
    hand_id: str
    table_id: str
    tournament_id: str | None
    started_at: datetime
    players: frozenset[str]
    messages: list[InHandMessage] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class HandWatch:
    """The hands in play and their messages, turned into findings by the verdicts."""

    name: ClassVar[str]
    # The chat channels read; "private" needs the player -> hand index below (keyed by hand).
    channels: ClassVar[frozenset[str]]
    grace: timedelta = timedelta(seconds=4)
    hand_ttl: timedelta = timedelta(hours=3)
    history_wait: timedelta = timedelta(minutes=15)  # hand_end -> hand history
    max_emoji: int = 3  # longer emoji walls are spam, left to the spam detector
    score_live: float = 0.85
    score_emoji: float = 0.6
    score_critical: float = 0.97

    def detect(self, event: AnyEvent, state: State) -> list[Finding]:
        if isinstance(event, ChatEvent):  # the most frequent event: tested first
            return self._on_chat(event, state)
        if isinstance(event, TableEvent):
            self._on_table(event, state)
            return []
        return self._on_hand(event, state)

    # -- table state -----------------------------------------------------------------------
    def _on_table(self, event: TableEvent, state: State) -> None:
        if event.action == "hand_start" and event.hand_id:
            self._end(event.table_id, state)  # a hand_end we never saw
            hand = _Hand(
                event.hand_id,
                event.table_id,
                event.tournament_id,
                event.ts,
                frozenset(event.players or ()),
            )
            state.put((event.table_id, "hand"), hand, self.hand_ttl)
            if "private" in self.channels:
                for player in hand.players:
                    where = (event.table_id, event.hand_id)
                    state.put((player, "in_hand"), where, self.hand_ttl)
        elif event.action == "hand_end":
            self._end(event.table_id, state)

    def _end(self, table_id: str, state: State) -> None:
        hand: _Hand | None = state.pop((table_id, "hand"))
        if hand is None:
            return
        state.put((table_id, "ended", hand.hand_id), hand, self.history_wait)
        if "private" not in self.channels:
            return
        for player in hand.players:
            if state.get((player, "in_hand")) == (table_id, hand.hand_id):
                state.pop((player, "in_hand"))

    # -- live ------------------------------------------------------------------------------
    def _on_chat(self, event: ChatEvent, state: State) -> list[Finding]:
        if event.channel not in self.channels:
            return []
        hand = self._hand_for(event, state)
        if hand is None:
            return []
        private = event.channel == "private"
        if event.kind == "text":
            found = poker_talk(event.text)
            if found is None:
                return []
            talk = found
        else:
            talk = CardTalk()
        if event.kind != "text" and (private or emoji_count(event.text) > self.max_emoji):
            return []
        message = InHandMessage(
            event.message_id,
            event.ts,
            event.player_id,
            event.kind,
            event.text,
            private,
            event.recipient_id,
            talk,
            railbird=event.player_id not in hand.players,
            in_grace=event.ts - hand.started_at < self.grace,
        )
        hand.messages.append(message)
        verdict = live_verdict(message)
        if verdict is None:
            return []
        message.live = verdict.severity
        return [self._finding(hand, message, verdict)]

    def _hand_for(self, event: ChatEvent, state: State) -> _Hand | None:
        if event.channel == "table" and event.table_id:
            hand: _Hand | None = state.get((event.table_id, "hand"))
            return hand
        if event.channel == "private" and event.recipient_id:
            where = state.get((event.recipient_id, "in_hand"))
            if where is None:
                return None
            hand = state.get((where[0], "hand"))
            return hand if hand is not None and hand.hand_id == where[1] else None
        return None

    # -- retrospective ---------------------------------------------------------------------
    def _on_hand(self, event: HandEvent, state: State) -> list[Finding]:
        hand: _Hand | None = state.pop((event.table_id, "ended", event.hand_id))
        current: _Hand | None = state.get((event.table_id, "hand"))
        if hand is None and current is not None and current.hand_id == event.hand_id:
            hand = current
        previous = state.get((event.table_id, "holdings")) or {}
        holdings = {s.player_id: s.hole_cards for s in event.seats if s.hole_cards}
        state.put((event.table_id, "holdings"), holdings, self.hand_ttl)
        if hand is None or not hand.messages:
            return []
        folds: dict[str, datetime] = {}
        for action in event.actions:
            if action.action == "fold" and action.ts is not None:
                folds.setdefault(action.player_id, action.ts)
        findings = []
        for m in hand.messages:
            if m.ts >= event.ended_at:
                # Sent after the hand was over: a live stream can deliver a table's chat before
                # the hand's end (another topic, so another partition), but the history knows.
                continue
            verdict = retro_verdict(m, holdings, folds, previous)
            if verdict is None:
                continue
            if m.live is not None and SEVERITY_RANK[verdict.severity] <= SEVERITY_RANK[m.live]:
                continue
            findings.append(self._finding(hand, m, verdict, ts=event.ended_at))
        return findings

    # -- output ----------------------------------------------------------------------------
    def _finding(
        self, hand: _Hand, m: InHandMessage, verdict: Verdict, ts: datetime | None = None
    ) -> Finding:
        severity, kind, summary = verdict.severity, verdict.kind, verdict.summary
        score = {"critical": self.score_critical, "high": self.score_live}.get(
            severity, self.score_emoji
        )
        into = (m.ts - hand.started_at).total_seconds()
        where = f"private message to {m.recipient_id}, " if m.private else ""
        return Finding(
            detector=self.name,
            category="in_hand_influence",
            severity=severity,
            score=score,
            ts=ts or m.ts,
            player_ids=(m.player_id,),
            table_id=hand.table_id,
            tournament_id=hand.tournament_id,
            hand_id=hand.hand_id,
            message_ids=(m.message_id,),
            dedupe_key=m.message_id,
            evidence=Evidence(
                kind=kind,
                summary=f"{summary} ({where}hand {hand.hand_id}, {into:.0f}s in)",
                event_ids=(m.message_id, hand.hand_id),
                measures={
                    "hand_id": hand.hand_id,
                    "seconds_into_hand": round(into, 1),
                    "railbird": m.railbird,
                    "private": m.private,
                    "talk": m.talk.describe() or m.kind,
                    "cards_named": [x.text for x in m.talk.mentions],
                    **verdict.extra,
                },
                details={"recipient": m.recipient_id} if m.private else {},
            ),
        )
