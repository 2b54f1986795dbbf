"""The state directory: private files, a private directory, and one daemon at a time."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def refused_start(env: dict[str, str], *args: str) -> str:
    """Run xaid where it must refuse: exit 1 and one line on stderr, no traceback."""
    out = subprocess.run(
        [sys.executable, "-m", "xaid", *args], env=env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 1, out
    assert (
        "Traceback" not in out.stderr
        and out.stderr.count("\n") == 1
        and out.stderr.startswith("xaid: ")
    ), out
    return out.stderr


def test_the_database_files_are_private_and_the_socket_keeps_its_mode(tmp_path: Path) -> None:
    with DaemonProcess(tmp_path / "d") as proc, proc.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        c.session_ingest(sid, [{"role": "user", "text": "a secret only I should read"}])
        files = [p for p in proc.state_dir.iterdir() if p.is_file()]
        assert {p.name: mode(p) for p in files} == {p.name: 0o600 for p in files}
        assert {p.name for p in files} >= {"xaid.db", "xaid.db-wal", "xaid.lock"}
        assert mode(proc.state_dir) == 0o700
        assert mode(proc.socket) == 0o660


def test_a_state_directory_open_to_others_is_made_private(tmp_path: Path) -> None:
    proc = InProcessDaemon(tmp_path / "d")
    proc.state_dir.mkdir(parents=True)
    os.chmod(proc.state_dir, 0o755)
    with proc:
        assert mode(proc.state_dir) == 0o700
        assert "made it 0700" in proc.log()


def test_a_state_directory_of_another_uid_open_to_others_is_refused(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d")
    proc.state_dir.mkdir(parents=True)
    os.chmod(proc.state_dir, 0o755)
    os.chown(proc.state_dir, 4242, 4242)
    err = refused_start(proc.env)
    assert "refusing the state directory" in err and "uid 4242" in err
    assert mode(proc.state_dir) == 0o755 and not proc.db_path.exists()


def test_a_second_daemon_on_the_same_state_directory_refuses_to_start(
    daemon_process: DaemonProcess, tmp_path: Path
) -> None:
    with daemon_process.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
    other = tmp_path / "other.sock"
    env = dict(
        daemon_process.env, XAID_SERVER_SOCKET=str(other)
    )  # another socket: only the lock can tell
    err = refused_start(env)
    assert f"already uses the state directory {daemon_process.state_dir}" in err
    assert f"pid {daemon_process.process.pid}" in err
    assert not other.exists()
    backup = tmp_path / "backup.db"
    backup.write_bytes(b"")
    assert "already uses the state directory" in refused_start(env, "--restore", str(backup))
    with daemon_process.client() as c:
        assert c.session_history(sid)["session"]["open"] is True  # the second one closed nothing
