"""What the console's pages show, computed from stored rows: highlighted chat, a hand's
timeline, a player's flags over time, a tournament's suspected groups. No I/O here."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from markupsafe import Markup, escape

from railbird.detectors.collusion_categories import COLLUSION_CATEGORIES, INNOCENT_READINGS

# Measures whose values are the words or strings a flag objects to, by detector family.
_OFFENDING_MEASURES = ("originals", "terms", "talk", "cards_named", "hosts", "urls")


def offending_terms(flag: dict[str, Any]) -> list[str]:
    """The strings a flag's evidence names as offending, longest first (so a phrase is marked
    before a word inside it)."""
    measures = (flag.get("evidence") or {}).get("measures") or {}
    found: set[str] = set()
    for name in _OFFENDING_MEASURES:
        value = measures.get(name)
        values = value if isinstance(value, list) else [value]
        found |= {v for v in values if isinstance(v, str) and len(v) >= 2}
    return sorted(found, key=lambda t: (-len(t), t))


def highlight(text: str, terms: Sequence[str]) -> Markup:
    """`text`, HTML-escaped, with every case-insensitive occurrence of `terms` in <mark>."""
    if not terms:
        return escape(text)
    pattern = re.compile("|".join(re.escape(t) for t in terms), re.IGNORECASE)
    out: list[str] = []
    last = 0
    for match in pattern.finditer(text):
        out.append(str(escape(text[last : match.start()])))
        out.append(f"<mark>{escape(match.group(0))}</mark>")
        last = match.end()
    out.append(str(escape(text[last:])))
    return Markup("".join(out))


def parse_ts(value: Any) -> datetime | None:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=UTC)
    if isinstance(value, str) and value:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    return None


@dataclass(frozen=True, slots=True)
class TimelineStep:
    """One line of a hand's timeline: an action, or a chat message sent during the hand."""

    ts: datetime
    street: str
    who: str
    what: str
    is_message: bool = False
    flagged: bool = False


def hand_timeline(
    hand: dict[str, Any], chat: Iterable[dict[str, Any]], flagged_ids: set[str]
) -> dict[str, Any]:
    """Who was dealt in (seat, stack, cards), each action in order with the street, who folded
    when, the board, and the messages sent while the hand was in play, in time order."""
    started, ended = parse_ts(hand.get("started_at")), parse_ts(hand.get("ended_at"))
    steps = [
        TimelineStep(
            ts=parse_ts(a.get("ts")) or started or datetime.min.replace(tzinfo=UTC),
            street=str(a.get("street", "")),
            who=str(a.get("player_id", "")),
            what=_action_text(a),
        )
        for a in hand.get("actions") or []
    ]
    for m in chat:
        ts = parse_ts(m.get("ts"))
        if ts is None or started is None or ended is None or not started <= ts <= ended:
            continue
        steps.append(
            TimelineStep(
                ts=ts,
                street="",
                who=str(m.get("player_id", "")),
                what=f"{m.get('channel', '')} {m.get('kind', '')}: {m.get('text', '')}",
                is_message=True,
                flagged=m.get("message_id") in flagged_ids,
            )
        )
    steps.sort(key=lambda s: (s.ts, s.is_message))
    folded = {s.who: s.ts for s in steps if not s.is_message and s.what == "fold"}
    return {
        "hand_id": hand.get("hand_id"),
        "started_at": started,
        "ended_at": ended,
        "blinds": f"{hand.get('small_blind', '?')}/{hand.get('big_blind', '?')}",
        "seats": [
            {**seat, "folded_at": folded.get(seat.get("player_id", ""))}
            for seat in hand.get("seats") or []
        ],
        "board": hand.get("board") or [],
        "steps": steps,
        "winners": hand.get("winners") or [],
    }


def _action_text(action: dict[str, Any]) -> str:
    kind = str(action.get("action", ""))
    amount = action.get("to") or action.get("amount")
    return f"{kind} {amount}" if amount and kind not in ("fold", "check") else kind


def flags_by_day(flags: Iterable[dict[str, Any]], days: int = 30) -> list[tuple[str, int]]:
    """(day, count) for the `days` days up to the newest flag, oldest first: the player chart."""
    stamps = [t for t in (parse_ts(f.get("ts")) for f in flags) if t is not None]
    if not stamps:
        return []
    last = max(stamps).date()
    counts = Counter(t.date() for t in stamps)
    return [
        ((last - timedelta(days=n)).isoformat(), counts.get(last - timedelta(days=n), 0))
        for n in range(days - 1, -1, -1)
    ]


def bar_chart(series: Sequence[tuple[str, int]], width: int = 600, height: int = 80) -> Markup:
    """A small inline SVG bar chart (no script, no other host), titled for screen readers."""
    if not series:
        return Markup('<p class="muted">No flags.</p>')
    top = max(n for _d, n in series) or 1
    step = width / len(series)
    bars = []
    for i, (day, n) in enumerate(series):
        h = round((height - 14) * n / top)
        bars.append(
            f'<rect x="{i * step + 1:.1f}" y="{height - 12 - h}" width="{max(step - 2, 1):.1f}" '
            f'height="{h}"><title>{escape(day)}: {n} flag(s)</title></rect>'
        )
    label = f"Flags per day, {series[0][0]} to {series[-1][0]}; most in a day: {top}"
    return Markup(
        f'<svg class="chart" role="img" aria-label="{escape(label)}" viewBox="0 0 {width} '
        f'{height}" width="{width}" height="{height}">{"".join(bars)}'
        f'<text x="0" y="{height - 1}">{escape(series[0][0])}</text>'
        f'<text x="{width}" y="{height - 1}" text-anchor="end">{escape(series[-1][0])}</text>'
        "</svg>"
    )


def collusion_groups(flags: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """A tournament's group flags as suspected groups, strongest first: one entry per group of
    players and category, with its best flag's target, measures, evidence hands and the
    innocent reading to rule out."""
    groups: dict[tuple[str, tuple[str, ...]], list[dict[str, Any]]] = {}
    for flag in flags:
        if flag.get("category") not in COLLUSION_CATEGORIES:
            continue
        key = (str(flag["category"]), tuple(sorted(flag.get("player_ids") or ())))
        groups.setdefault(key, []).append(flag)
    ranked = []
    for (category, players), found in groups.items():
        best = max(found, key=lambda f: (f.get("score", 0), str(f.get("ts"))))
        evidence = best.get("evidence") or {}
        ranked.append(
            {
                "category": category,
                "players": players,
                "score": best.get("score", 0),
                "severity": best.get("severity"),
                "flag": best,
                "flags": sorted(found, key=lambda f: str(f.get("ts"))),
                "target": evidence.get("target"),
                "measures": evidence.get("measures") or {},
                "hands": [e for e in evidence.get("event_ids") or [] if str(e).startswith("h-")],
                "innocent_reading": INNOCENT_READINGS[category],
            }
        )
    ranked.sort(key=lambda g: (-float(g["score"]), g["category"], g["players"]))
    return ranked
