"""xaictl as a user runs it: a subprocess against a real daemon (scripted provider standing in
for the LLM), and against no daemon at all."""

from __future__ import annotations

import json
from pathlib import Path

from testkit import xaictl
from testkit.inproc import InProcessDaemon


def test_no_daemon_is_one_line_and_non_zero(tmp_path: Path) -> None:
    for args in (["ping"], ["agent", "list"], ["send", "mia", "hi"]):
        out = xaictl(*args, socket=tmp_path / "absent.sock")
        assert out.returncode == 3
        assert out.stderr.count("\n") == 1 and "xaid is not running" in out.stderr
        assert "Traceback" not in out.stderr


def test_agent_lifecycle_and_errors(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    created = xaictl(
        "--json", "agent", "create", "mia", "--name", "Mia", "--persona", "Warm.", socket=sock
    )
    assert created.returncode == 0 and json.loads(created.stdout)["persona_init"] == "Warm."
    listed = xaictl("agent", "list", socket=sock)
    assert "mia" in listed.stdout and "Mia" in listed.stdout
    updated = xaictl(
        "--json", "agent", "update", "mia", "--config", '{"max_tokens": 5}', socket=sock
    )
    assert json.loads(updated.stdout)["config"] == {"max_tokens": 5}
    bad = xaictl("agent", "update", "mia", "--config", '{"nope": 1}', socket=sock)
    assert bad.returncode == 1 and bad.stderr.startswith("xaictl: bad_params:")
    missing = xaictl("agent", "show", "ghost", socket=sock)
    assert missing.returncode == 1 and "not_found" in missing.stderr
    refused = xaictl("agent", "delete", "mia", socket=sock)
    assert refused.returncode == 1 and "--yes" in refused.stderr
    assert xaictl("agent", "delete", "mia", "--yes", socket=sock).returncode == 0
    assert "(no agents)" in xaictl("agent", "list", socket=sock).stdout


def test_send_reuses_the_open_session_and_history_shows_it(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    xaictl("agent", "create", "mia", socket=sock)
    first = xaictl("send", "mia", "我今天很累", socket=sock)
    assert first.returncode == 0 and first.stdout.strip() == "echo: 我今天很累"
    second = json.loads(xaictl("--json", "send", "mia", "still here", socket=sock).stdout)
    assert second["text"] == "echo: still here"
    sessions = json.loads(xaictl("--json", "session", "list", "mia", socket=sock).stdout)
    assert len(sessions) == 1 and sessions[0]["messages"] == 4
    history = xaictl("session", "history", second["session_id"], socket=sock).stdout
    assert "user: 我今天很累" in history and "assistant: echo: still here" in history
    assert xaictl("session", "close", second["session_id"], socket=sock).returncode == 0
    third = json.loads(xaictl("--json", "send", "mia", "new day", socket=sock).stdout)
    assert third["session_id"] != second["session_id"]


def test_chat_repl_new_and_quit(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    xaictl("agent", "create", "mia", socket=sock)
    out = xaictl("chat", "mia", socket=sock, stdin="hello there\n/new\nsecond session\n/quit\n")
    assert out.returncode == 0
    assert "echo: hello there" in out.stdout and "echo: second session" in out.stdout
    sessions = json.loads(xaictl("--json", "session", "list", "mia", socket=sock).stdout)
    assert [s["open"] for s in sessions] == [False, False]  # /quit closes the session


def test_ping_and_status(daemon: InProcessDaemon) -> None:
    assert "pong" in xaictl("ping", socket=daemon.socket).stdout
    status = json.loads(xaictl("--json", "status", socket=daemon.socket).stdout)
    assert status["model"]["provider"] == "scripted" and status["model"]["state"] == "ready"


def test_agent_show_prints_text_and_json_on_request(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    config = (
        '{"max_tokens": 64, "tools": [{"name": "weather", "description": "Weather in a city"}]}'
    )
    xaictl(
        "agent",
        "create",
        "mei",
        "--name",
        "小梅",
        "--persona",
        "温暖、简短。",
        "--config",
        config,
        socket=sock,
    )
    text = xaictl("agent", "show", "mei", socket=sock)
    assert text.returncode == 0 and text.stdout.startswith("mei: 小梅, created ")
    assert "persona: 温暖、简短。" in text.stdout and '"max_tokens": 64' in text.stdout
    assert "tools: weather" in text.stdout
    for args in (("--json", "agent", "show", "mei"), ("agent", "show", "mei", "--json")):
        shown = json.loads(xaictl(*args, socket=sock).stdout)
        assert shown["config"]["max_tokens"] == 64 and shown["name"] == "小梅"


def test_token_prints_the_http_token(daemon: InProcessDaemon) -> None:
    """The API key an app needs for the HTTP surface's TCP listeners: the file's, private."""
    out = xaictl("token", socket=daemon.socket)
    stored = (daemon.state_dir / "http.token").read_text().strip()
    assert out.returncode == 0 and out.stdout.strip() == stored and stored.startswith("xaid-")
    found = json.loads(xaictl("--json", "token", socket=daemon.socket).stdout)
    assert found == {"token": stored, "listen": ["unix:"]}
    assert (daemon.state_dir / "http.token").stat().st_mode & 0o777 == 0o600
