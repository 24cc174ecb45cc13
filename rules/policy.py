"""The house's escalation ladder: which flag earns which action, given the player's recent record.

Why a ladder: a first mild swear deserves a warning, the third in a day a mute; a folded player
naming their hole cards during a hand costs all communication at once (house rule on hands in
play). Collusion categories are never punished automatically: investigators decide, because most
collusion suspicions are unfounded and a wrong suspension is costly. The steps, windows and
referrals are the policy file's (`rules.policy_file`, `rules/default_policy.toml`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from railbird.detectors.findings import SEVERITY_RANK
from railbird.detectors.state import TtlState
from railbird.rules.action_kinds import ActionKind
from railbird.rules.actions import Action, action_id_for
from railbird.rules.flags import Flag
from railbird.rules.policy_file import REFUSAL_CATEGORY, Policy, default_policy

DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Offence:
    """What the ladder reads of a flag, for one of its players: all an escalation stage
    (`rules.escalation`) needs to be sent, not the whole flag."""

    flag_id: str
    category: str
    severity: str
    ts: datetime
    player_id: str
    medium: str = "text"  # the raising message's kind (text, emoji, snapcam); else "text"
    level: str | None = None  # a refusal to play's blind level: its ladder is per level

    @classmethod
    def of(cls, flag: Flag, player_id: str, medium: str = "text") -> Offence:
        """`medium` is the raising event's message kind; a flag whose evidence is a SnapCam
        broadcast (in-hand influence is found when the hand's outcome is known) is SnapCam's
        whatever event raised it."""
        finding = flag.finding
        if finding.evidence.kind.startswith("snapcam"):
            medium = "snapcam"
        level = None
        if finding.category == REFUSAL_CATEGORY:
            level = str(finding.evidence.measures.get("blind_level") or "unknown")
        return cls(
            flag.flag_id, finding.category, finding.severity, finding.ts, player_id, medium, level
        )


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

    policy: Policy = field(default_factory=default_policy)
    _strikes: TtlState = field(default_factory=TtlState, repr=False)

    @property
    def strike_window(self) -> timedelta:
        return self.policy.strike_window

    @property
    def strikes(self) -> TtlState:
        """Each player's strike times per category: what a snapshot of the pipeline keeps."""
        return self._strikes

    def decide(self, flag: Flag, medium: str = "text") -> list[Action]:
        """Actions for one new flag (raised by a message of kind `medium`); remembers the
        strike for the player's next offence."""
        actions: list[Action] = []
        for player_id in flag.finding.player_ids:
            actions.extend(self.decide_for(Offence.of(flag, player_id, medium)))
        return actions

    def decide_for(self, offence: Offence) -> list[Action]:
        """The actions one flag earns one of its players: the ladder's step for this strike,
        then a referral where the category or severity calls for one."""
        when = offence.ts
        category, severity, player_id = offence.category, offence.severity, offence.player_id
        strikes = self._strikes
        strikes.advance(when)
        policy = self.policy
        if category == REFUSAL_CATEGORY:
            return self._refusal(offence)
        actions: list[Action] = []
        ladder = None if category in policy.only_refer else policy.ladders.get(category)
        critical = SEVERITY_RANK[severity] >= SEVERITY_RANK["critical"]
        if ladder is not None:
            key = (player_id, category)
            since = when - policy.strike_window
            recent = tuple(t for t in strikes.get(key, ()) if t > since)
            strike = len(recent) + 1
            # Kept twice the window (memory only: the count above reads the times).
            strikes.put(key, (*recent, when), 2 * policy.strike_window)
            if critical:
                strike = max(strike, len(ladder))
            kind, duration = ladder[min(strike, len(ladder)) - 1]
            actions.append(self._action(kind, offence, duration, strike))  # type: ignore[arg-type]
        if offence.medium == "snapcam" and category in policy.snapcam_ban_categories:
            actions.append(self._action("snapcam_ban", offence, policy.snapcam_ban, 0))
        refer = (
            category in policy.refer_categories
            or category in policy.only_refer
            or (policy.refer_critical and critical and ladder is not None)
        )
        if refer and not any(a.kind == "refer_investigator" for a in actions):
            actions.append(self._action("refer_investigator", offence, None, 0))
        return actions

    def _refusal(self, offence: Offence) -> list[Action]:
        """The house's refusal ladder: the n-th refusal at one blind level within the window
        blocks joins at that level (the 1st, by default, nothing). Counted like strikes, in the
        same changelogged state, but per level: refusals at 1/2 never block 2/5."""
        policy, when, level = self.policy, offence.ts, offence.level or "unknown"
        key = (offence.player_id, REFUSAL_CATEGORY, level)
        since = when - policy.refusal_window
        recent = tuple(t for t in self._strikes.get(key, ()) if t > since)
        count = len(recent) + 1
        self._strikes.put(key, (*recent, when), 2 * policy.refusal_window)
        blocks = policy.refusal_blocks
        block = blocks[min(count, len(blocks)) - 1]
        if block is None:
            return []
        hours = policy.refusal_window.total_seconds() / 3600
        reason = (
            f"refusal to play at blind level {level}: refusal {count} in {hours:g} h, "
            f"no joins at {level} for {block.total_seconds() / 60:g} min; "
            f"policy {policy.version}"
        )
        return [
            Action(
                action_id=action_id_for("block_table_join", offence.player_id, (offence.flag_id,)),
                kind="block_table_join",
                player_id=offence.player_id,
                ts=when,
                reason=reason,
                flag_ids=(offence.flag_id,),
                duration=block,
                scope=level,
            )
        ]

    def _action(
        self, kind: ActionKind, offence: Offence, duration: timedelta | None, strike: int
    ) -> Action:
        reason = f"{offence.category} ({offence.severity})"
        if strike:
            reason += f", strike {strike} in {self.strike_window}"
        if offence.medium == "snapcam":
            reason += ", by SnapCam"
        reason += f"; policy {self.policy.version}"
        return Action(
            action_id=action_id_for(kind, offence.player_id, (offence.flag_id,)),
            kind=kind,
            player_id=offence.player_id,
            ts=offence.ts,
            reason=reason,
            flag_ids=(offence.flag_id,),
            duration=duration,
        )
