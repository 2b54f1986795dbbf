"""Fault injection beside a real daemon, for tests/xaid/test_faults.py and perf/faults.py.

A small tmpfs as the state directory and a filler file to make its disk full, a read-only look
into the database (sqlite-vec loaded) that never checkpoints or recovers the WAL, a wait for the
embedding model, a peer of another uid that tries its luck on the socket, and a raw connection that
sends any params at all. Only the standard library, apsw, sqlite_vec and xaiclient: no pytest.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import apsw
import sqlite_vec
from xaiclient import Client
from xaiclient.wire import FrameDecoder, decode_payload, encode_frame

# --- the database -----------------------------------------------------------------------------------


def read_only(db: Path) -> apsw.Connection:
    """A reader beside the daemon (or after it was killed): never checkpoints, never recovers."""
    conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
    conn.setbusytimeout(5000)
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    return conn


@dataclass
class DbCheck:
    integrity: str  # PRAGMA integrity_check, its rows joined by "; "
    duplicated_episodes: int  # sessions with more than one episode
    unfinished_jobs: int  # consolidation jobs not 'done'
    failed_jobs: int

    @property
    def healthy(self) -> bool:
        return (
            self.integrity == "ok" and self.duplicated_episodes == 0 and self.unfinished_jobs == 0
        )


def check_db(db: Path) -> DbCheck:
    conn = read_only(db)
    try:
        integrity = "; ".join(r[0] for r in conn.execute("PRAGMA integrity_check"))
        dups = conn.execute(
            "SELECT count(*) FROM (SELECT session_id FROM episodes WHERE session_id IS NOT NULL "
            "GROUP BY session_id HAVING count(*) > 1)"
        ).get
        unfinished = conn.execute("SELECT count(*) FROM jobs WHERE state != 'done'").get
        failed = conn.execute("SELECT count(*) FROM jobs WHERE state = 'failed'").get
    finally:
        conn.close()
    return DbCheck(integrity, dups, unfinished, failed)


def wait_memory_ready(client: Client, timeout: float = 30.0) -> None:
    """The embedding model loads in the background after READY, and the vector table is written
    when it has loaded; some scenarios need it done. RuntimeError after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if client.stats()["memory"]["embedder"] == "ready":
            return
        time.sleep(0.05)
    raise RuntimeError("the embedding model did not load")


def session_to_consolidate(client: Client) -> str:
    """Agent "a" with one episode already (the embedding model loaded), and an open session of three
    turns: closing it is a small write, its consolidation (episode, facts, vectors) a larger one,
    which a nearly full disk refuses. Returns that session's id."""
    wait_memory_ready(client)
    client.agent_create("a")
    s0 = client.session_open("a")["session_id"]
    client.session_send(s0, "My sister Anna lives in Kyoto and I work at Globex.").finish()
    client.session_close(s0, wait=True)
    sid = client.session_open("a")["session_id"]
    for i in range(3):
        client.session_send(
            sid,
            f"I'm so tired today {i}, my brother Tom moved to Oslo on 2026-03-0{i + 1} "
            "and I like climbing.",
        ).finish()
    return sid


# --- a full disk ------------------------------------------------------------------------------------


class MountError(subprocess.CalledProcessError):
    """``mount`` refused (no root, no tmpfs in this container, ...)."""

    def __str__(self) -> str:
        why = (self.stderr or "").strip() or f"exit status {self.returncode}"
        return f"cannot mount a tmpfs: {why}"


@contextlib.contextmanager
def tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` (mount's syntax: "8m") on ``path``, unmounted afterwards (lazily if it
    stays busy for 5 s). Mounting needs root; MountError if it fails."""
    path.mkdir(parents=True, exist_ok=True)
    args = ["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(path)]
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode:
        raise MountError(done.returncode, args, done.stdout, done.stderr)
    try:
        yield path
    finally:
        for _ in range(50):
            if subprocess.run(["umount", str(path)], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            subprocess.run(["umount", "-l", str(path)], check=False)


def fill(path: Path, leave: int = 0) -> Path:
    """A filler file that takes every free block of the file system but ``leave`` bytes."""
    filler = path / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        block = b"\0" * 65536
        for _ in range(1 << 16):  # 4 GiB at most; the tmpfs is a few MiB
            try:
                if os.write(fd, block) < len(block):
                    break
            except OSError:
                break
        for _ in range(64):
            try:
                os.write(fd, b"\0" * 4096)
            except OSError:
                break
    finally:
        os.close(fd)
    if leave:
        os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


# --- a refused peer ---------------------------------------------------------------------------------

# Run as root: becomes uid/gid 5000, connects ``attempts`` times and sends agent.create and
# memory.forget all at once each time; prints {json [[id, error code] of each frame received]: count}.
INTRUDER = r"""
import json, os, socket, struct, sys
import cbor2
path, attempts = sys.argv[1], int(sys.argv[2])
os.setgroups([]); os.setgid(5000); os.setuid(5000)
seen = {}
for i in range(attempts):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    for rid, method, params in ((1, "agent.create", {"agent_id": f"intruder{i}"}),
                                (2, "memory.forget", {"agent_id": "keeper", "all": True})):
        body = cbor2.dumps({"v": 1, "id": rid, "method": method, "params": params})
        try:
            s.sendall(struct.pack(">I", len(body)) + body)
        except OSError:
            pass
    data = b""
    try:
        while chunk := s.recv(65536):
            data += chunk
    except OSError:
        pass
    s.close()
    frames = []
    while len(data) >= 4:
        n = struct.unpack(">I", data[:4])[0]
        frames.append(cbor2.loads(data[4:4 + n]))
        data = data[4 + n:]
    key = json.dumps([[f.get("id"), (f.get("error") or {}).get("code")] for f in frames])
    seen[key] = seen.get(key, 0) + 1
print(json.dumps(seen))
"""
REFUSED = json.dumps(
    [[None, "forbidden"]]
)  # the one outcome allowed: a 'forbidden' frame (id null), then EOF


def intrude(sock: Path, attempts: int, timeout: float = 120.0) -> dict[str, int]:
    """Run INTRUDER against ``sock`` (needs root): how often each outcome was seen (REFUSED, ...)."""
    proc = subprocess.run(
        [sys.executable, "-c", INTRUDER, str(sock), str(attempts)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the intruder failed: {proc.stderr[-2000:]}")
    return json.loads(proc.stdout)


# --- any params -------------------------------------------------------------------------------------


class Raw:
    """A hand-driven connection: any params (``null`` included, which xaiclient drops), events skipped."""

    def __init__(self, path: Path, timeout: float = 20.0):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        self.sock.connect(str(path))
        self.dec = FrameDecoder(1 << 26)
        self.rid = 0

    def call(self, method: str, params: Any) -> dict[str, Any]:
        """The final reply to one request; a tool call is cancelled so no turn waits for us."""
        self.rid += 1
        rid = self.rid
        self.sock.sendall(encode_frame({"v": 1, "id": rid, "method": method, "params": params}))
        while True:
            payload = self.dec.next_payload()
            if payload is None:
                data = self.sock.recv(1 << 16)  # socket timeout: a hang raises TimeoutError
                if not data:
                    raise ConnectionError(f"the daemon closed the connection during {method}")
                self.dec.feed(data)
                continue
            msg = decode_payload(payload)
            if msg.get("id") != rid:
                continue
            if "event" in msg:
                if msg["event"] == "tool_call":
                    self.rid += 1
                    self.sock.sendall(
                        encode_frame(
                            {"v": 1, "id": self.rid, "method": "cancel", "params": {"id": rid}}
                        )
                    )
                continue
            return msg

    def close(self) -> None:
        self.sock.close()
