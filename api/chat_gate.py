"""The chat server's question, "may this player say this?", answered in well under a millisecond.

Three checks: is the player restricted now (a mute blocks chat and emoji; a communication
suspension blocks SnapCam too); would the message itself break the chat rules; and, when the
chat server says a hand is in play at the sender's table and what the sender's part in it is,
could the message sway that hand (`detectors.in_hand.before_delivery`, the stream's own reading
of card talk). What each finding costs the message, per channel, is the policy file's
`[chat_check]` (`rules.chat_check_policy`): `block`, `hold` (deliver when the hand ends) or
`pass`; how long a spammer is held back after a burst is its `spam_hold_seconds`. The policy
is followed while the server runs: a changed file applies within seconds, its `[site]` and
`[detectors.*]` settings too (the detectors are rebuilt with them, keeping what they remember).
Restrictions come from `RestrictionCache`, kept current by a background thread, so a check
never waits on the database. The content check runs the stream's detectors through one
long-lived pipeline (`Pipeline.detect`), so its state persists across checks: the check sees
a flood, a repeated line or a bot wave building and blocks the message that completes it,
before it is broadcast. That state is bounded as the stream's is (each entry expires with its
detector's window, in the server's time). A detector that raises is counted in
`detector_errors`, named in the verdict, and skipped, so the check still answers.

Several server processes: each keeps its own detector state, so a flood is seen whole only
if the chat server sends one player's (and one channel's) checks to one process (route by
player, as the stream's partitions do); split at random, each process sees a share of it.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import Engine

from railbird.api.restriction_cache import RestrictionCache
from railbird.api.restriction_store import Restriction, get_restriction
from railbird.detectors.detector import Detector, consumed_types
from railbird.detectors.events import ChatEvent
from railbird.detectors.findings import Finding
from railbird.detectors.in_hand.before_delivery import judge_before_delivery
from railbird.detectors.in_hand.verdicts import SenderStatus
from railbird.rules.action_kinds import stops
from railbird.rules.chat_check_policy import ChatCheckPolicy
from railbird.rules.detector_settings import DetectorSettings
from railbird.rules.pipeline import Pipeline
from railbird.rules.policy_watch import PolicyWatch

log = logging.getLogger(__name__)
MAX_HELD = 100_000  # players held at once, at most (the oldest holds go first beyond it)
POLICY_FOLLOW_SECONDS = 2.0  # how often a changed policy file is looked for
# A held message is delivered when the hand in play at the sender's table ends.
RELEASE_AT_HAND_END = "hand_end"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer for one message, `allow`, `hold` or `block`, and why.

    `restriction` is set when one in force blocked the message; otherwise `reasons` are the
    summaries of the findings that decided (blocking ones, else holding ones), or of all the
    findings when the message is allowed. A hold is released at `release` ("hand_end").
    """

    decision: str  # allow | hold | block
    reasons: tuple[str, ...]
    restriction: Restriction | None = None
    findings: tuple[Finding, ...] = field(default=())
    # Detectors that raised on this message: the content check ran without them.
    failed_detectors: tuple[str, ...] = ()
    release: str | None = None


class ChatGate:
    """Answers "may this player say this?" from restrictions held in memory and the chat detectors.

    One per app, shared by the request threads; call `invalidate` when a restriction changes.
    """

    def __init__(
        self,
        engine: Engine,
        detectors: Sequence[Detector],
        refresh: float = 1.0,
        cache: RestrictionCache | None = None,
        policy: PolicyWatch | None = None,
        rebuild: Callable[[DetectorSettings], Sequence[Detector]] | None = None,
    ) -> None:
        """`rebuild` makes the detectors again from a reloaded policy's settings (None: the
        detectors given are kept whatever the policy says, as a test's are)."""
        self.engine = engine
        self.detectors = tuple(detectors)
        self._rebuild = rebuild
        self.restrictions = cache if cache is not None else RestrictionCache(engine, refresh)
        # The policy file's [chat_check] (the shipped one when none is given), re-read by a
        # thread while the server runs (`start`).
        self.policy = policy if policy is not None else PolicyWatch(None)
        self._settings = self.policy.current().detectors  # what the detectors were built with
        self._stop_following = threading.Event()
        self._follower: threading.Thread | None = None
        # Only the chat detectors: the check sees single messages, never hands or tables.
        self._pipeline = Pipeline([d for d in self.detectors if "chat" in consumed_types(d)])
        self._lock = threading.Lock()  # one check at a time through the pipeline's state
        self.detector_errors: Counter[str] = Counter()  # by detector, since start
        self.decisions: Counter[str] = Counter()  # allow / block, since start
        self._held: dict[str, tuple[datetime, str]] = {}  # player -> (until, why)

    def start(self) -> None:
        """Keep the restrictions and the policy current in the background (the app's startup
        calls this)."""
        self.restrictions.start()
        if self._follower is None and self.policy.path is not None:
            self._stop_following.clear()
            self._follower = threading.Thread(
                target=self._follow_policy, name="chat-check-policy", daemon=True
            )
            self._follower.start()

    def stop(self) -> None:
        self.restrictions.stop()
        self._stop_following.set()
        if self._follower is not None:
            self._follower.join(timeout=5)
            self._follower = None

    def _follow_policy(self) -> None:
        while not self._stop_following.wait(POLICY_FOLLOW_SECONDS):
            try:
                self.policy.changed()
            except Exception:  # a file system hiccup must not end the follower
                log.exception("chat check: the policy file could not be looked at")

    @property
    def rules(self) -> ChatCheckPolicy:
        """The [chat_check] rules in force now."""
        return self.policy.current().chat_check

    def note(self, changed: Restriction) -> None:
        """A restriction applied or lifted through this process: in force (or not) at once."""
        self.restrictions.note(changed)

    def note_ids(self, action_ids: Iterable[str]) -> None:
        """`note` for restrictions known by id (a dismissal's lifts), read back from the store."""
        for action_id in action_ids:
            restriction = get_restriction(self.engine, action_id)
            if restriction is not None:
                self.note(restriction)

    def _restrictions_for(self, player_id: str, now: datetime) -> list[Restriction]:
        return self.restrictions.for_player(player_id, now)

    def check(
        self,
        message: ChatEvent,
        hand_id: str | None = None,
        sender_status: SenderStatus | None = None,
        now: datetime | None = None,
    ) -> Verdict:
        """Block if a restriction in force covers this kind of message; otherwise judge its
        content, and with a hand in play (`hand_id`, the sender's `sender_status`) what it
        could do to that hand, and let the policy's [chat_check] decide per finding: any
        `block` blocks, else any `hold` holds until the hand ends, else the message is
        allowed. A detector that raises is skipped and named in `failed_detectors`. `now` is
        the wall clock unless a replay of a recorded day gives the message's own time.
        """
        now = now or datetime.now(UTC)
        for restriction in self._restrictions_for(message.player_id, now):
            if stops(restriction.kind, message.kind):
                until = restriction.expires_at.isoformat() if restriction.expires_at else "lifted"
                self.decisions["block"] += 1
                return Verdict(
                    "block",
                    (f"player is under {restriction.kind} until {until}: {restriction.reason}",),
                    restriction=restriction,
                )
        with self._lock:
            self._follow_settings()
            pipeline = self._pipeline
            errors_before = Counter(pipeline.metrics.detector_errors)
            findings = tuple(pipeline.detect(message) or ())
            failed = tuple(sorted(pipeline.metrics.detector_errors - errors_before))
            self.detector_errors.update(failed)
            held = self._hold(findings, message.player_id, now)
        if hand_id is not None and sender_status is not None:
            in_hand = judge_before_delivery(message, hand_id, sender_status)
            if in_hand is not None:
                findings = (*findings, in_hand)
        rules = self.rules
        decided = [
            (rules.decide(message.channel, f.category, f.severity, hand_id is not None), f)
            for f in findings
        ]
        blocking = [f.evidence.summary for d, f in decided if d == "block"]
        holding = [f.evidence.summary for d, f in decided if d == "hold"]
        if held is not None and not blocking:
            blocking.append(held)
        if blocking:
            decision, reasons = "block", blocking
        elif holding:
            decision, reasons = "hold", holding
        else:
            decision, reasons = "allow", [f.evidence.summary for f in findings]
        self.decisions[decision] += 1
        if decision != "allow":
            log.info(
                "chat check: %s message %s of player %s (%s)",
                decision,
                message.message_id,
                message.player_id,
                ", ".join(sorted({f.category for d, f in decided if d != "pass"})) or "held back",
            )
        return Verdict(
            decision,
            tuple(reasons),
            findings=findings,
            failed_detectors=failed,
            release=RELEASE_AT_HAND_END if decision == "hold" else None,
        )

    def _follow_settings(self) -> None:
        """Rebuild the detectors when the policy's detector settings changed (under the lock):
        the next message is judged by the new settings, with what the detectors remember."""
        settings = self.policy.current().detectors
        if self._rebuild is None or settings is self._settings or settings == self._settings:
            self._settings = settings
            return
        built = tuple(self._rebuild(settings))
        reset = self._pipeline.reconfigure([d for d in built if "chat" in consumed_types(d)])
        self.detectors = built
        self._settings = settings
        log.warning(
            "chat check: detectors rebuilt with policy %s%s",
            self.policy.current().version,
            f" (memory started over: {', '.join(reset)})" if reset else "",
        )

    def _hold(self, findings: tuple[Finding, ...], player_id: str, now: datetime) -> str | None:
        """Hold back the players a spam finding names for the policy's spam hold; returns why
        this message's sender is held, if they are (under the lock)."""
        held = self._held
        hold = self.rules.spam_hold
        for finding in findings:
            if finding.category == "spam" and hold:
                why = f"held back {hold.total_seconds():g} s after: {finding.evidence.summary}"
                for player in finding.player_ids:
                    held.pop(player, None)  # re-inserted last: the dict stays oldest first
                    held[player] = (now + hold, why)
        while len(held) > MAX_HELD:
            del held[next(iter(held))]
        current = held.get(player_id)
        if current is None:
            return None
        if current[0] <= now:
            del held[player_id]
            return None
        return current[1]
