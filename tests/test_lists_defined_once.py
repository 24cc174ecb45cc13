"""Every list railbird reads is spelled out once, and a new category is one line.

The lists (categories, severities, action kinds and what restricts, channels and message kinds,
collusion categories) each live in one module that the API models, the console, the rules and
the detectors import. Adding a category to `detectors/categories.py` must then reach every one
of them and stop only where a person has to decide: what the shipped policy does with it, and
which detector raises it with what severity.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from railbird.detectors.categories import CATEGORIES
from railbird.detectors.collusion_categories import COLLUSION_CATEGORIES
from railbird.detectors.events import CHANNELS, MESSAGE_KINDS
from railbird.detectors.severity import SEVERITIES
from railbird.rules.action_kinds import ACTION_KINDS, RESTRICTION_KINDS
from railbird.rules.policy_file import REFUSAL_CATEGORY, Policy, default_policy

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("api", "detectors", "rules", "railbird", "ingest", "store", "sim", "bench")
# A bracketed literal (tuple, list, set, Literal[...]) with no brackets inside it.
_LITERAL = re.compile(r"[(\[{]([^()\[\]{}]*)[)\]}]")
_QUOTED = re.compile(r"""["']([a-z_]+)["']""")
_COMMENT = re.compile(r"#[^\n]*")
# A table of a number per member (a score per severity) decides something per member: not a copy.
_NUMBER_PER_MEMBER = re.compile(r"""["'][a-z_]+["']\s*:\s*[0-9.]""")

# Each list, the module that defines it, and how many of its members written together in one
# literal make a copy of it (fewer is a subset with a meaning of its own: the chat categories
# the simulator injects, the order a benchmark ranks abuse in).
LISTS = {
    "categories": (CATEGORIES, "detectors/categories.py", len(CATEGORIES) - 2),
    "severities": (SEVERITIES, "detectors/severity.py", len(SEVERITIES)),
    "action kinds": (ACTION_KINDS, "rules/action_kinds.py", len(ACTION_KINDS) - 2),
    "restriction kinds": (RESTRICTION_KINDS, "rules/action_kinds.py", len(RESTRICTION_KINDS)),
    "collusion categories": (
        tuple(COLLUSION_CATEGORIES),
        "detectors/collusion_categories.py",
        len(COLLUSION_CATEGORIES),
    ),
    "channels": (CHANNELS, "detectors/events.py", len(CHANNELS)),
    "message kinds": (MESSAGE_KINDS, "detectors/events.py", len(MESSAGE_KINDS)),
}
# Lists their home builds from parts (a literal of literals, a mapping's keys), not one literal.
FROM_PARTS = {"action kinds", "collusion categories"}


def _spelled_in(members: tuple[str, ...], enough: int) -> set[str]:
    """The source files with a literal naming at least `enough` of `members`."""
    wanted = set(members)
    found: set[str] = set()
    for top in SOURCES:
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in (".py", ".html", ".js") or ".cache" in path.parts:
                continue
            text = _COMMENT.sub("", path.read_text("utf-8", errors="replace"))
            # A module that lays its list out one member per line is one literal too.
            for literal in _LITERAL.findall(text):
                if _NUMBER_PER_MEMBER.search(literal):
                    continue
                if len(set(_QUOTED.findall(literal)) & wanted) >= enough:
                    found.add(path.relative_to(ROOT).as_posix())
                    break
    return found


@pytest.mark.parametrize("name", LISTS)
def test_each_list_is_spelled_out_in_its_own_module_only(name: str) -> None:
    members, home, enough = LISTS[name]
    # The collusion categories are a run of the categories' own literal, which is no copy.
    allowed = {home, "detectors/categories.py"} if name == "collusion categories" else {home}
    assert _spelled_in(members, enough) <= allowed, f"{name} spelled out outside {home}"
    # The home module is where the scan finds it: the scan is not blind to the literal.
    assert home in _spelled_in(members, enough) or name in FROM_PARTS


def undecided_by(policy: Policy, categories: tuple[str, ...] = CATEGORIES) -> list[str]:
    """The categories the policy does nothing with: no ladder, no referral, not the refusals'."""
    decided = set(policy.ladders) | policy.refer_categories | policy.only_refer
    return [c for c in categories if c not in decided and c != REFUSAL_CATEGORY]


def unraised(categories: tuple[str, ...] = CATEGORIES) -> list[str]:
    """The categories no detector module names (so none raises them, with a severity)."""
    homes = {"categories.py", "collusion_categories.py", "severity.py", "registry.py"}
    text = "\n".join(
        p.read_text("utf-8")
        for p in (ROOT / "detectors").rglob("*.py")
        if p.name not in homes and ".cache" not in p.parts
    )
    return [c for c in categories if f'"{c}"' not in text]


def test_every_category_is_decided_by_the_shipped_policy() -> None:
    assert undecided_by(default_policy()) == []


def test_every_category_is_raised_by_a_detector() -> None:
    assert unraised() == []


# Run in a fresh interpreter whose `detectors/categories.py` has one more line: everything
# else is the repository as it is.
_NEW_CATEGORY = r"""
import importlib.util, json, sys
from pathlib import Path

root = Path(sys.argv[1])
source = (root / "detectors" / "categories.py").read_text("utf-8")
last = '    "refusal_to_play",\n]'
added = source.replace(last, last[:-1] + '    "card_sharing",\n]')
assert added != source
spec = importlib.util.spec_from_loader("railbird.detectors.categories", loader=None)
module = importlib.util.module_from_spec(spec)
import railbird.detectors
exec(compile(added, str(root / "detectors" / "categories.py"), "exec"), module.__dict__)
sys.modules["railbird.detectors.categories"] = module

from fastapi.testclient import TestClient
from railbird.api.app import create_app
from railbird.api.models import _a_reason
from railbird.rules.policy_file import default_policy, default_policy_text, parse_policy
from railbird.store.database import make_engine, migrate
from tests.test_lists_defined_once import undecided_by, unraised
from tests.contract import CATEGORIES as contract_categories

policy = default_policy()
key = "analyst-key-0123456789"
engine = make_engine(f"sqlite:///{sys.argv[2]}")
migrate(engine)
with TestClient(create_app(engine, {key: "analyst"})) as client:
    listed = client.get("/v1/flags?category=card_sharing", headers={"X-API-Key": key})
    queue = client.get("/v1/queue?category=card_sharing", headers={"X-API-Key": key})
    typo = client.get("/v1/flags?category=card_sharin", headers={"X-API-Key": key})
laddered = parse_policy(
    default_policy_text() + '\n[ladders.card_sharing]\nsteps = [{ kind = "warn" }]\n', "t"
)
print(json.dumps({
    "flags filter": listed.status_code,
    "queue filter": queue.status_code,
    "a typo": typo.status_code,
    "report reason": _a_reason("card_sharing"),
    "contract": "card_sharing" in contract_categories,
    "chat check": policy.chat_check.decide("table", "card_sharing", "high", False),
    "a ladder for it": [s[0] for s in laddered.ladders["card_sharing"]],
    "undecided by the policy": undecided_by(policy, module.CATEGORIES),
    "raised by no detector": unraised(module.CATEGORIES),
}))
"""


def test_a_new_category_is_one_line_and_stops_only_at_the_human_decisions(
    tmp_path: Path,
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", _NEW_CATEGORY, str(ROOT), str(tmp_path / "new.db")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {
        # Everything that reads the list takes the new category with no other edit ...
        "flags filter": 200,
        "queue filter": 200,
        "a typo": 422,
        "report reason": "card_sharing",
        "contract": True,
        "chat check": "block",  # in no list: the severity rule decides
        "a ladder for it": ["warn"],
        # ... and only the decisions a person makes are missing, and say so.
        "undecided by the policy": ["card_sharing"],
        "raised by no detector": ["card_sharing"],
    }
