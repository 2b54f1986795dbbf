"""xaictl chat and send as a person uses them, against a real daemon on a real socket (the scripted
provider stands in for the LLM: it echoes, so what arrived is visible in the reply)."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path

from testkit import one_line_error, xaictl, xaictl_json
from testkit.inproc import InProcessDaemon


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    env["XAICTL_HISTORY"] = str(tmp_path / "state" / "history")
    return env


class Repl:
    """xaictl chat on pipes, one line at a time, waiting for each reply."""

    def __init__(self, sock: Path, tmp_path: Path, *extra: str):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "xaiclient.cli", "--socket", str(sock), "chat", "mia", *extra],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(tmp_path),
        )

    def say(self, line: str, expect: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        seen = ""
        while expect not in seen:
            chunk = self.proc.stdout.readline()
            assert chunk, (
                f"xaictl chat ended before {expect!r}: {self.proc.stderr.read() if self.proc.stderr else ''}"
            )
            seen += chunk
        return seen

    def end(self) -> tuple[int, str]:
        _, err = self.proc.communicate("/quit\n", timeout=30)
        return self.proc.returncode, err


def test_commands_are_not_sent_and_quit_closes_the_session(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    sock = daemon.socket
    xaictl("agent", "create", "mia", socket=sock)
    lines = "I moved to a flat near the river\n/help\n/mood\n/memories\n/nonsense\n//slash first\n/quit\n"
    out = xaictl("chat", "mia", socket=sock, stdin=lines)
    assert out.returncode == 0, out.stderr
    assert (
        "/forget WHAT" in out.stdout
        and "valence" in out.stdout
        and "unknown command /nonsense" in out.stderr
    )
    assert "echo: /slash first" in out.stdout
    sessions = xaictl_json("session", "list", "mia", socket=sock)
    assert [s["open"] for s in sessions] == [False]
    history = xaictl_json("session", "history", sessions[0]["session_id"], socket=sock)
    said = [m["text"] for m in history if m["role"] == "user"]
    assert said == [
        "I moved to a flat near the river",
        "/slash first",
    ]  # no /help, /mood, ... among them


def test_forget_and_memories_in_chat(daemon: InProcessDaemon, tmp_path: Path) -> None:
    sock = daemon.socket
    xaictl("agent", "create", "mia", socket=sock)
    assert xaictl("chat", "mia", socket=sock, stdin="我妹妹住在杭州\n/quit\n").returncode == 0
    (session,) = xaictl_json("session", "list", "mia", socket=sock)
    assert (
        xaictl("session", "close", session["session_id"], "--wait", socket=sock).returncode == 0
    )  # remembered
    out = xaictl(
        "chat", "mia", socket=sock, stdin="/memories 杭州\n/forget 杭州\n/memories 杭州\n/quit\n"
    )
    assert out.returncode == 0, out.stderr
    _, recalled, forgot, after = out.stdout.split("you> ")[:4]
    assert "杭州" in recalled and forgot.startswith("forgot ") and int(forgot.split()[1]) >= 1
    assert "杭州" not in after and "nothing" in after


def test_a_closed_session_and_an_idle_connection_lose_no_line(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d", env={"XAID_SERVER_IDLE_SECONDS": "1"}) as daemon:
        sock = daemon.socket
        xaictl("agent", "create", "mia", socket=sock)
        repl = Repl(sock, tmp_path)
        assert "echo: before the break" in repl.say("before the break", "echo:")
        first = xaictl_json("session", "list", "mia", socket=sock)[0]["session_id"]
        assert (
            xaictl("session", "close", first, socket=sock).returncode == 0
        )  # as the idle sweep would
        time.sleep(1.5)  # and the daemon closes the chat's idle connection meanwhile
        assert "echo: after the break" in repl.say("after the break", "echo:")
        code, err = repl.end()
        assert code == 0 and "reconnected" in err and "was closed" in err
        sessions = xaictl_json("session", "list", "mia", socket=sock)
        assert [s["open"] for s in sessions] == [False, False] and sessions[0][
            "session_id"
        ] == first
        said = [
            [
                m["text"]
                for m in xaictl_json("session", "history", s["session_id"], socket=sock)
                if m["role"] == "user"
            ]
            for s in sessions
        ]
    assert said == [["before the break"], ["after the break"]]


def test_a_long_paste_at_a_terminal_arrives_whole(daemon: InProcessDaemon, tmp_path: Path) -> None:
    """Beyond the 4,095 characters a canonical-mode terminal passes on: readline reads it whole."""
    sock = daemon.socket
    xaictl("agent", "create", "mia", socket=sock)
    words = " ".join(f"w{i}" for i in range(2500))  # 12,389 characters, one line
    master, slave = os.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "xaiclient.cli", "--socket", str(sock), "chat", "mia"],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=_env(tmp_path),
        close_fds=True,
    )
    os.close(slave)
    seen = b""

    def pump(until: bytes, deadline: float) -> None:
        nonlocal seen
        while until not in seen and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    return

    try:
        pump(b"you> ", time.monotonic() + 30)
        data = (words + "\r").encode()
        for i in range(0, len(data), 512):
            os.write(master, data[i : i + 512])
            pump(b"\x00", time.monotonic() + 0.02)  # keep the echo flowing so neither side blocks
        pump(b"w2499\r\n", time.monotonic() + 60)
        pump(b"you> ", time.monotonic() + 30)
        os.write(master, b"/quit\r")
        proc.wait(30)
    finally:
        os.close(master)
        if proc.poll() is None:
            proc.kill()
    session = xaictl_json("session", "list", "mia", socket=sock)[0]["session_id"]
    said = [
        m["text"]
        for m in xaictl_json("session", "history", session, socket=sock)
        if m["role"] == "user"
    ]
    assert said == [words]
    history = Path(_env(tmp_path)["XAICTL_HISTORY"])
    assert history.stat().st_mode & 0o777 == 0o600 and words in history.read_text()


def test_send_reads_stdin_and_files_and_an_empty_one_opens_nothing(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    sock = daemon.socket
    xaictl("agent", "create", "mia", socket=sock)
    assert "the message is empty" in one_line_error(xaictl("send", "mia", "", socket=sock))
    assert "the message is empty" in one_line_error(
        xaictl("send", "mia", "-", socket=sock, stdin="  \n")
    )
    assert xaictl_json("session", "list", "mia", socket=sock) == []
    text = "第一行\nsecond line\n" + "long " * 3000 + "end"
    (tmp_path / "msg.txt").write_text(text + "\n", encoding="utf-8")
    from_file = xaictl_json("send", "mia", "--file", str(tmp_path / "msg.txt"), socket=sock)
    from_stdin = json.loads(
        xaictl("--json", "send", "mia", "-", socket=sock, stdin=text + "\n").stdout
    )
    assert from_file["session_id"] == from_stdin["session_id"]
    history = xaictl_json("session", "history", from_file["session_id"], socket=sock)
    assert [m["text"] for m in history if m["role"] == "user"] == [
        text,
        text,
    ]  # whole, less the final newline
    too_big = xaictl("send", "mia", "--new", "-", socket=sock, stdin="x" * 2_000_000)
    assert "frame_too_large" in one_line_error(too_big)
    sessions = xaictl_json("session", "list", "mia", socket=sock)
    assert [s["open"] for s in sessions] == [
        True,
        False,
    ]  # the one opened for the refused message: closed
    assert sessions[1]["messages"] == 0
