"""The policy file's [site] and [detectors.<name>]: the room and the operator's detector
settings, checked against each detector's fields with the line at fault, and what they do."""

from __future__ import annotations

import json
import re
import shutil
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from railbird.detectors.cash.leave_refusal import LeaveRefusal
from railbird.detectors.chat.advertising import Advertising
from railbird.detectors.chat.chat_flood import ChatFlood
from railbird.detectors.chat.impersonation import Impersonation
from railbird.detectors.chat.malicious_link import MaliciousLink
from railbird.detectors.collusion.bounty_collusion import BountyCollusion
from railbird.detectors.collusion.cash_collusion import CashCollusion
from railbird.detectors.events import ChatEvent
from railbird.detectors.registry import DETECTOR_TYPES
from railbird.rules.detector_settings import detectors_for, operator_settings
from railbird.rules.pipeline import Pipeline
from railbird.rules.policy_file import Policy, PolicyError, default_policy, parse_policy

T0 = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
HEAD = 'version = "test.1"\n'


def _policy(body: str) -> Policy:
    return parse_policy(HEAD + body, "policy.toml")


def _built(policy: Policy) -> dict[str, object]:
    return {d.name: d for d in detectors_for(policy.detectors)}


def _say(pipeline: Pipeline, n: int, player: str, text: str, channel: str = "table") -> set[str]:
    event = ChatEvent(
        type="chat",
        message_id=f"m-{n}",
        ts=T0 + timedelta(seconds=n),
        player_id=player,
        channel=channel,  # type: ignore[arg-type]
        table_id="t-1" if channel == "table" else None,
        text=text,
    )
    return {f.category for f in pipeline.detect(event) or ()}


def test_the_shipped_policy_shows_every_operator_setting_with_its_default() -> None:
    described = default_policy().describe()
    assert described["site"] == {"domains": ["ultimatepoker.com"], "staff_player_ids": []}
    assert described["detectors"]["leave_refusal"] == {"min_hands": 10}
    assert described["detectors"]["chat_flood"]["window_seconds"] == 10.0
    assert described["detectors"]["chat_flood"]["max_messages"]["table"] > 0
    # Every detector that declares operator settings is shown, and only those settings.
    for detector_type in DETECTOR_TYPES:
        owned = operator_settings(detector_type)
        if owned:
            assert set(described["detectors"][detector_type.name]) == set(owned)
        else:
            assert detector_type.name not in described["detectors"]


def test_the_site_is_described_once_and_reaches_every_detector_that_needs_it() -> None:
    policy = _policy(
        '[site]\ndomains = ["AcmePoker.com", "acme.poker"]\nstaff_player_ids = ["p-staff-1"]\n'
    )
    built = _built(policy)
    link, ad, impersonation = built["malicious_link"], built["advertising"], built["impersonation"]
    assert isinstance(link, MaliciousLink) and isinstance(ad, Advertising)
    assert link.site_domains == ad.site_domains == ("acmepoker.com", "acme.poker")
    assert isinstance(impersonation, Impersonation)
    assert impersonation.staff_player_ids == {"p-staff-1"}
    assert policy.describe()["site"] == {
        "domains": ["acmepoker.com", "acme.poker"],
        "staff_player_ids": ["p-staff-1"],
    }


def test_the_sites_domains_and_staff_change_what_is_flagged() -> None:
    messages = [
        ("p-1", "come play at www.acmepoker.com it's better"),
        ("p-2", "free chips at acmep0ker.com/login"),
        ("p-staff-1", "I am railbird support, admin here: your account is under review"),
        ("p-3", "visit ultimatepoker.com/promo"),
    ]
    shipped = Pipeline(detectors_for(default_policy().detectors))
    ours = Pipeline(
        detectors_for(
            _policy(
                '[site]\ndomains = ["acmepoker.com"]\nstaff_player_ids = ["p-staff-1"]\n'
            ).detectors
        )
    )
    before = [_say(shipped, n, p, t) for n, (p, t) in enumerate(messages)]
    after = [_say(ours, n, p, t) for n, (p, t) in enumerate(messages)]
    # The room's own link passes; a look-alike of it is phishing; the old room is an outside ad.
    assert before == [{"advertising"}, set(), {"impersonation"}, set()]
    assert after == [set(), {"malicious_link"}, set(), {"advertising"}]


def test_a_detector_table_sets_its_fields_and_a_channel_limit_keeps_the_others() -> None:
    policy = _policy(
        "[detectors.chat_flood]\nmax_messages = { table = 2 }\nwindow_seconds = 30\n"
        "[detectors.leave_refusal]\nmin_hands = 6\n"
    )
    built = _built(policy)
    flood, refusal = built["chat_flood"], built["leave_refusal"]
    assert isinstance(flood, ChatFlood) and isinstance(refusal, LeaveRefusal)
    assert flood.max_messages["table"] == 2
    assert flood.max_messages["lobby"] == ChatFlood().max_messages["lobby"]
    assert flood.window_seconds == 30.0 and refusal.min_hands == 6
    pipeline = Pipeline(detectors_for(policy.detectors))
    said = [_say(pipeline, n, "p-9", f"line {n} of many") for n in range(3)]
    assert said == [set(), set(), {"spam"}]  # the third message in 30 s is over a limit of 2
    shown = policy.describe()["detectors"]
    assert shown["chat_flood"]["max_messages"]["table"] == 2
    assert shown["leave_refusal"] == {"min_hands": 6}


@pytest.mark.parametrize(
    "body",
    [
        "[detectors]\nchat_flood = { window_seconds = 30 }\n",
        "[detectors]\nchat_flood.window_seconds = 30\n",
    ],
)
def test_inline_and_dotted_tables_are_the_same_settings(body: str) -> None:
    flood = _built(_policy(body))["chat_flood"]
    assert isinstance(flood, ChatFlood) and flood.window_seconds == 30.0


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("\n[detectors.chat_flod]\nmax_messages = 3\n", 3, "unknown detector 'chat_flod'"),
        ("[detectors.chat_flood]\n\nwindw = 3\n", 4, "has no setting 'windw'; it takes"),
        (
            "[detectors.chat_flood]\ndefault_max_messages = 3\n",
            3,
            "has no setting 'default_max_messages'",
        ),
        ("[detectors.profanity]\nthreshold = 1\n", 3, "it takes no settings"),
        ('[detectors.leave_refusal]\nmin_hands = "ten"\n', 3, "min_hands: input should be"),
        ("[detectors.leave_refusal]\nmin_hands = 0\n", 3, "min_hands: input should be greater"),
        ("[detectors.leave_refusal]\nmin_hands = 2.5\n", 3, "min_hands"),
        ("[detectors.chat_flood]\nmax_messages = { casino = 3 }\n", 3, "casino"),
        ("[detectors.chat_flood]\nmax_messages = { table = -1 }\n", 3, "greater than 0"),
        ("[detectors.chat_flood]\nwindow_seconds = true\n", 3, "window_seconds"),
        (
            '[detectors.malicious_link]\nsite_domains = ["x.com"]\n',
            3,
            "site_domains is the site's: set it once in [site] domains",
        ),
        ('\n[site]\ndomains = ["not a domain"]\n', 4, "'not a domain' is not a domain name"),
        ('[site]\ndomains = "acme.com"\n', 3, "domains must be a list of domain names"),
        ("[site]\nstaff_player_ids = [1, 2]\n", 3, "staff_player_ids must be a list of player"),
        ('[site]\nowner = "me"\n', 3, "[site] takes domains, staff_player_ids"),
        ("[detectors]\nchat_flood = 3\n", 3, "must be a table of settings"),
        (
            '[detectors.bounty_collusion]\nmodel_dir = "/nonexistent/model"\n',
            2,  # refused by the detector as built: the line of its table
            "cannot load play model",
        ),
    ],
)
def test_a_bad_setting_is_refused_naming_its_line(body: str, line: int, message: str) -> None:
    with pytest.raises(PolicyError) as refused:
        _policy(body)
    assert message in str(refused.value)
    assert f"policy.toml line {line}:" in str(refused.value)


def test_the_configuration_page_lists_every_operator_setting() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
    rows = set(re.findall(r"^\| `([a-z_]+)` \| `([a-z_]+)` \|", page, flags=re.MULTILINE))
    owned = {(t.name, name) for t in DETECTOR_TYPES for name in operator_settings(t)}
    assert rows == owned


def _toml(value: object) -> str:
    """A value as TOML writes it inline (strings as JSON basic strings, which TOML reads)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{ " + ", ".join(f"{k} = {_toml(v)}" for k, v in value.items()) + " }"


_KEYS = st.sampled_from(
    sorted({n for t in DETECTOR_TYPES for n in operator_settings(t)} | {"table", "lobby", "x"})
)
_VALUES = st.recursive(
    st.booleans()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    detector=st.sampled_from([*sorted(t.name for t in DETECTOR_TYPES), "nope"]),
    table=st.dictionaries(_KEYS, _VALUES, max_size=3),
    site=st.dictionaries(st.sampled_from(["domains", "staff_player_ids", "x"]), _VALUES),
)
def test_any_site_or_detector_table_is_a_policy_or_a_policy_error(
    detector: str, table: dict[str, object], site: dict[str, object]
) -> None:
    body = "[site]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in site.items())
    body += f"[detectors.{detector}]\n" + "".join(f"{k} = {_toml(v)}\n" for k, v in table.items())
    try:
        _policy(body)
    except PolicyError as refused:
        assert "policy.toml" in str(refused)


def test_an_operators_own_play_model_is_a_setting(tmp_path: Path) -> None:
    """`railbird train-play --out DIR` and then `model_dir = DIR`: both collusion detectors that
    read play load the operator's model when they are built."""
    shipped = Path(__file__).resolve().parents[2] / "detectors" / "play" / "models"
    for name in ("honest_play.npz", "honest_play.json"):
        shutil.copy(shipped / name, tmp_path / name)
    body = (
        f"[detectors.bounty_collusion]\nmodel_dir = {json.dumps(str(tmp_path))}\n"
        f"[detectors.cash_collusion]\nmodel_dir = {json.dumps(str(tmp_path))}\n"
    )
    built = _built(_policy(body))
    bounty, cash = built["bounty_collusion"], built["cash_collusion"]
    assert isinstance(bounty, BountyCollusion) and bounty.model_dir == str(tmp_path)
    assert isinstance(cash, CashCollusion) and cash.model_dir == str(tmp_path)
