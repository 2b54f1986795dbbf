"""Bad input on a real socket: each mistake gets its own error, and nothing else is disturbed.

The daemon runs the scripted provider (a stand-in for the LLM; the words don't matter here).
"""

from __future__ import annotations

import json
import socket
import struct
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cbor2
import pytest
from xaiclient import Client
from xaiclient.wire import FrameDecoder, decode_payload, encode_frame

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon


class Raw:
    """A hand-driven connection that can send bytes no well-behaved client would."""

    def __init__(self, path: Path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(10)
        self.sock.connect(str(path))
        self.dec = FrameDecoder()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, rid: int, method: str, **params: Any) -> None:
        self.send(encode_frame({"v": 1, "id": rid, "method": method, "params": params}))

    def read(self) -> dict[str, Any] | None:
        """The next frame, or None when the daemon closed the connection."""
        while True:
            payload = self.dec.next_payload()
            if payload is not None:
                return decode_payload(payload)
            try:
                data = self.sock.recv(65536)
            except ConnectionResetError:
                return None
            if not data:
                return None
            self.dec.feed(data)

    def frame(self) -> dict[str, Any]:
        """The next frame, which must come: the daemon keeps this connection open."""
        got = self.read()
        assert got is not None, "the daemon closed the connection"
        return got

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def raw(daemon: InProcessDaemon) -> Iterator[Raw]:
    conn = Raw(daemon.socket)
    yield conn
    conn.close()


def assert_alive(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        assert c.ping() == {}


def test_not_cbor_is_answered_and_the_connection_continues(
    raw: Raw, daemon: InProcessDaemon
) -> None:
    body = b"\xff\xff\xffnot cbor"
    raw.send(struct.pack(">I", len(body)) + body)
    reply = raw.read()
    assert reply is not None and reply["ok"] is False and reply["error"]["code"] == "bad_cbor"
    raw.request(2, "ping")
    assert raw.read() == {"id": 2, "ok": True, "result": {}}


def test_cbor_that_is_not_a_map(raw: Raw) -> None:
    body = cbor2.dumps([1, 2, 3])
    raw.send(struct.pack(">I", len(body)) + body)
    reply = raw.read()
    assert reply is not None and reply["error"]["code"] == "bad_request" and reply["id"] is None
    raw.request(3, "ping")
    assert raw.frame()["ok"] is True


def test_oversized_frame_closes_only_that_connection(raw: Raw, daemon: InProcessDaemon) -> None:
    other = daemon.client()
    raw.send(struct.pack(">I", (1 << 20) + 1) + b"x" * 100)
    reply = raw.read()
    assert reply is not None and reply["error"]["code"] == "frame_too_large"
    assert reply["error"]["data"]["limit"] == 1 << 20
    assert raw.read() is None  # closed: the stream cannot be resynchronised
    assert other.ping() == {}
    other.close()


def test_unknown_method_and_bad_params_keep_the_request_id(raw: Raw) -> None:
    raw.request(10, "no.such.method")
    raw.request(11, "agent.create", agent_id=42)
    raw.request(12, "agent.create", agent_id="ok", nmae="typo")
    raw.request(13, "agent.get", agent_id="missing")
    replies = {r["id"]: r for r in (raw.frame(), raw.frame(), raw.frame(), raw.frame())}
    assert replies[10]["error"]["code"] == "unknown_method"
    assert (
        replies[11]["error"]["code"] == "bad_params"
        and "agent_id" in replies[11]["error"]["message"]
    )
    assert (
        replies[12]["error"]["code"] == "bad_params" and "nmae" in replies[12]["error"]["message"]
    )
    assert replies[13]["error"]["code"] == "not_found"


def test_missing_session_and_envelope_errors(raw: Raw) -> None:
    raw.request(1, "session.send", session_id="s_nope", text="hi")
    assert raw.frame()["error"]["code"] == "not_found"
    raw.send(encode_frame({"id": 2, "v": 7, "method": "ping"}))
    assert raw.frame()["error"]["code"] == "unsupported_protocol"
    raw.send(encode_frame({"method": "ping"}))
    assert raw.frame()["error"]["code"] == "bad_request"


def test_truncated_frame_then_disconnect_leaves_daemon_and_data_intact(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as c:
        c.agent_create("keeper", persona_init="remember me")
    raw = Raw(daemon.socket)
    frame = encode_frame(
        {"v": 1, "id": 1, "method": "agent.delete", "params": {"agent_id": "keeper"}}
    )
    raw.send(frame[:-3])  # the delete never completes
    raw.close()
    with daemon.client() as c:
        assert c.agent_get("keeper")["persona_init"] == "remember me"
        assert c.status()["connections"] == 1


def test_random_garbage_from_many_clients(daemon: InProcessDaemon) -> None:
    import random

    rng = random.Random(1234)
    for _ in range(20):
        raw = Raw(daemon.socket)
        raw.send(bytes(rng.randrange(256) for _ in range(rng.randrange(1, 300))))
        raw.close()
    assert_alive(daemon)


def test_hello_negotiates_and_refuses_unknown_versions(raw: Raw) -> None:
    raw.request(1, "hello", client="t", protocol=[1, 2, 3])
    hello = raw.frame()["result"]
    assert (
        hello["protocol"] == 1
        and "session.send" in hello["methods"]
        and "cancel" in hello["methods"]
    )
    raw.request(2, "hello", client="t", protocol=[5])
    err = raw.frame()["error"]
    assert err["code"] == "unsupported_protocol" and err["data"]["supported"] == [1]


def test_duplicate_inflight_id_and_many_requests_in_flight(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
    raw = Raw(daemon.socket)
    ids = list(range(100, 130))
    for rid in ids:
        raw.request(rid, "ping")
    raw.request(500, "session.history", session_id=sid)
    got: dict[int, dict[str, Any]] = {}
    while len(got) < len(ids) + 1:
        frame = raw.frame()
        got[frame["id"]] = frame
    assert all(got[rid]["ok"] for rid in ids)
    assert got[500]["result"]["session"]["session_id"] == sid
    raw.close()


def test_peer_outside_the_allow_list_is_refused(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d", env={"XAID_SERVER_ALLOW_UIDS": "4242"}) as proc:
        raw = Raw(proc.socket)
        reply = raw.read()  # refused before any request is read
        assert reply is not None and reply["error"]["code"] == "forbidden"
        assert raw.read() is None
        raw.close()
        assert "refused a connection" in proc.log()


def test_client_reports_a_refused_peer(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d", env={"XAID_SERVER_ALLOW_UIDS": "4242"}) as proc:
        proc_socket = proc.socket
        from xaiclient import XaiError

        with pytest.raises(XaiError) as info:
            Client(proc_socket)
        assert info.value.code == "forbidden"


def test_peer_admitted_by_a_supplementary_group(tmp_path: Path) -> None:
    """allow_gids matches groups the client holds besides its primary one (SO_PEERGROUPS)."""
    import os
    import subprocess
    import sys
    import tempfile

    env = {
        "XAID_SERVER_ALLOW_UIDS": "4242",
        "XAID_SERVER_ALLOW_GIDS": "4343",
        "XAID_SERVER_SOCKET_MODE": "0666",
    }
    public = Path(
        tempfile.mkdtemp(prefix="xaid-groups-")
    )  # pytest's tmp_path is closed to other uids
    public.chmod(0o755)
    with DaemonProcess(public / "d", env=env) as proc:
        os.chmod(proc.socket.parent, 0o755)
        probe = (
            "import os, sys\n"
            "from xaiclient import Client, XaiError\n"  # import while root may still read the venv
            "os.setgroups([4343]); os.setgid(5000); os.setuid(5000)\n"
            "print(Client(sys.argv[1]).ping())\n"
        )
        out = subprocess.run(
            [sys.executable, "-c", probe, str(proc.socket)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == "{}"
        env_no = dict(env, XAID_SERVER_ALLOW_GIDS="4444")
    with DaemonProcess(public / "e", env=env_no) as proc:
        os.chmod(proc.socket.parent, 0o755)
        out = subprocess.run(
            [sys.executable, "-c", probe, str(proc.socket)],
            capture_output=True,
            text=True,
            timeout=30,
        )
        assert out.returncode != 0 and "forbidden" in out.stderr
        import shutil

        shutil.rmtree(public, ignore_errors=True)


def test_a_huge_bignum_version_is_refused_and_the_daemon_lives_on(
    raw: Raw, daemon: InProcessDaemon
) -> None:
    """repr() of an int over 4,300 digits raises: it used to escape and stop the daemon for everyone."""
    raw.send(encode_frame({"v": 10**5000, "id": 1, "method": "ping"}))
    reply = raw.read()
    assert (
        reply is not None and reply["id"] == 1 and reply["error"]["code"] == "unsupported_protocol"
    )
    assert "digits" in reply["error"]["message"]
    raw.request(2, "ping")
    assert raw.read() == {"id": 2, "ok": True, "result": {}}
    assert_alive(daemon)


def test_two_requests_in_flight_under_one_bignum_id(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
    raw = Raw(daemon.socket)
    rid = -(10**5000)
    first = {
        "v": 1,
        "id": rid,
        "method": "session.send",
        "params": {"session_id": sid, "text": "hello there"},
    }
    # One write: the second frame is read while the first is registered as in flight.
    raw.send(encode_frame(first) + encode_frame({**first, "method": "status", "params": {}}))
    frames: list[dict[str, Any]] = []
    while len(finals := [f for f in frames if "ok" in f]) < 2:
        frame = raw.read()
        assert frame is not None, frames
        frames.append(frame)
    assert all(f["id"] == rid for f in frames)
    refused = [f for f in finals if not f["ok"]]
    assert len(refused) == 1 and refused[0]["error"]["code"] == "bad_request"
    assert "already in flight" in refused[0]["error"]["message"]
    assert [f["ok"] for f in finals].count(True) == 1  # the turn itself went on
    raw.close()
    assert_alive(daemon)


def test_a_float_version_is_not_version_1(raw: Raw) -> None:
    raw.send(encode_frame({"v": 1.0, "id": 1, "method": "ping"}))
    reply = raw.read()
    assert (
        reply is not None and reply["id"] == 1 and reply["error"]["code"] == "unsupported_protocol"
    )


def test_a_request_that_repeats_a_key_is_refused(raw: Raw, daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        c.agent_create("keeper")

    def pairs(*items: tuple[object, object]) -> bytes:
        return bytes([0xA0 + len(items)]) + b"".join(
            cbor2.dumps(k) + cbor2.dumps(v) for k, v in items
        )

    # A reader that keeps the first "method" sees a ping; one that keeps the last, a delete.
    body = pairs(
        ("v", 1),
        ("id", 1),
        ("method", "ping"),
        ("params", {"agent_id": "keeper"}),
        ("method", "agent.delete"),
    )
    raw.send(struct.pack(">I", len(body)) + body)
    reply = raw.read()
    assert reply is not None and reply["id"] is None and reply["error"]["code"] == "bad_cbor"
    body = pairs(("v", 1), ("id", 2), ("method", "agent.get"))
    body = (
        bytes([0xA4])
        + body[1:]
        + cbor2.dumps("params")
        + pairs(("agent_id", "keeper"), ("agent_id", "x"))
    )
    raw.send(struct.pack(">I", len(body)) + body)
    reply = raw.read()
    assert reply is not None and reply["error"]["code"] == "bad_cbor"
    raw.request(3, "agent.get", agent_id="keeper")
    assert raw.frame()["ok"] is True


def test_silent_and_half_sent_connections_are_closed(tmp_path: Path) -> None:
    """64 of them used to hold every slot forever; now each is closed after its timeout."""
    env = {
        "XAID_SERVER_MAX_CONNECTIONS": "2",
        "XAID_SERVER_IDLE_SECONDS": "1",
        "XAID_SERVER_FRAME_SECONDS": "1",
    }
    with InProcessDaemon(tmp_path / "d", env=env) as proc:
        silent, half = Raw(proc.socket), Raw(proc.socket)
        half.send(encode_frame({"v": 1, "id": 1, "method": "ping"})[:-2])
        idle = silent.read()
        assert idle is not None and idle["id"] is None and idle["error"]["code"] == "timeout"
        assert "idle" in idle["error"]["message"]
        assert silent.read() is None
        stalled = half.read()
        assert (
            stalled is not None and stalled["id"] is None and stalled["error"]["code"] == "timeout"
        )
        assert "not finished" in stalled["error"]["message"]
        assert half.read() is None
        with proc.client() as c:
            assert c.ping() == {}
            assert c.stats()["protocol_errors"] >= 1
        silent.close()
        half.close()


def test_a_request_in_flight_is_not_idle(tmp_path: Path) -> None:
    env = {"XAID_SERVER_IDLE_SECONDS": "1", "XAID_LLM_SCRIPTED_DELAY_MS": "100"}
    with InProcessDaemon(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        result = c.session_send(sid, " ".join(["word"] * 30)).finish()  # about 3 s of streaming
        assert result["text"].count("word") == 30


def test_a_peer_that_stops_reading_gives_up_its_slot(tmp_path: Path) -> None:
    import time

    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_SERVER_FRAME_SECONDS": "1"}) as proc,
        proc.client() as c,
    ):
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        c.session_ingest(
            sid, [{"role": "user", "text": f"{i} " + "long words " * 1800} for i in range(40)]
        )
        staller = Raw(proc.socket)
        for rid in range(4):  # ~3 MB of replies it never reads
            staller.request(rid, "session.history", session_id=sid)
        for _ in range(600):
            if c.status()["connections"] == 1:
                break
            time.sleep(0.1)
        else:
            pytest.fail("the connection that reads nothing kept its slot")
        assert c.ping() == {}
        staller.close()


def _stats_until(c: Client, ok: Any) -> dict[str, Any]:
    """Poll ``stats`` until ``ok(stats)``; a bound on the polls, no duration asserted. The bound is
    generous (about a minute): under a load of ~14 the test failed once with a 20 s bound."""
    for _ in range(2400):
        stats = c.call("stats")
        if ok(stats):
            return stats
        time.sleep(0.025)
    raise AssertionError(f"never reached: {stats['backpressure']}")


def test_a_peer_that_stops_reading_holds_one_frame_not_every_reply(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Issue 22 item 2: 24 exports asked for and never read. The old connection encoded every reply
    before its write lock (24 frames held, here ~4 MiB; 2 GiB at the defaults over 64 connections);
    now the daemon holds the frame it is writing and the transport's high-water mark at most, reads
    none of that peer's requests while it does not read (``pauses``), keeps serving others, and lets
    go of it all when the peer leaves."""
    frame = 262_144
    # the frame limit (30 s) closes the stalled peer, which is not what this measures: on a machine
    # loaded by two model runs the pause came after it, and the next ping met a closed socket (CI of
    # session 39, BrokenPipeError)
    env = {"XAID_SERVER_MAX_FRAME_BYTES": str(frame), "XAID_SERVER_FRAME_SECONDS": "600"}
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c:
        c.agent_create("mia")
        summary = (  # imported: quicker than consolidating the same bytes of talk
            "We walked along the river after work and talked about moving to Lyon. "
            "下班后我们沿着河边散步，聊了要不要搬去杭州住一段时间。"
        ) * 80
        episodes = [
            {
                "session_id": f"s_old{i}",
                "started_ms": 1_770_000_000_000 + i * 86_400_000,
                "ended_ms": 1_770_000_060_000 + i * 86_400_000,
                "summary": summary,
            }
            for i in range(20)
        ]
        for half in (episodes[:10], episodes[10:]):
            c.memory_import("mia", files={"mia/old.jsonl": "\n".join(map(json.dumps, half)) + "\n"})
        size = len(encode_frame({"id": 1, "ok": True, "result": c.memory_export("mia")}))
        assert 150_000 < size < frame, size
        before = c.call("stats")["backpressure"]
        assert (before["queued_bytes"], before["pauses"]) == (0, 0)

        stalled = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        request.addfinalizer(stalled.close)  # closed also when an assertion below fails
        stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stalled.connect(str(d.socket))
        for rid in range(1, 25):
            stalled.sendall(
                encode_frame(
                    {"v": 1, "id": rid, "method": "memory.export", "params": {"agent_id": "mia"}}
                )
            )
        _stats_until(c, lambda s: s["backpressure"]["queued_bytes"] > 0)  # a reply is stuck

        def paused(stats: dict[str, Any]) -> bool:
            """A ping per poll: the daemon pauses when it would read a request while a reply waits
            above the transport's high-water mark. The first export's rest may sit below it (the
            connection still writable) while the second is being built; a single ping read then
            was answered, and with nothing more sent the reader never came to pause (the flake of
            session 9: 'pauses' stayed 0 until the 30 s frame limit closed the connection)."""
            if stats["backpressure"]["pauses"] >= 1:
                return True
            stalled.sendall(encode_frame({"v": 1, "id": 99, "method": "ping", "params": {}}))
            return False

        held = _stats_until(c, paused)["backpressure"]
        assert 0 < held["queued_bytes"] <= frame + 65_536
        assert held["worst_queued_bytes"] <= frame + 65_536  # one frame, never 24
        assert c.ping() == {}  # everyone else is served meanwhile
        # the one above, and at most one more the kernel's socket buffer took whole: not 24
        assert c.call("stats")["methods"]["memory.export"]["calls"] <= 3
        stalled.close()
        gone = _stats_until(c, lambda s: s["backpressure"]["queued_bytes"] == 0)["backpressure"]
        assert gone["worst_queued_bytes"] <= frame + 65_536
        assert c.memory_export("mia")
