"""Settings overrides reach the detectors they name, and mistakes are reported by name."""

from __future__ import annotations

import pytest

from railbird.detectors.chat.chat_flood import ChatFlood
from railbird.detectors.registry import DETECTOR_TYPES, build_detectors


def test_an_override_reaches_its_detector_and_no_other() -> None:
    built = build_detectors({"chat_flood": {"window_seconds": 3}})
    flood = next(d for d in built if isinstance(d, ChatFlood))
    assert flood.window_seconds == 3
    assert len(built) == len(DETECTOR_TYPES)


def test_unknown_detector_names_are_reported() -> None:
    with pytest.raises(ValueError, match="unknown detectors: \\['chat_flod'\\]"):
        build_detectors({"chat_flod": {}})


def test_unknown_settings_are_reported_by_name() -> None:
    with pytest.raises(ValueError, match="chat_flood: unknown settings \\['windw'\\]"):
        build_detectors({"chat_flood": {"windw": 3}})


def test_a_derived_field_is_not_a_setting() -> None:
    # `_span` is computed from window_seconds; naming it is a settings mistake, not a TypeError.
    with pytest.raises(ValueError, match="chat_flood: unknown settings \\['_span'\\]"):
        build_detectors({"chat_flood": {"_span": 3}})


def test_only_builds_the_named_detectors() -> None:
    assert [d.name for d in build_detectors(only={"profanity", "hate"})] == ["profanity", "hate"]
