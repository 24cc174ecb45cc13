"""The house's escalation ladder: which flag earns which action, given the player's recent record.

Why a ladder: a first mild swear deserves a warning, the third in a day a mute; a folded player
naming their hole cards during a hand costs all communication at once (house rule on hands in
play). Collusion categories are never punished automatically: investigators decide, because most
collusion suspicions are unfounded and a wrong suspension is costly.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

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


@dataclass
class RuleBook:
    """Which action each flag earns: a ladder per category, climbed by strikes in `strike_window`.

    It keeps each player's strikes, so each pipeline has its own. A critical flag goes straight to
    its ladder's last step; a category without a ladder earns no restriction, at most a referral.
    """

    ladders: dict[str, tuple[Step, ...]] = field(default_factory=lambda: dict(DEFAULT_LADDERS))
    strike_window: timedelta = DAY
    _strikes: TtlState = field(default_factory=TtlState, repr=False)

    @property
    def strikes(self) -> TtlState:
        """Each player's strikes per category: what a snapshot of the pipeline keeps."""
        return self._strikes

    def decide(self, flag: Flag) -> list[Action]:
        """Actions for one new flag; remembers the strike for the player's next offence."""
        finding = flag.finding
        self._strikes.advance(finding.ts)
        actions: list[Action] = []
        refer = (
            finding.category in REFER_CATEGORIES
            or (finding.category == "in_hand_influence" and finding.severity == "critical")
            or (finding.category in DEFAULT_LADDERS and finding.severity == "critical")
        )
        for player_id in finding.player_ids:
            ladder = self.ladders.get(finding.category)
            if ladder is not None:
                key = (player_id, finding.category)
                strike = int(self._strikes.get(key, 0)) + 1
                self._strikes.put(key, strike, self.strike_window)
                if SEVERITY_RANK[finding.severity] >= SEVERITY_RANK["critical"]:
                    strike = max(strike, len(ladder))
                kind, duration = ladder[min(strike, len(ladder)) - 1]
                actions.append(self._action(kind, player_id, flag, duration, strike))
            if refer:
                actions.append(self._action("refer_investigator", player_id, flag, None, 0))
        return actions

    def _action(
        self, kind: ActionKind, player_id: str, flag: Flag, duration: timedelta | None, strike: int
    ) -> Action:
        reason = f"{flag.category} ({flag.severity})"
        if strike:
            reason += f", strike {strike} in {self.strike_window}"
        return Action(
            action_id=action_id_for(kind, player_id, (flag.flag_id,)),
            kind=kind,
            player_id=player_id,
            ts=flag.finding.ts,
            reason=reason,
            flag_ids=(flag.flag_id,),
            duration=duration,
        )
