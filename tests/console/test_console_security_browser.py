"""The console's defences in a real browser (Debian's Chromium) against two real `railbird
serve` processes over one database: signing out on one ends the session on the other; another
site's form cannot sign the browser in; a hand-made cookie opens nothing; the OpenAPI UI loads
nothing from any other host; chat that turns text round shows its controls as marks."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from sqlalchemy import select

from railbird.detectors.text.bidi import BIDI_CONTROLS
from railbird.ingest.decode import RawRecord
from railbird.store import schema
from railbird.store.database import make_engine
from tests.api.conftest import store_as_scan_does
from tests.console.conftest import Server, key_of, screenshot, sign_in

pytestmark = pytest.mark.browser
RLO, PDF = "\u202e", "\u202c"


def test_signing_out_on_one_server_ends_the_session_on_the_other(
    browser: Any, console_server: Server, second_server: Server
) -> None:
    page = sign_in(browser, console_server, "analyst")
    assert page.url.endswith("/console/queue")
    # Cookies are per host, not per port: the browser sends the session to the second server,
    # which knows it only through the store.
    assert page.goto(f"{second_server.url}/console/queue").status == 200  # type: ignore[union-attr]
    assert page.locator("#queue").count() == 1
    page.goto(f"{console_server.url}/console/queue")
    session = [c for c in page.context.cookies() if c["name"] == "railbird_console"]
    page.get_by_role("button", name="Sign out").click()
    page.wait_for_url("**/console/login?ended=signed-out")
    assert not [c for c in page.context.cookies() if c["name"] == "railbird_console"]
    # The old cookie, replayed (as the probe did after logging out), against the other server.
    page.context.add_cookies(session)
    page.goto(f"{second_server.url}/console/queue")
    assert "/console/login" in page.url
    assert "Your session ended" in page.locator("p.message").inner_text()
    page.context.close()


def test_another_sites_form_cannot_sign_the_browser_in(
    browser: Any, console_server: Server
) -> None:
    """Login CSRF: a page on another site posts the attacker's key to the sign-in form."""
    context = browser.new_context()
    page = context.new_page()
    attack = (
        f'<form id="f" method="post" action="{console_server.url}/console/login">'
        f'<input name="api_key" value="{key_of("investigator")}">'
        '<input name="login_csrf" value="guess"></form>'
        '<script>document.getElementById("f").submit()</script>'
    )
    page.route(
        "http://attacker.test/**",
        lambda route: route.fulfill(status=200, content_type="text/html", body=attack),
    )
    with page.expect_response(f"{console_server.url}/console/login") as posted:
        page.goto("http://attacker.test/")
    assert posted.value.status == 403
    assert not [c for c in context.cookies() if c["name"] == "railbird_console"]
    page.goto(f"{console_server.url}/console/queue")
    assert "/console/login" in page.url, "the browser is not signed in as anyone"
    context.close()


def test_a_hand_made_cookie_opens_nothing(browser: Any, console_server: Server) -> None:
    context = browser.new_context(base_url=console_server.url)
    for value in (key_of("admin"), "0" * 43):
        context.add_cookies(
            [{"name": "railbird_console", "value": value, "url": console_server.url}]
        )
        page = context.new_page()
        page.goto("/console/queue")
        assert "/console/login" in page.url, value
        page.close()
    context.close()


def test_the_openapi_ui_loads_nothing_from_another_host(
    browser: Any, console_server: Server, second_server: Server
) -> None:
    context = browser.new_context()
    page = context.new_page()
    requested: list[str] = []
    problems: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.on(
        "console",
        lambda message: problems.append(message.text) if message.type == "error" else None,
    )
    page.goto(f"{second_server.url}/docs")
    page.locator(".swagger-ui .info .title").wait_for(timeout=15_000)
    assert "railbird" in page.locator(".swagger-ui .info .title").inner_text()
    page.locator(".opblock").first.wait_for()
    assert page.locator(".opblock").count() >= 15, "every route is listed"
    screenshot(page, "openapi-ui")
    foreign = [
        u for u in requested if not u.startswith(second_server.url) and not u.startswith("data:")
    ]
    assert not foreign, foreign
    assert not [p for p in problems if "Content Security Policy" in p], problems
    # The default `serve` has no UI at all.
    assert page.goto(f"{console_server.url}/docs").status == 404  # type: ignore[union-attr]
    context.close()


def test_bidi_controls_show_as_marks_in_the_console(browser: Any, console_server: Server) -> None:
    reversed_link = f"check https://good.example/{RLO}exe.gnp{PDF} and {RLO}toidi gnikcuf uoy"
    record = {
        "type": "chat",
        "message_id": "m-bidi-1",
        "ts": "2026-11-29T20:15:03.120Z",
        "player_id": "p-bidi",
        "screen_name": f"{RLO}nimda",
        "channel": "table",
        "table_id": "t-bidi",
        "kind": "text",
        "text": reversed_link,
    }
    engine = make_engine(console_server.db_url)
    store_as_scan_does(engine, [RawRecord("test", "1", orjson.dumps(record))])
    f, c = schema.flags.c, schema.chat_messages.c
    with engine.connect() as conn:
        flag_id = conn.execute(
            select(f.flag_id).where(f.table_id == "t-bidi").order_by(f.flag_id)
        ).scalar()
        stored = conn.execute(select(c.text).where(c.message_id == "m-bidi-1")).scalar_one()
    engine.dispose()
    assert flag_id, "the reversed insult is flagged as it displays"
    assert RLO not in stored and "\u27e8RLO\u27e9" in stored  # kept for analysts with marks
    page = sign_in(browser, console_server, "investigator")
    page.goto(f"/console/flags/{flag_id}")
    message = page.locator("#msg-m-bidi-1")
    assert message.count() == 1
    marks = message.locator("span.bidi")
    assert marks.count() == 3  # RLO, PDF, RLO
    assert marks.first.inner_text() == "\u27e8RLO\u27e9"
    assert "right-to-left override" in str(marks.first.get_attribute("title"))
    assert "exe.gnp" in message.inner_text(), "the characters in the order they were sent"
    html = page.content()
    assert not [ch for ch in BIDI_CONTROLS if ch in html], "no control reaches the page"
    screenshot(page, "flag-bidi-marks")
    page.context.close()
