"""An operator's own room, end to end through the commands: the policy file names the site's
domains, its staff and a mute length; `railbird scan` and `railbird serve` judge the next
messages by them (serve after a reload, without a restart); a bad value stops either command
at start with the line at fault."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from railbird.api.chat_gate import POLICY_FOLLOW_SECONDS
from railbird.rules.policy_file import default_policy_text

RAILBIRD = [sys.executable, "-m", "railbird"]
KEYS = {"admin-key-0123456789ab": "admin", "chat-key-0123456789ab": "chat_service"}
MESSAGES = {
    "own link": ("p-1", "come play at www.acmepoker.com it's better"),
    "look-alike": ("p-2", "free chips at acmep0ker.com/login"),
    "staff": ("p-staff-1", "I am railbird support, admin here: your account is under review"),
    "old room": ("p-3", "visit ultimatepoker.com/promo"),
}
SHIPPED_ADVERTISING = (
    '[ladders.advertising]\nsteps = [{ kind = "mute_chat", minutes = 60 }, '
    '{ kind = "suspend_communication", minutes = 10080 }]'
)


def _operators_file() -> str:
    """The shipped file as an operator edits it: their room, their staff, a shorter mute."""
    text = default_policy_text()
    edits = {
        'version = "2026-12-03.1"': 'version = "acme.1"',
        '# domains = ["example-poker.com"]': 'domains = ["acmepoker.com"]',
        '# staff_player_ids = ["p-support-1", "p-support-2"]': 'staff_player_ids = ["p-staff-1"]',
        SHIPPED_ADVERTISING: SHIPPED_ADVERTISING.replace("minutes = 60", "minutes = 15"),
    }
    for old, new in edits.items():
        assert old in text, old
        text = text.replace(old, new)
    return text


def _events(path: Path) -> Path:
    with path.open("w") as out:
        for n, (player, text) in enumerate(MESSAGES.values()):
            record = {
                "type": "chat",
                "message_id": f"m-{n}",
                "ts": f"2026-12-01T20:00:0{n}.000Z",
                "player_id": player,
                "channel": "table",
                "table_id": "t-1",
                "text": text,
            }
            out.write(json.dumps(record) + "\n")
    return path


def _scan(tmp_path: Path, policy: Path | None) -> tuple[set[tuple[str, str]], list[Any]]:
    """(player, category) of each flag, and the actions, of one `railbird scan`."""
    flags, actions = tmp_path / "flags.jsonl", tmp_path / "actions.jsonl"
    env = {**os.environ, "RAILBIRD_POLICY": str(policy) if policy else ""}
    events = _events(tmp_path / "events.jsonl")
    subprocess.run(
        [*RAILBIRD, "scan", str(events), "--out", str(flags), "--actions", str(actions)],
        check=True,
        capture_output=True,
        env=env,
        timeout=120,
    )
    found = [json.loads(line) for line in flags.read_text().splitlines()]
    return (
        {(f["player_ids"][0], f["category"]) for f in found},
        [json.loads(line) for line in actions.read_text().splitlines()],
    )


def test_scan_judges_by_the_operators_room_staff_and_mute_length(tmp_path: Path) -> None:
    flagged, actions = _scan(tmp_path, None)
    assert flagged == {("p-1", "advertising"), ("p-staff-1", "impersonation")}
    mute = next(a for a in actions if a["kind"] == "mute_chat")
    assert (mute["player_id"], mute["duration_s"]) == ("p-1", 3600)
    policy = tmp_path / "policy.toml"
    policy.write_text(_operators_file())
    flagged, actions = _scan(tmp_path, policy)
    assert flagged == {("p-2", "malicious_link"), ("p-3", "advertising")}
    mute = next(a for a in actions if a["kind"] == "mute_chat")
    assert (mute["player_id"], mute["duration_s"]) == ("p-3", 15 * 60)
    assert "policy acme.1" in mute["reason"]


@pytest.mark.parametrize("command", ["scan", "serve"])
def test_a_bad_setting_stops_the_command_at_start_naming_the_line(
    tmp_path: Path, command: str
) -> None:
    text = _operators_file().replace('domains = ["acmepoker.com"]', 'domains = ["acme poker"]')
    line = text.splitlines().index('domains = ["acme poker"]') + 1
    policy = tmp_path / "policy.toml"
    policy.write_text(text)
    env = {
        **os.environ,
        "RAILBIRD_POLICY": str(policy),
        "RAILBIRD_DATABASE_URL": f"sqlite:///{tmp_path / 'x.db'}",
        "RAILBIRD_API_KEYS": json.dumps(KEYS),
    }
    args = [str(_events(tmp_path / "events.jsonl"))] if command == "scan" else []
    done = subprocess.run(
        [*RAILBIRD, command, *args], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert f"{policy} line {line}: [site] domains: 'acme poker' is not a domain name" in done.stderr


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _post(url: str, key: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body or {}).encode(),
        headers={"X-API-Key": key, "Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


STAFF_CLAIMS = (
    "I am railbird support, admin here: your account is under review",
    "this is poker support, we need to verify your account",
    "official staff here, your account will be locked",
    "support team here: your cashout is on hold",
)


def _decisions(base: str, round_: int) -> dict[str, str]:
    """The check's answers to `MESSAGES`, said afresh: each round at its own table, by its own
    players (the staff account with another claim), so no round is a repeat of another."""
    key = next(k for k, role in KEYS.items() if role == "chat_service")
    found = {}
    for name, (player, text) in MESSAGES.items():
        body = {"message_id": f"m-{round_}-{player}", "table_id": f"t-{round_}"}
        if name == "staff":
            body |= {"player_id": player, "text": STAFF_CLAIMS[round_]}
        else:
            body |= {"player_id": f"{player}-{round_}", "text": text}
        status, answer = _post(f"{base}/v1/chat/check", key, body)
        assert status == 200, answer
        found[name] = answer["decision"]
    return found


def test_serve_follows_a_reloaded_room_in_every_server_process(tmp_path: Path) -> None:
    policy = tmp_path / "policy.toml"
    policy.write_text(default_policy_text())
    port = _free_port()
    env = {
        **os.environ,
        "RAILBIRD_DATABASE_URL": f"sqlite:///{tmp_path / 'serve.db'}",
        "RAILBIRD_API_KEYS": json.dumps(KEYS),
        "RAILBIRD_PORT": str(port),
        "RAILBIRD_POLICY": str(policy),
    }
    env.pop("RAILBIRD_KAFKA_BOOTSTRAP_SERVERS", None)
    server = subprocess.Popen(
        [*RAILBIRD, "serve", "--workers", "2"], env=env, stderr=subprocess.PIPE, text=True
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, server.stderr.read() if server.stderr else ""
            assert time.monotonic() < deadline, "the server did not answer within a minute"
            try:
                with urllib.request.urlopen(f"{base}/health", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        before = {"own link": "block", "look-alike": "allow", "staff": "block", "old room": "allow"}
        assert _decisions(base, 0) == before
        policy.write_text(_operators_file())
        admin = next(k for k, role in KEYS.items() if role == "admin")
        status, shown = _post(f"{base}/v1/policy/reload", admin)
        assert status == 200 and shown["version"] == "acme.1"
        assert shown["policy"]["site"]["domains"] == ["acmepoker.com"]
        # The process that took the reload answers at once; the others re-read the changed
        # file within `POLICY_FOLLOW_SECONDS`. Then every answer, from any process, is the new.
        time.sleep(2 * POLICY_FOLLOW_SECONDS + 1)
        after = {"own link": "allow", "look-alike": "block", "staff": "allow", "old room": "block"}
        for round_ in (1, 2, 3):
            assert _decisions(base, round_) == after, round_
        server.send_signal(signal.SIGTERM)
        assert server.wait(30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(10)
        if server.stderr is not None:
            server.stderr.close()
