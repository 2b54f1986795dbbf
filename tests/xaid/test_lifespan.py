"""The daemon's life: systemd notifications, socket activation, signals, and a SIGKILL mid-burst;
and hosted in a thread (``serve(stop=...)``, what the tests' in-process daemon uses)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import apsw
import pytest
from xaiclient import Client, XaiError

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon
from xaid import clock as clock_mod
from xaid.clock import ManualClock


def notify_socket(path: Path) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(15)
    return sock


def wait_for(sock: socket.socket, needle: str) -> list[str]:
    seen = []
    while True:
        msg = sock.recv(4096).decode()
        seen.append(msg)
        if needle in msg:
            return seen


def test_sd_notify_ready_watchdog_stopping(tmp_path: Path) -> None:
    sock = notify_socket(tmp_path / "notify")
    env = {"NOTIFY_SOCKET": str(tmp_path / "notify"), "WATCHDOG_USEC": "200000"}
    proc = DaemonProcess(tmp_path / "d", env=env)
    proc.env.update(env)  # DaemonProcess drops inherited NOTIFY_SOCKET; this one is ours
    with proc:
        first = wait_for(sock, "READY=1")
        assert any("READY=1" in m for m in first)
        wait_for(sock, "WATCHDOG=1")
        proc.stop()
        wait_for(sock, "STOPPING=1")
    sock.close()


def test_socket_activation_uses_the_inherited_socket(tmp_path: Path) -> None:
    path = tmp_path / "activated.sock"
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(path))
    listener.listen(8)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    env.update(
        {
            "LISTEN_FDS": "1",
            "XAID_STORAGE_STATE_DIR": str(tmp_path / "state"),
            "XAID_SERVER_SOCKET": str(tmp_path / "unused.sock"),
            "XAID_LLM_PROVIDER": "scripted",
        }
    )
    fd = listener.fileno()

    def as_fd3() -> None:
        os.dup2(fd, 3)

    proc = subprocess.Popen(
        ["/bin/sh", "-c", f'LISTEN_PID=$$ exec "{sys.executable}" -m xaid'],
        env=env,
        preexec_fn=as_fd3,
        pass_fds=(3,),  # fds are closed after preexec_fn, so keep 3
    )
    try:
        for _ in range(300):
            try:
                with Client(path, timeout=5) as c:
                    assert c.ping() == {}
                break
            except XaiError:
                threading.Event().wait(0.05)
        else:
            pytest.fail("the activated socket never answered")
        assert not (tmp_path / "unused.sock").exists()
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    assert path.exists()  # the socket belongs to systemd, not to us: left in place
    listener.close()


def test_second_daemon_on_the_same_socket_refuses_to_start(
    daemon_process: DaemonProcess, tmp_path: Path
) -> None:
    env = dict(daemon_process.env, XAID_STORAGE_STATE_DIR=str(tmp_path / "other"))
    out = subprocess.run(
        [sys.executable, "-m", "xaid"], env=env, capture_output=True, text=True, timeout=30
    )
    assert out.returncode != 0
    assert "already listens" in out.stderr and "Traceback" not in out.stderr
    with daemon_process.client() as c:
        assert c.ping() == {}


def test_sigterm_lets_a_running_turn_finish(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d", env={"XAID_LLM_SCRIPTED_DELAY_MS": "30"}).start()
    with proc.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        stream = c.session_send(sid, " ".join(["word"] * 20))
        first = next(iter(stream))
        assert first.event == "text"
        proc.process.send_signal(signal.SIGTERM)
        result = stream.finish()
    assert result["finish_reason"] == "stop" and result["text"].count("word") == 20
    assert proc.process.wait(20) == 0
    assert not proc.socket.exists()


def test_sighup_reloads_the_allow_list(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d", config='[log]\nlevel = "info"\n').start()
    try:
        assert proc.config_path is not None
        proc.config_path.write_text("[server]\nallow_uids = [4242]\n")
        proc.process.send_signal(signal.SIGHUP)
        for _ in range(200):
            if "configuration reloaded" in proc.log():
                break
            threading.Event().wait(0.05)
        with pytest.raises(XaiError) as info:
            proc.client()
        assert info.value.code == "forbidden"
        proc.config_path.write_text("[server]\nallow_uids = [not valid\n")
        proc.process.send_signal(signal.SIGHUP)
        for _ in range(200):
            if "keeping the running config" in proc.log():
                break
            threading.Event().wait(0.05)
        assert "keeping the running config" in proc.log()
    finally:
        proc.stop()


def test_sigkill_during_a_burst_loses_no_acknowledged_message(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d").start()
    with proc.client() as c:
        c.agent_create("burst")
        sessions = [c.session_open("burst")["session_id"] for _ in range(4)]
    acked: list[list[str]] = [[] for _ in sessions]
    enough = threading.Event()

    def writer(i: int, sid: str) -> None:
        try:
            with proc.client() as c:
                for n in range(100_000):
                    text = f"w{i} message {n} 第{n}条"
                    c.session_ingest(sid, [{"role": "user", "text": text}])
                    acked[i].append(text)
                    if sum(map(len, acked)) > 400:
                        enough.set()
        except XaiError:
            return  # the daemon died under us: expected

    threads = [threading.Thread(target=writer, args=(i, sid)) for i, sid in enumerate(sessions)]
    for t in threads:
        t.start()
    assert enough.wait(60)
    proc.kill()
    for t in threads:
        t.join(30)
    proc.start()
    with proc.client() as c:
        for i, sid in enumerate(sessions):
            stored = [m["text"] for m in c.session_history(sid)["messages"]]
            assert stored[: len(acked[i])] == acked[i]
            assert len(stored) - len(acked[i]) <= 1  # at most the one in flight when killed
    proc.stop()
    conn = apsw.Connection(str(proc.db_path))
    assert conn.execute("PRAGMA integrity_check").get == "ok"
    conn.close()


# --- hosted in a thread: serve(stop=...) ------------------------------------------------------------


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


def test_the_stop_event_drains_like_sigterm_and_leaves_no_thread_fd_or_zone_behind(
    tmp_path: Path,
) -> None:
    with InProcessDaemon(tmp_path / "warm"):  # the first daemon loads the shared embedder
        pass
    threads, fds, zone = set(threading.enumerate()), _open_fds(), clock_mod.zone()
    d = InProcessDaemon(
        tmp_path / "d",
        env={"XAID_LLM_SCRIPTED_DELAY_MS": "30", "XAID_MEMORY_TIMEZONE": "Asia/Shanghai"},
    ).start()
    with d.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        stream = c.session_send(sid, " ".join(["word"] * 20))
        assert next(iter(stream)).event == "text"
        stopper = threading.Thread(target=d.stop)
        stopper.start()
        result = stream.finish()
        stopper.join(30)
    assert not stopper.is_alive()
    assert result["finish_reason"] == "stop" and result["text"].count("word") == 20
    assert (
        not d.socket.exists() and "asked to stop: draining" in d.log() and "xaid stopped" in d.log()
    )
    assert set(threading.enumerate()) == threads
    assert _open_fds() == fds
    assert clock_mod.zone() == zone  # serve set Shanghai for the whole process; it is back
    conn = apsw.Connection(str(d.db_path))
    assert conn.execute("SELECT count(*) FROM messages").get == 2
    conn.close()


def test_the_daemon_reads_the_time_from_the_clock_it_is_given(tmp_path: Path) -> None:
    clock = ManualClock(1_750_000_000_000)
    with InProcessDaemon(tmp_path / "d", clock=clock) as d, d.client() as c:
        c.agent_create("mia")
        session = c.session_open("mia")
        assert session["opened_ms"] == 1_750_000_000_000
        clock.advance(90_000)
        c.session_send(session["session_id"], "hello").finish()
        asked, answered = (m["ts"] for m in c.session_history(session["session_id"])["messages"])
    assert asked == 1_750_000_090_000
    assert (
        asked <= answered < asked + 60_000
    )  # the turn's time plus what it took, not this machine's date
