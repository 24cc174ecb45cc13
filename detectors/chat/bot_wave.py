"""Who sent one text lately in one scope: the memory behind `repeated_messages`' bot waves.

Every long line is a possible wave, so each one used to be its own state key: a heap push when
it was put and a sweep when it expired, for a text that almost never comes back. A scope's texts
now share one dict (`Texts`) in the state entry `repeated_messages` keeps its players in, each
with the `until` at which a put on every sighting would have let it expire; readers treat it as
gone from then on.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from railbird.detectors.chat.bursts import KEEP_EXTRA, Burst, Emission
from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import Finding, Severity, message_finding
from railbird.detectors.text.fingerprint import strip_digits

# A text's senders, each with at most this many of their messages.
SENDER_HISTORY = 8
WAVE_MAX_PLAYERS = 64

_NEVER = datetime.min.replace(tzinfo=UTC)
# A text's first sighting in the window: (player, ts, message id).
_Sighting = tuple[str, datetime, str]


@dataclass(slots=True)
class Wave:
    messages: dict[str, list[tuple[datetime, str]]]
    # No message is older: while this is inside the window there is nothing to prune. A lower
    # bound is enough (dropping a player may leave it stale-low, which only costs a prune).
    oldest: datetime
    burst: Burst | None = None  # made on the first violation: most texts never form a wave


# A text in `Texts`: (until, what was put).
_Kept = tuple[datetime, "Wave | _Sighting"]
_FOREVER = datetime.max.replace(tzinfo=UTC)
# The member key of the `Texts` in a room: a tuple, so never a player id.
TEXTS = ("texts",)


class Texts(dict[str, _Kept]):
    """A scope's texts, kept as one member of `repeated_messages`' room of the same key, so
    table chat (where the scope is the routing key) gets its players' histories and its texts
    with one state lookup and one entry to keep alive. The room never drops it (`until` is
    never); it drops its own texts whose `until` passed, at most once per `KEEP_EXTRA`, as a
    room of its own would when re-put."""

    __slots__ = ("refresh_by",)
    until = _FOREVER

    def __init__(self) -> None:
        super().__init__()
        self.refresh_by = _NEVER


def texts_of(members: dict[Hashable, Any]) -> Texts:
    """The `Texts` among a room's members (`(scope, "said")`), made on first use."""
    texts: Texts | None = members.get(TEXTS)
    if texts is None:
        texts = members[TEXTS] = Texts()
    return texts


def sight(
    texts: Texts,
    now: datetime,
    text: str,
    sender: _Sighting,
    span: timedelta,
    min_players: int,
) -> Wave | None:
    """Record that `sender` (player, ts, message id) sent `text` in the scope of `texts`; the
    text's wave (every sender in the window), or None while one sender is all there is to
    remember."""
    if now > texts.refresh_by:
        for gone in [k for k, member in texts.items() if member[0] <= now]:
            del texts[gone]
        texts.refresh_by = now + KEEP_EXTRA
    kept = texts.get(text)
    if kept is None or kept[0] <= now:  # the usual case: a text nobody sent lately
        if min_players > 1:  # one sender is no wave: keep a tuple, not a `Wave`
            texts[text] = (now + span, sender)
            return None
        player, ts, message_id = sender
        wave = Wave({player: [(ts, message_id)]}, ts)
    else:
        seen = kept[1]
        if isinstance(seen, Wave):
            wave = seen
        else:
            first, at, first_id = seen
            wave = Wave({first: [(at, first_id)]}, at)
        player, ts, message_id = sender
        messages = wave.messages
        horizon = ts - span
        if wave.oldest <= horizon:  # something may have left the window
            for who in list(messages):
                still = [m for m in messages[who] if m[0] > horizon]
                if still:
                    messages[who] = still
                else:
                    del messages[who]
            wave.oldest = min((m[0] for ms in messages.values() for m in ms), default=ts)
        said = messages.setdefault(player, [])
        if len(said) < SENDER_HISTORY:
            said.append((ts, message_id))
            wave.oldest = min(wave.oldest, ts)
        while len(messages) > WAVE_MAX_PLAYERS:
            del messages[next(iter(messages))]  # `oldest` stays a lower bound: still safe
    texts[text] = (now + span, wave)
    return wave


_SCORES = {"low": 0.6, "medium": 0.75, "high": 0.9, "critical": 0.97}


def wave_findings(
    event: ChatEvent,
    texts: Texts,
    fp: str,
    span: timedelta,
    now: datetime,
    *,
    min_players: int,
    window_seconds: float,
    detector: str,
) -> list[Finding]:
    """The bot-wave flag `event` (whose line's fingerprint is `fp`) raises in the scope of
    `texts`, if its line has now come from `min_players` players within `span`: one flag per
    wave, re-emitted as it grows more severe (2x, 4x the players)."""
    scope = event.table_id or event.tournament_id or event.channel
    player, ts, message_id = event.player_id, event.ts, event.message_id
    sender = (player, ts, message_id)
    line = fp if fp.isalpha() else strip_digits(fp)  # its usual case, without the call
    wave = sight(texts, now, line, sender, span, min_players)
    if wave is None:
        return []
    players = len(wave.messages)
    if players < min_players:
        return []
    ratio = players / min_players
    severity: Severity = "critical" if ratio >= 4 else "high" if ratio >= 2 else "medium"
    burst = wave.burst
    if burst is None:
        burst = wave.burst = Burst()
    if burst.opens(ts, span):  # the sorted id list only when a burst starts
        ordered = sorted((m for ms in wave.messages.values() for m in ms), key=lambda m: m[0])
        ids = [mid for _, mid in ordered]
        emission: Emission | None = burst.start(f"wave:{scope}", ts, ids, severity)
    else:
        emission = burst.extend(ts, message_id, severity, min_players)
    if emission is None:
        return []
    return [
        message_finding(
            event,
            detector=detector,
            category="spam",
            severity=severity,
            score=_SCORES[severity],
            kind="bot_wave",
            summary=f"same text from {players} players within {window_seconds:.0f} s: bot wave",
            measures={"players": players, "window_seconds": window_seconds},
            message_ids=emission.message_ids,
            player_ids=tuple(sorted(wave.messages)),
            dedupe_key=emission.dedupe_key,
        )
    ]
