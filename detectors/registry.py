"""Every detector railbird runs, one line each; the edges build them from settings.

Adding a detector is one file plus one line in `DETECTOR_TYPES`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from detectors.advertising import Advertising
from detectors.bounty_collusion import BountyCollusion
from detectors.chat_flood import ChatFlood
from detectors.chip_dumping import ChipDumping
from detectors.coordinated_sit_out import CoordinatedSitOut
from detectors.detector import Detector
from detectors.emoji_spam import EmojiSpam
from detectors.harassment import Harassment
from detectors.hate import Hate
from detectors.impersonation import Impersonation
from detectors.in_hand_influence import InHandInfluence
from detectors.in_hand_private import PrivateInHandInfluence
from detectors.malicious_link import MaliciousLink
from detectors.ml_scorer import MlScorer
from detectors.personal_info import PersonalInfo
from detectors.profanity import Profanity
from detectors.repeated_messages import RepeatedMessages
from detectors.soft_play import SoftPlay

DETECTOR_TYPES: tuple[type[Detector], ...] = (
    Profanity,
    Harassment,
    Hate,
    Impersonation,
    CoordinatedSitOut,
    BountyCollusion,
    ChatFlood,
    RepeatedMessages,
    EmojiSpam,
    Advertising,
    MaliciousLink,
    PersonalInfo,
    MlScorer,
    InHandInfluence,
    PrivateInHandInfluence,
    ChipDumping,
    SoftPlay,
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
