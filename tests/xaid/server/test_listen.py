"""Our own socket: where it may be created, and what may be removed to make room for it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon
from xaid import config
from xaid.server.listen import ListenError, bind


def refused_start(proc: DaemonProcess) -> str:
    """Start the daemon where it must refuse: exit 1 and one line on stderr, no traceback."""
    proc.root.mkdir(parents=True, exist_ok=True)
    out = subprocess.run(
        [sys.executable, "-m", "xaid"], env=proc.env, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 1, out
    assert (
        "Traceback" not in out.stderr
        and out.stderr.count("\n") == 1
        and out.stderr.startswith("xaid: ")
    ), out
    return out.stderr


def test_a_socket_directory_others_may_write_is_refused(tmp_path: Path) -> None:
    proc = DaemonProcess(
        tmp_path / "d", env={"XAID_SERVER_SOCKET": str(tmp_path / "shared" / "xaid.sock")}
    )
    (tmp_path / "shared").mkdir(mode=0o777)
    os.chmod(tmp_path / "shared", 0o777)
    err = refused_start(proc)
    assert "refusing the socket directory" in err and "0777" in err
    assert not (tmp_path / "shared" / "xaid.sock").exists()


def test_a_socket_directory_of_another_uid_is_refused(tmp_path: Path) -> None:
    squatted = tmp_path / "squatted"
    squatted.mkdir(mode=0o700)
    os.chown(squatted, 4242, 4242)
    proc = DaemonProcess(tmp_path / "d", env={"XAID_SERVER_SOCKET": str(squatted / "xaid.sock")})
    assert "belongs to uid 4242" in refused_start(proc)
    link = tmp_path / "link"  # a link we did not make to a directory we own is no better
    link.symlink_to(tmp_path / "d")
    os.lchown(link, 4242, 4242)
    proc = DaemonProcess(tmp_path / "d", env={"XAID_SERVER_SOCKET": str(link / "xaid.sock")})
    assert "belongs to uid 4242" in refused_start(proc)


def test_the_tmp_fallback_directory_is_checked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without XDG_RUNTIME_DIR a user's daemon uses /tmp/xaid-UID, which another user may create first."""
    uid = 54321
    fallback = Path(f"/tmp/xaid-{uid}")
    fallback.mkdir(mode=0o777, exist_ok=False)
    try:
        os.chmod(fallback, 0o777)  # made by someone else, for everyone
        for name in ("RUNTIME_DIRECTORY", "XDG_RUNTIME_DIR", "LISTEN_PID", "LISTEN_FDS"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setattr(os, "geteuid", lambda: uid)
        with pytest.raises(ListenError, match="belongs to uid 0"):
            bind(config.Config())
        assert not (fallback / "xaid.sock").exists()
    finally:
        for child in fallback.iterdir():
            child.unlink()
        fallback.rmdir()


def test_a_regular_file_at_the_socket_path_is_left_alone(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d")
    proc.root.mkdir(parents=True)
    proc.socket.write_text("not a socket\n")
    err = refused_start(proc)
    assert "a file is in the way" in err
    assert proc.socket.read_text() == "not a socket\n"


def test_a_directory_at_the_socket_path_gives_one_line(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d")
    (proc.socket / "inside").mkdir(parents=True)
    assert "a directory is in the way" in refused_start(proc)
    assert (proc.socket / "inside").is_dir()


def test_a_stale_socket_is_replaced(tmp_path: Path) -> None:
    proc = InProcessDaemon(tmp_path / "d")
    proc.root.mkdir(parents=True)
    dead = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    dead.bind(str(proc.socket))  # bound, never listening, then closed: what a killed daemon leaves
    dead.close()
    with proc, proc.client() as c:
        assert c.ping() == {}
    assert not proc.socket.exists()
