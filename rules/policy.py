"""The house's escalation ladder: which flag earns which action, given the player's recent record.

Why a ladder: a first mild swear deserves a warning, the third in a day a mute; a folded player
naming their hole cards during a hand costs all communication at once (house rule on hands in
play). Collusion categories are never punished automatically: investigators decide, because most
collusion suspicions are unfounded and a wrong suspension is costly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from railbird.detectors.findings import GROUP_CATEGORIES, SEVERITY_RANK
from railbird.detectors.state import TtlState
from railbird.rules.actions import Action, ActionKind, action_id_for
from railbird.rules.flags import Flag

Step = tuple[ActionKind, timedelta | None]
MIN = timedelta(minutes=1)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)

# category -> steps by strike number (1st, 2nd, 3rd and later) within `strike_window`.
DEFAULT_LADDERS: dict[str, tuple[Step, ...]] = {
    "profanity": (("warn", None), ("mute_chat", 10 * MIN), ("mute_chat", HOUR)),
    "harassment": (("mute_chat", 30 * MIN), ("mute_chat", DAY), ("suspend_communication", 7 * DAY)),
    "hate": (("mute_chat", DAY), ("suspend_communication", 7 * DAY)),
    "spam": (("mute_chat", 5 * MIN), ("mute_chat", 30 * MIN), ("mute_chat", DAY)),
    "advertising": (("mute_chat", HOUR), ("suspend_communication", 7 * DAY)),
    "malicious_link": (("suspend_communication", DAY),),
    "pii_solicitation": (("warn", None), ("mute_chat", HOUR), ("mute_chat", DAY)),
    "pii_disclosure": (("warn", None),),
    "impersonation": (("suspend_communication", DAY), ("suspend_communication", 7 * DAY)),
    "in_hand_influence": (("warn", None), ("mute_chat", HOUR), ("suspend_communication", DAY)),
}
# Categories (or severities) that also open a case for an investigator.
REFER_CATEGORIES = frozenset({"hate", "malicious_link", "impersonation"}) | GROUP_CATEGORIES


@dataclass(frozen=True, slots=True)
class Offence:
    """What the ladder reads of a flag, for one of its players: all an escalation stage
    (`rules.escalation`) needs to be sent, not the whole flag."""

    flag_id: str
    category: str
    severity: str
    ts: datetime
    player_id: str

    @classmethod
    def of(cls, flag: Flag, player_id: str) -> Offence:
        finding = flag.finding
        return cls(flag.flag_id, finding.category, finding.severity, finding.ts, player_id)


@dataclass
class RuleBook:
    """Which action each flag earns: a ladder per category, climbed by strikes in `strike_window`.

    A strike counts when it is at most `strike_window` of event time older than the flag being
    decided (a rolling window over the player's own record). Why rolling and per player rather
    than an expiry on a shared clock: the count then depends only on that player's earlier
    flags, so a ladder split by player over several escalation workers (`rules.escalation`)
    decides exactly as one ladder over the whole site does. A critical flag goes straight to
    its ladder's last step; a category without a ladder earns no restriction, at most a
    referral.
    """

    ladders: dict[str, tuple[Step, ...]] = field(default_factory=lambda: dict(DEFAULT_LADDERS))
    strike_window: timedelta = DAY
    _strikes: TtlState = field(default_factory=TtlState, repr=False)

    @property
    def strikes(self) -> TtlState:
        """Each player's strike times per category: what a snapshot of the pipeline keeps."""
        return self._strikes

    def decide(self, flag: Flag) -> list[Action]:
        """Actions for one new flag; remembers the strike for the player's next offence."""
        actions: list[Action] = []
        for player_id in flag.finding.player_ids:
            actions.extend(self.decide_for(Offence.of(flag, player_id)))
        return actions

    def decide_for(self, offence: Offence) -> list[Action]:
        """The actions one flag earns one of its players: the ladder's step for this strike,
        then a referral where the category or severity calls for one."""
        when = offence.ts
        category, severity, player_id = offence.category, offence.severity, offence.player_id
        strikes = self._strikes
        strikes.advance(when)
        actions: list[Action] = []
        ladder = self.ladders.get(category)
        if ladder is not None:
            key = (player_id, category)
            since = when - self.strike_window
            recent = tuple(t for t in strikes.get(key, ()) if t > since)
            strike = len(recent) + 1
            # Kept twice the window (memory only: the count above reads the times).
            strikes.put(key, (*recent, when), 2 * self.strike_window)
            if SEVERITY_RANK[severity] >= SEVERITY_RANK["critical"]:
                strike = max(strike, len(ladder))
            kind, duration = ladder[min(strike, len(ladder)) - 1]
            actions.append(self._action(kind, offence, duration, strike))
        if (
            category in REFER_CATEGORIES
            or (category == "in_hand_influence" and severity == "critical")
            or (category in DEFAULT_LADDERS and severity == "critical")
        ):
            actions.append(self._action("refer_investigator", offence, None, 0))
        return actions

    def _action(
        self, kind: ActionKind, offence: Offence, duration: timedelta | None, strike: int
    ) -> Action:
        reason = f"{offence.category} ({offence.severity})"
        if strike:
            reason += f", strike {strike} in {self.strike_window}"
        return Action(
            action_id=action_id_for(kind, offence.player_id, (offence.flag_id,)),
            kind=kind,
            player_id=offence.player_id,
            ts=offence.ts,
            reason=reason,
            flag_ids=(offence.flag_id,),
            duration=duration,
        )
