"""Console sessions that end: the cookie holds a session id kept in the store, never the key;
logging out, expiry and a withdrawn key end it on every server process; forms need the
session's token and a configured Origin; sign-in has its own nonce and is throttled; banners
never come from the URL; the live queue sends each flag once."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, select, update

from railbird.api import console as console_module
from railbird.api.app import create_app
from railbird.api.console import review_pages
from railbird.api.console.config import ConsoleConfig
from railbird.detectors.findings import Evidence, Finding
from railbird.ingest.files.jsonl import read_jsonl
from railbird.rules.flags import Flag
from railbird.store import schema
from railbird.store.database import make_engine, migrate
from railbird.store.writer import StoreWriter
from tests.api.conftest import KEYS, store_as_scan_does
from tests.console.conftest import FORM, ORIGIN, login_nonce, page_csrf, sign_in_client
from tests.paths import EXAMPLES

COOKIE = "__Host-railbird_console"
ANALYST = next(k for k, r in KEYS.items() if r == "analyst")
ADMIN = next(k for k, r in KEYS.items() if r == "admin")
INVESTIGATOR = next(k for k, r in KEYS.items() if r == "investigator")
assert console_module  # the package under test


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    path: Path = tmp_path_factory.mktemp("sessions") / "sessions.db"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    store_as_scan_does(engine, read_jsonl(EXAMPLES / "events.jsonl"))
    yield engine
    engine.dispose()


def _client(engine: Engine, keys: dict[str, str] = KEYS, **config: Any) -> TestClient:
    app = create_app(engine, keys, console_config=ConsoleConfig(origins=(ORIGIN,), **config))
    return TestClient(app, base_url=ORIGIN)


@pytest.fixture
def client(engine: Engine) -> Iterator[TestClient]:
    with engine.begin() as conn:  # each test starts with no throttle history
        conn.execute(schema.console_sign_ins.delete())
    with _client(engine) as test_client:
        yield test_client


def _signed_in(client: TestClient, key: str = ANALYST) -> str:
    answer = sign_in_client(client, key)
    assert answer.status_code == 303, answer.text[:300]
    return str(client.cookies[COOKIE])


def test_the_cookie_holds_a_session_id_never_the_key(client: TestClient) -> None:
    answer = sign_in_client(client, ANALYST)
    cookies = answer.headers.get_list("set-cookie")
    assert all(ANALYST not in c for c in cookies)
    session = next(c for c in cookies if c.startswith(f"{COOKIE}="))
    # Over HTTPS: a __Host- cookie, so Secure, path / and no Domain; HttpOnly; SameSite=Strict.
    assert "Secure" in session and "Path=/;" in session and "Domain" not in session
    assert "HttpOnly" in session and "SameSite=strict" in session
    session_id = client.cookies[COOKIE]
    assert session_id not in KEYS and len(session_id) >= 40
    # The session id is not a key: the API refuses it.
    assert client.get("/v1/flags", headers={"X-API-Key": session_id}).status_code == 401
    # Only its digest is stored.
    with client.app.state.engine.connect() as conn:  # type: ignore[attr-defined]
        stored = conn.execute(select(schema.console_sessions.c.id_hash)).scalars().all()
    assert session_id not in stored and all(len(h) == 64 for h in stored)


@pytest.mark.parametrize("value", [ANALYST, "made-up-session-id-" + "x" * 30, ""])
def test_a_hand_made_cookie_is_refused(client: TestClient, value: str) -> None:
    client.cookies.clear()
    client.cookies.set(COOKIE, value)
    answer = client.get("/console/queue", follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"].startswith("/console/login")
    form = client.post("/console/logout", data={"csrf": "x"}, headers=FORM, follow_redirects=False)
    assert form.status_code == 303 and "/console/login" in form.headers["location"]


def test_logging_out_ends_the_session_on_every_server_process(engine: Engine) -> None:
    """Two apps over one database stand for two `railbird serve` processes (the browser test
    runs two real ones): they share nothing but the store, so what one does to a session the
    other can only learn from there."""
    with _client(engine) as first, _client(engine) as second:
        session_id = _signed_in(first)
        second.cookies.set(COOKIE, session_id)
        assert second.get("/console/queue").status_code == 200
        csrf = page_csrf(first)
        out = first.post(
            "/console/logout", data={"csrf": csrf}, headers=FORM, follow_redirects=False
        )
        assert out.headers["location"] == "/console/login?ended=signed-out"
        assert first.cookies.get(COOKIE) is None
        replayed = second.get("/console/queue", follow_redirects=False)
        assert replayed.status_code == 303
        assert replayed.headers["location"].endswith("&ended=expired")
        # A form replayed with the old cookie changes nothing.
        flag_id = second.get("/v1/flags", headers={"X-API-Key": ADMIN}).json()["items"][0]
        review = second.post(
            f"/console/flags/{flag_id['flag_id']}/review",
            data={"decision": "confirm", "version": "0", "csrf": csrf},
            headers=FORM,
            follow_redirects=False,
        )
        assert review.status_code == 303 and "/console/login" in review.headers["location"]
        again = second.get(f"/v1/flags/{flag_id['flag_id']}", headers={"X-API-Key": ADMIN})
        assert again.json()["status"] == flag_id["status"]


@pytest.mark.parametrize(
    "expire",
    [
        {"last_seen_at": datetime.now(UTC) - timedelta(minutes=31)},  # idle
        {"expires_at": datetime.now(UTC) - timedelta(seconds=1)},  # absolute
    ],
)
def test_a_session_expires_on_the_server_whatever_the_cookie_says(
    client: TestClient, expire: dict[str, datetime]
) -> None:
    session_id = _signed_in(client)
    assert client.get("/console/queue").status_code == 200
    with client.app.state.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.execute(update(schema.console_sessions).values(**expire))
    client.cookies.set(COOKIE, session_id)
    answer = client.get("/console/queue", follow_redirects=False)
    assert answer.status_code == 303 and "ended=expired" in answer.headers["location"]
    page = client.get(answer.headers["location"])
    assert "Your session ended" in page.text


def test_a_key_taken_out_of_the_ring_ends_its_sessions(engine: Engine) -> None:
    with _client(engine) as first:
        session_id = _signed_in(first)
    without = {k: r for k, r in KEYS.items() if k != ANALYST}
    with _client(engine, keys=without) as second:
        second.cookies.set(COOKIE, session_id)
        assert second.get("/console/queue", follow_redirects=False).status_code == 303
    with _client(engine) as third:  # even with the key back, that session is over
        third.cookies.set(COOKIE, session_id)
        assert third.get("/console/queue", follow_redirects=False).status_code == 303


def test_sign_in_needs_the_console_origin_and_its_own_form(client: TestClient) -> None:
    client.cookies.clear()
    nonce = login_nonce(client)
    form = {"api_key": ANALYST, "login_csrf": nonce}
    for headers, why in [
        ({}, "no Origin header"),
        ({"Origin": "https://evil.example"}, "posted from &#39;https://evil.example&#39;"),
        ({"Origin": "null"}, "posted from &#39;null&#39;"),
        # The Host header is the client's to choose: the origin is compared with the config.
        ({"Origin": "https://evil.example", "Host": "evil.example"}, "evil.example"),
    ]:
        answer = client.post("/console/login", data=form, headers=headers, follow_redirects=False)
        assert answer.status_code == 403 and why in answer.text, (headers, answer.text[:300])
        assert COOKIE not in client.cookies
    # A cross-site form cannot know the nonce, nor carry the nonce cookie (SameSite=Strict).
    forged = client.post(
        "/console/login",
        data={"api_key": ANALYST, "login_csrf": "guessed"},
        headers=FORM,
        follow_redirects=False,
    )
    assert forged.status_code == 403 and "not shown by this console" in forged.text
    client.cookies.clear()
    no_cookie = client.post("/console/login", data=form, headers=FORM, follow_redirects=False)
    assert no_cookie.status_code == 403 and COOKIE not in client.cookies


def test_every_form_needs_the_console_origin(client: TestClient) -> None:
    _signed_in(client)
    csrf = page_csrf(client)
    for headers in ({}, {"Origin": "https://testserver.evil.example"}, {"Origin": "null"}):
        answer = client.post("/console/logout", data={"csrf": csrf}, headers=headers)
        assert answer.status_code == 403, headers
        assert client.get("/console/queue", follow_redirects=False).status_code == 200


def test_the_csrf_token_is_the_sessions_and_changes_with_it(client: TestClient) -> None:
    _signed_in(client)
    first = page_csrf(client)
    _signed_in(client)
    second = page_csrf(client)
    assert first != second
    stale = client.post("/console/logout", data={"csrf": first}, headers=FORM)
    assert stale.status_code == 403 and "CSRF token" in stale.text
    assert client.get("/console/queue", follow_redirects=False).status_code == 200


def test_signing_in_again_ends_the_previous_session(client: TestClient) -> None:
    old = _signed_in(client)
    client.cookies.clear()
    nonce = login_nonce(client)  # a sign-in page opened beside the signed-in tab
    client.cookies.set(COOKIE, old)
    answer = client.post(
        "/console/login",
        data={"api_key": ANALYST, "login_csrf": nonce},
        headers=FORM,
        follow_redirects=False,
    )
    new = answer.cookies[COOKIE]
    assert new != old
    client.cookies.clear()
    client.cookies.set(COOKIE, new)
    assert client.get("/console/queue", follow_redirects=False).status_code == 200
    client.cookies.clear()
    client.cookies.set(COOKIE, old)
    assert client.get("/console/queue", follow_redirects=False).status_code == 303


def test_sign_in_is_throttled_per_client_and_per_key(engine: Engine) -> None:
    with _client(engine, failures_per_client=3, attempts_per_key=4) as client:
        with engine.begin() as conn:
            conn.execute(schema.console_sign_ins.delete())
        for n in range(3):
            wrong = sign_in_client(client, f"wrong-key-{n:02d}-0123456789")
            assert wrong.status_code == 401
        blocked = sign_in_client(client, ANALYST)  # even the right key, from this client
        assert blocked.status_code == 429 and "Too many sign-in attempts" in blocked.text
        assert 0 < int(blocked.headers["retry-after"]) <= 15 * 60
        assert COOKIE not in client.cookies
        with engine.begin() as conn:
            conn.execute(schema.console_sign_ins.delete())
        # Per key: four sign-ins with one key, right or wrong, then it waits.
        for _ in range(4):
            assert sign_in_client(client, INVESTIGATOR).status_code == 303
        assert sign_in_client(client, INVESTIGATOR).status_code == 429
        assert sign_in_client(client, ANALYST).status_code == 303  # another key may
        with engine.connect() as conn:  # addresses and keys are kept as digests only
            rows = conn.execute(select(schema.console_sign_ins)).all()
        assert rows and all(INVESTIGATOR not in str(tuple(r)) for r in rows)


def test_a_service_key_gets_no_session(client: TestClient) -> None:
    for role in ("chat_service", "lobby_service", "reports"):
        key = next(k for k, r in KEYS.items() if r == role)
        answer = sign_in_client(client, key)
        assert answer.status_code == 403 and "has no console pages" in answer.text
        assert COOKIE not in client.cookies


def test_banners_come_from_the_server_never_from_the_url(client: TestClient) -> None:
    phishing = "Your key expired: call support on +1 555 0100"
    _signed_in(client)
    page = client.get("/console/queue", params={"msg": phishing})
    assert page.status_code == 200 and "call support" not in page.text
    login = client.get("/console/login", params={"msg": phishing, "ended": "elsewhere"})
    assert "call support" not in login.text
    # A review's banner is the server's, shown once.
    flag = client.get("/v1/queue", headers={"X-API-Key": ADMIN}).json()["items"][0]
    client.post(
        f"/console/flags/{flag['flag_id']}/review",
        data={"decision": "escalate", "version": str(flag["review_version"]),
              "csrf": page_csrf(client), "next": "/console/queue?msg=" + phishing},
        headers=FORM,
        follow_redirects=False,
    )  # fmt: skip
    after = client.get("/console/queue")
    assert f"Flag {flag['flag_id']} escalated." in after.text
    assert "call support" not in after.text
    assert f"Flag {flag['flag_id']} escalated." not in client.get("/console/queue").text


def test_analysts_see_and_end_their_sessions_and_an_admin_anyones(engine: Engine) -> None:
    with (
        _client(engine) as laptop,
        _client(engine) as desktop,
        _client(engine) as other,
        _client(engine) as admin,
    ):
        _signed_in(laptop)
        _signed_in(desktop)
        _signed_in(other, INVESTIGATOR)
        _signed_in(admin, ADMIN)
        mine = laptop.get("/console/account").text
        refs = re.findall(r'data-ref="([0-9a-f]+)"', mine)
        assert len(refs) >= 2 and "(this browser)" in mine
        others = re.findall(r'data-ref="([0-9a-f]+)"', other.get("/console/account").text)
        # The analyst cannot end the investigator's session.
        laptop.post(
            f"/console/account/sessions/{others[0]}/end",
            data={"csrf": page_csrf(laptop)},
            headers=FORM,
        )
        assert other.get("/console/queue", follow_redirects=False).status_code == 200
        # The analyst ends the desktop's session from the laptop.
        desktop_ref = re.findall(r'data-ref="([0-9a-f]+)"', desktop.get("/console/account").text)
        current = re.search(
            r'data-ref="([0-9a-f]+)">\s*<td>[0-9a-f]+ <strong>\(this browser\)',
            desktop.get("/console/account").text,
        )
        assert current and current.group(1) in desktop_ref
        ended = laptop.post(
            f"/console/account/sessions/{current.group(1)}/end",
            data={"csrf": page_csrf(laptop)},
            headers=FORM,
        )
        assert f"Session {current.group(1)} ended." in ended.text
        assert desktop.get("/console/queue", follow_redirects=False).status_code == 303
        # The admin sees every key's sessions and ends the investigator's.
        everyone = admin.get("/console/account").text
        assert others[0] in everyone and "Console sessions (every key)" in everyone
        admin.post(
            f"/console/account/sessions/{others[0]}/end",
            data={"csrf": page_csrf(admin)},
            headers=FORM,
        )
        assert other.get("/console/queue", follow_redirects=False).status_code == 303
    with engine.connect() as conn:
        audited = conn.execute(
            select(schema.audit_log.c.action).where(schema.audit_log.c.action.like("console%"))
        ).scalars()
        assert {"console_sign_in", "console_session_ended"} <= set(audited)


def _sse_ids(client: TestClient, url: str, **headers: str) -> list[str]:
    with client.stream("GET", url, headers=headers) as answer:
        assert answer.status_code == 200
        body = "".join(answer.iter_text())
    return re.findall(r'"flag_id":"([^"]+)"', body)


def _flag(engine: Engine, severity: str, ts: datetime, player: str) -> str:
    finding = Finding(
        detector="profanity",
        category="profanity",
        severity=severity,  # type: ignore[arg-type]
        score=0.5,
        ts=ts,
        player_ids=(player,),
        evidence=Evidence(kind="profanity", summary="mild swearing in table chat"),
        message_ids=(f"m-{player}",),
    )
    flag = Flag.from_finding(finding)
    StoreWriter(engine).write(flags=[flag])
    return flag.flag_id


def test_the_live_queue_sends_each_flag_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page shows the 50 most severe flags; a newer, milder one stored before the page was
    drawn is not 'new', and a reconnecting browser resumes after the last row it got."""
    engine = make_engine(f"sqlite:///{tmp_path / 'live.db'}")
    migrate(engine)
    now = datetime.now(UTC)
    for n in range(55):
        _flag(engine, "critical", now - timedelta(hours=2, minutes=n), f"p-old-{n}")
    older_but_milder = _flag(engine, "low", now - timedelta(minutes=5), "p-mild")
    monkeypatch.setattr(review_pages, "STREAM_POLL_S", 0.05)
    monkeypatch.setattr(review_pages, "STREAM_LIFETIME_S", 0.3)
    with _client(engine) as client:
        _signed_in(client)
        page = client.get("/console/queue").text
        assert f'data-flag-id="{older_but_milder}"' not in page  # below the first page
        stream = re.search(r'data-stream="([^"]+)"', page)
        assert stream
        url = stream.group(1).replace("&amp;", "&")
        assert _sse_ids(client, url) == []
        fresh = _flag(engine, "low", now, "p-new")
        assert _sse_ids(client, url) == [fresh]
        # The browser reconnects with the last id it got: nothing is sent twice.
        with client.stream("GET", url) as answer:
            last = re.findall(r"^id: (.+)$", "".join(answer.iter_text()), re.M)[-1]
        assert _sse_ids(client, url, **{"Last-Event-ID": last}) == []
    engine.dispose()
