"""Every detector railbird runs, one line each; the edges build them from settings.

Adding a detector is one file plus one line in `DETECTOR_TYPES`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from railbird.detectors.cash.leave_refusal import LeaveRefusal
from railbird.detectors.chat.advertising import Advertising
from railbird.detectors.chat.chat_flood import ChatFlood
from railbird.detectors.chat.emoji_spam import EmojiSpam
from railbird.detectors.chat.harassment import Harassment
from railbird.detectors.chat.hate import Hate
from railbird.detectors.chat.impersonation import Impersonation
from railbird.detectors.chat.lobby_waves import LobbyWaves
from railbird.detectors.chat.malicious_link import MaliciousLink
from railbird.detectors.chat.multilingual_abuse import MultilingualAbuse
from railbird.detectors.chat.personal_info import PersonalInfo
from railbird.detectors.chat.profanity import Profanity
from railbird.detectors.chat.repeated_messages import RepeatedMessages
from railbird.detectors.collusion.bounty_collusion import BountyCollusion
from railbird.detectors.collusion.cash_collusion import CashCollusion
from railbird.detectors.collusion.coordinated_sit_out import CoordinatedSitOut
from railbird.detectors.detector import Detector
from railbird.detectors.in_hand.in_hand_influence import InHandInfluence
from railbird.detectors.ml.ml_scorer import MlScorer

DETECTOR_TYPES: tuple[type[Detector], ...] = (
    Profanity,
    Harassment,
    Hate,
    MultilingualAbuse,
    Impersonation,
    CoordinatedSitOut,
    BountyCollusion,
    ChatFlood,
    RepeatedMessages,
    LobbyWaves,
    EmojiSpam,
    Advertising,
    MaliciousLink,
    PersonalInfo,
    MlScorer,
    InHandInfluence,
    CashCollusion,
    LeaveRefusal,
)


def build_detectors(
    overrides: Mapping[str, Mapping[str, Any]] | None = None,
    only: set[str] | None = None,
) -> list[Detector]:
    """Instantiate the registered detectors, with per-detector field overrides by name."""
    overrides = overrides or {}
    unknown = set(overrides) - {d.name for d in DETECTOR_TYPES}
    if unknown:
        raise ValueError(f"settings name unknown detectors: {sorted(unknown)}")
    built: list[Detector] = []
    for detector_type in DETECTOR_TYPES:
        if only is not None and detector_type.name not in only:
            continue
        fields = dict(overrides.get(detector_type.name, {}))
        if dataclasses.is_dataclass(detector_type):
            # Only constructor fields are settings; derived ones (caches, spans) are not.
            known = {f.name for f in dataclasses.fields(detector_type) if f.init}
            bad = set(fields) - known
            if bad:
                raise ValueError(f"detector {detector_type.name}: unknown settings {sorted(bad)}")
        built.append(detector_type(**fields))
    return built
