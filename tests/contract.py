"""The contract's flag shape, checked in tests of every output path."""

from __future__ import annotations

import re
from typing import Any

from railbird.detectors.categories import CATEGORIES
from railbird.detectors.collusion_categories import COLLUSION_CATEGORIES
from railbird.detectors.severity import SEVERITIES

TS = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def assert_contract_flag(flag: dict[str, Any]) -> None:
    required = {
        "flag_id": str,
        "category": str,
        "detector": str,
        "severity": str,
        "score": float,
        "ts": str,
        "player_ids": list,
        "message_ids": list,
        "explanation": str,
        "evidence": dict,
    }
    for key, kind in required.items():
        assert key in flag, f"flag lacks {key}: {flag}"
        assert isinstance(flag[key], kind), f"{key} is {type(flag[key])}, not {kind}"
    for key in ("table_id", "tournament_id", "hand_id"):
        assert key in flag and (flag[key] is None or isinstance(flag[key], str))
    assert flag["flag_id"].startswith("f-")
    assert flag["category"] in CATEGORIES
    assert flag["severity"] in SEVERITIES
    assert 0.0 <= flag["score"] <= 1.0
    assert TS.match(flag["ts"]), flag["ts"]
    assert flag["player_ids"] and all(isinstance(p, str) for p in flag["player_ids"])
    assert flag["explanation"].strip()
    assert "kind" in flag["evidence"]
    if flag["category"] not in COLLUSION_CATEGORIES and flag["category"] != "in_hand_influence":
        assert flag["message_ids"], "chat flags list the offending message ids"
