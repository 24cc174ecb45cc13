"""The analysts' console in a real browser (Debian's Chromium, headless) against `railbird
serve` over a simulated hour: sign in, review from the queue with the keyboard, mute a player
and see the chat check refuse them, a hand timeline, a collusion group, a session export, live
flags, and roles that see no control they may not use and are refused if they try anyway.
Each page's screenshot is written to var/artefacts/console/ (RAILBIRD_ARTEFACTS)."""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from railbird.api.console.views import offending_terms
from railbird.detectors.findings import Evidence, Finding
from railbird.rules.flags import Flag
from railbird.store import schema
from railbird.store.database import make_engine
from railbird.store.writer import StoreWriter
from tests.api.conftest import KEYS
from tests.console.conftest import Server, banner, key_of, screenshot, sign_in

pytestmark = pytest.mark.browser


def _flag_status(server: Server, flag_id: str) -> str:
    engine = make_engine(server.db_url)
    with engine.connect() as conn:
        status = conn.execute(
            select(schema.flags.c.status).where(schema.flags.c.flag_id == flag_id)
        ).scalar_one()
    engine.dispose()
    return str(status)


def _first_flag(server: Server, **where: str) -> dict[str, Any]:
    engine = make_engine(server.db_url)
    f = schema.flags.c
    query = select(schema.flags).where(*(getattr(f, k) == v for k, v in where.items()))
    with engine.connect() as conn:
        row = conn.execute(query.order_by(f.ts)).first()
    engine.dispose()
    assert row is not None, f"the simulated hour should have a flag with {where}"
    return dict(row._mapping)


def _in_hand_flag(
    server: Server, *, said_in_text: bool = False, dealt: bool = False
) -> dict[str, Any]:
    """The first in-hand flag whose message is text with its offending words in it (so the page
    can mark them), or whose player was dealt hands (so they have sessions): which flag of a
    simulated day has them is the day's luck, what the test needs is not."""
    engine = make_engine(server.db_url)
    f, c, hp = schema.flags.c, schema.chat_messages.c, schema.hand_players.c
    with engine.connect() as conn:
        for row in conn.execute(
            select(schema.flags).where(f.category == "in_hand_influence").order_by(f.ts)
        ):
            flag = dict(row._mapping)
            if said_in_text:
                texts = conn.execute(
                    select(c.text).where(c.message_id.in_(flag["message_ids"]), c.kind == "text")
                ).scalars()
                words = offending_terms(flag)
                if not any(w.lower() in t.lower() for t in texts for w in words):
                    continue
            if dealt:
                player = flag["player_ids"][0]
                if conn.execute(select(hp.hand_id).where(hp.player_id == player)).first() is None:
                    continue
            engine.dispose()
            return flag
    engine.dispose()
    raise AssertionError("the simulated hour should have such an in-hand flag")


def _flag_of_an_unrestricted_player(server: Server) -> tuple[dict[str, Any], str]:
    """A flag naming one player with no restriction in force, so the test's mute is the only
    thing that can block them."""
    engine = make_engine(server.db_url)
    a = schema.actions.c
    with engine.connect() as conn:
        restricted = set(
            conn.execute(
                select(a.player_id).where(
                    a.kind.in_(["mute_chat", "chat_ban", "suspend_communication", "snapcam_ban"]),
                    a.expires_at > datetime.now(UTC),
                )
            ).scalars()
        )
        for row in conn.execute(select(schema.flags).order_by(schema.flags.c.ts)):
            flag = dict(row._mapping)
            if len(flag["player_ids"]) == 1 and flag["player_ids"][0] not in restricted:
                engine.dispose()
                return flag, str(flag["player_ids"][0])
    raise AssertionError("every flagged player is restricted")


def _chat_check(server: Server, player_id: str) -> str:
    request = urllib.request.Request(
        f"{server.url}/v1/chat/check",
        data=json.dumps({"player_id": player_id, "text": "nice hand"}).encode(),
        headers={"X-API-Key": key_of("chat_service"), "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=5) as response:
        return str(json.loads(response.read())["decision"])


def test_an_analyst_signs_in_and_reviews_from_the_queue_with_the_keyboard(
    browser: Any, console_server: Server
) -> None:
    page = sign_in(browser, console_server, "analyst")
    assert page.url.endswith("/console/queue")
    rows = page.locator("#queue tbody tr")
    assert rows.count() >= 5
    screenshot(page, "queue")
    # j moves to the second flag, c confirms it.
    second = rows.nth(1).get_attribute("data-flag-id")
    page.keyboard.press("j")
    assert rows.nth(1).get_attribute("aria-selected") == "true"
    page.keyboard.press("c")
    assert "confirmed" in banner(page)
    assert _flag_status(console_server, str(second)) == "confirmed"
    assert page.locator(f'tr[data-flag-id="{second}"]').count() == 0, "it left the queue"
    # d asks for a note, and dismisses with it.
    first = page.locator("#queue tbody tr").first.get_attribute("data-flag-id")
    page.keyboard.press("d")
    note = page.get_by_label("Why dismiss this flag? (required)")
    assert note.is_visible()
    note.fill("friendly banter between regulars")
    screenshot(page, "queue-dismiss")
    note.press("Enter")
    assert "dismissed" in banner(page)
    assert _flag_status(console_server, str(first)) == "dismissed"
    # e escalates.
    third = page.locator("#queue tbody tr").first.get_attribute("data-flag-id")
    page.keyboard.press("e")
    assert "escalated" in banner(page)
    assert _flag_status(console_server, str(third)) == "escalated"
    page.context.close()


def test_an_analyst_mutes_a_player_and_the_chat_check_refuses_them(
    browser: Any, console_server: Server
) -> None:
    flag, player = _flag_of_an_unrestricted_player(console_server)
    page = sign_in(browser, console_server, "analyst")
    page.goto(f"/console/flags/{flag['flag_id']}")
    assert flag["flag_id"] in page.locator("h1").inner_text()
    page.get_by_label(f"Restrict {player}").select_option("mute_chat")
    page.get_by_label("for minutes (empty: until lifted)").first.fill("30")
    page.locator(f'input[id="reason-{player}"]').fill("flooding the table after a warning")
    page.get_by_role("button", name="Apply").first.click()
    assert f"mute_chat applied to {player}" in banner(page)
    assert _chat_check(console_server, player) == "block"
    screenshot(page, "flag-muted")
    # Lifting it from the same page lets the player speak again.
    page.get_by_label("Reason", exact=True).first.fill("appeal upheld")
    page.get_by_role("button", name="Lift").first.click()
    assert "lifted" in banner(page)
    assert _chat_check(console_server, player) == "allow"
    page.context.close()


def test_an_investigator_opens_a_hand_timeline(browser: Any, console_server: Server) -> None:
    flag = _in_hand_flag(console_server, said_in_text=True)
    assert flag["hand_id"], "an in-hand flag names its hand"
    page = sign_in(browser, console_server, "investigator")
    page.goto(f"/console/flags/{flag['flag_id']}")
    timeline = page.locator(f'section[aria-labelledby="hand-{flag["hand_id"]}"]')
    assert timeline.count() == 1
    text = timeline.inner_text()
    assert "Dealt in" in text and "Board" in text
    assert timeline.locator(".steps li.action").count() >= 3, "the hand's actions in order"
    assert timeline.locator(".steps li.message.offending").count() >= 1, "the message, placed"
    assert page.locator(".chat mark").count() >= 1, "the offending words highlighted"
    screenshot(page, "flag-hand-timeline")
    page.context.close()


def _store_bounty_group(server: Server) -> None:
    """A bounty-collusion flag from play, as the detector words one, over three players who
    were dealt hands together in the stored day: the simulated hour is too small a field for
    the detector to judge (it needs the tournament's pairs to say how far honest ones stray)."""
    engine = make_engine(server.db_url)
    with engine.connect() as conn:
        rows = conn.execute(
            select(schema.hands.c.hand_id, schema.hands.c.body)
            .where(schema.hands.c.tournament_id == "trn-1")
            .order_by(schema.hands.c.started_at)
            .limit(40)
        ).all()
    seats = [[s["player_id"] for s in body["seats"]] for _, body in rows]
    a, b, target = seats[-1][:3]
    hands = tuple(h for (h, _), dealt in zip(rows, seats, strict=True) if {a, b} <= set(dealt))
    finding = Finding(
        detector="bounty_collusion",
        category="bounty_collusion",
        severity="high",
        score=0.9,
        ts=datetime.now(UTC),
        player_ids=tuple(sorted((a, b))),
        tournament_id="trn-1",
        dedupe_key=f"trn-1:{','.join(sorted((a, b)))}",
        evidence=Evidence(
            kind="play_against_model",
            summary=f"{a} and {b} depart from honest play together; most often against {target}",
            event_ids=hands[:6],
            measures={"combined_z": 11.2, "shared_hands": len(hands)},
            details={
                "target": target,
                "pair": sorted((a, b)),
                "innocent_reading": "two players the model reads poorly in the same spots",
            },
        ),
    )
    StoreWriter(engine).write(flags=[Flag.from_finding(finding)])
    engine.dispose()


def test_a_collusion_group_shows_its_target_measures_hands_and_innocent_reading(
    browser: Any, console_server: Server
) -> None:
    _store_bounty_group(console_server)
    page = sign_in(browser, console_server, "investigator")
    page.goto("/console/collusion")
    page.get_by_role("link", name="trn-1").click()
    groups = page.locator("section.group")
    assert groups.count() >= 1
    screenshot(page, "collusion")
    text = page.locator("main").inner_text()
    assert "Innocent reading to rule out" in text
    targeted = page.locator("section.group", has_text="Target:")
    assert targeted.count() >= 1, "a bounty group names its target"
    assert targeted.first.locator("a[href*='#hand-']").count() >= 1, "with its evidence hands"
    page.context.close()


def test_an_investigator_exports_a_session(browser: Any, console_server: Server) -> None:
    flag = _in_hand_flag(console_server, dealt=True)
    player = flag["player_ids"][0]
    page = sign_in(browser, console_server, "investigator")
    page.goto(f"/console/players/{player}")
    assert page.locator("svg.chart").count() == 1
    screenshot(page, "player")
    page.locator("a[href^='/console/sessions/s-']").first.click()
    page.wait_for_load_state()
    screenshot(page, "session")
    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    path = download.value.path()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[0] == "kind,ts,who,what" and len(lines) > 10
    assert any(line.startswith("hand,") for line in lines)
    page.context.close()


def test_new_flags_appear_in_the_queue_without_reloading(
    browser: Any, console_server: Server
) -> None:
    page = sign_in(browser, console_server, "analyst")
    before = page.locator("#queue tbody tr").count()
    finding = Finding(
        detector="profanity",
        category="profanity",
        severity="low",
        score=0.6,
        ts=datetime.now(UTC),
        player_ids=("p-live",),
        evidence=Evidence(kind="profanity", summary="mild swearing 'damn' in table chat"),
        message_ids=("m-live-1",),
    )
    flag = Flag.from_finding(finding)
    engine = make_engine(console_server.db_url)
    StoreWriter(engine).write(flags=[flag])
    engine.dispose()
    page.locator(f'tr[data-flag-id="{flag.flag_id}"]').wait_for(timeout=10_000)
    assert page.locator("#queue tbody tr").count() == before + 1
    page.context.close()


def test_each_role_sees_only_its_controls_and_is_refused_beyond_them(
    browser: Any, console_server: Server
) -> None:
    flag = _first_flag(console_server, category="harassment")
    status_before = _flag_status(console_server, flag["flag_id"])
    # An investigator reads the queue and the flag, but has no review or restriction control.
    page = sign_in(browser, console_server, "investigator")
    assert page.locator("#review-form").count() == 0
    page.goto(f"/console/flags/{flag['flag_id']}")
    assert page.get_by_role("button", name="Confirm").count() == 0
    assert page.get_by_role("button", name="Apply").count() == 0
    # From the console's own origin (as its pages would post), so the role is what refuses.
    origin = {"Origin": console_server.url}
    refused = page.request.post(
        f"/console/flags/{flag['flag_id']}/review",
        form={"decision": "dismiss", "note": "not me", "version": "0", "csrf": "x"},
        headers=origin,
        max_redirects=0,
    )
    assert refused.status == 403 and "may not do this" in refused.text()
    assert _flag_status(console_server, flag["flag_id"]) == status_before
    page.goto("/console/policy")
    assert page.get_by_role("button", name="Reload the policy file").count() == 0
    reload = page.request.post("/console/policy/reload", form={"csrf": "x"}, headers=origin)
    assert reload.status == 403 and "may not do this" in reload.text()
    page.context.close()
    # An analyst: no session pages (investigator's), no reload.
    page = sign_in(browser, console_server, "analyst")
    assert page.get_by_role("link", name="Sessions").count() == 0
    assert page.goto("/console/sessions?player_id=p-1").status == 403  # type: ignore[union-attr]
    page.goto("/console/policy")
    assert page.locator("pre.policy").inner_text().strip() != ""
    assert page.get_by_role("button", name="Reload the policy file").count() == 0
    screenshot(page, "policy-analyst")
    page.context.close()
    # The chat service's key opens no session at all.
    page = sign_in(browser, console_server, "chat_service")
    assert "/console/login" in page.url
    assert "has no console pages" in page.locator("p.error").inner_text()
    assert page.locator("nav a").count() == 0
    assert not [c for c in page.context.cookies() if c["name"] == "railbird_console"]
    page.context.close()
    # An admin has the reload button, and it works.
    page = sign_in(browser, console_server, "admin")
    page.goto("/console/policy")
    page.get_by_role("button", name="Reload the policy file").click()
    assert "Reloaded" in banner(page)
    screenshot(page, "policy-admin")
    page.context.close()


def test_a_form_posted_without_the_csrf_token_is_refused(
    browser: Any, console_server: Server
) -> None:
    flag = _first_flag(console_server)  # any flag: the forged form must change none
    status_before = _flag_status(console_server, flag["flag_id"])
    page = sign_in(browser, console_server, "analyst")
    refused = page.request.post(
        f"/console/flags/{flag['flag_id']}/review",
        form={"decision": "confirm", "note": "forged", "version": "0", "csrf": "0" * 32},
        headers={"Origin": console_server.url},
        max_redirects=0,
    )
    assert refused.status == 403 and "CSRF token" in refused.text()
    assert _flag_status(console_server, flag["flag_id"]) == status_before
    cookies = page.context.cookies()
    session = next(c for c in cookies if c["name"] == "railbird_console")
    assert session["httpOnly"] and session["sameSite"] == "Strict" and session["secure"]
    # The browser holds a session id, never a key.
    assert not {c["value"] for c in cookies} & set(KEYS)
    page.context.close()
