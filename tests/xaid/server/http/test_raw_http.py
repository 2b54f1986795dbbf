"""The HTTP surface below the SDK: the raw SSE bytes as curl receives them, keep-alive comments
while the model is slow, malformed requests answered 400 while the daemon keeps serving, bodies
over the limit, and systemd's socket activation of the HTTP socket. Scripted provider."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from testkit.closing import kept
from testkit.http import http_socket
from testkit.inproc import InProcessDaemon

CURL = shutil.which("curl")
needs_curl = pytest.mark.skipif(CURL is None, reason="curl is not installed (apt-get install curl)")


def curl_chat(sock: Path, body: dict[str, object]) -> bytes:
    assert CURL is not None
    out = subprocess.run(
        [CURL, "-sN", "--fail-with-body", "--unix-socket", str(sock),
         "-H", "Content-Type: application/json", "-d", json.dumps(body),
         "http://localhost/v1/chat/completions"],
        capture_output=True, timeout=60, check=True,
    )  # fmt: skip
    return out.stdout


def raw_exchange(sock: Path, data: bytes) -> bytes:
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(20)
        s.connect(str(sock))
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        got = b""
        while chunk := s.recv(65536):
            got += chunk
        return got


@pytest.fixture
def d(tmp_path: Path) -> object:
    env = {"XAID_LLM_SCRIPTED_DELAY_MS": "150", "XAID_HTTP_KEEPALIVE_SECONDS": "0.05"}
    with InProcessDaemon(tmp_path / "d", env=env) as daemon:
        with daemon.client() as c:
            c.agent_create("mia", name="Mia")
        yield daemon


@needs_curl
@pytest.mark.parametrize("text", ["hi there", "你好呀"])
def test_curl_reads_sse_as_openai_sends_it(d: InProcessDaemon, text: str) -> None:
    body = curl_chat(
        http_socket(d),
        {"model": "mia", "stream": True, "stream_options": {"include_usage": True},
         "messages": [{"role": "user", "content": text}]},
    )  # fmt: skip
    assert body.endswith(b"data: [DONE]\n\n")
    events = [e for e in body.split(b"\n\n") if e]
    data = [json.loads(e[len(b"data: ") :]) for e in events if e.startswith(b"data: {")]
    comments = [e for e in events if e.startswith(b":")]
    assert comments and all(e == b": keep-alive" for e in comments)  # the model was slow
    assert all(e.startswith((b"data: ", b":")) for e in events)
    assert data[0]["object"] == "chat.completion.chunk"
    assert data[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    words = "".join(c["choices"][0]["delta"].get("content", "") for c in data if c["choices"])
    assert words == f"echo: {text}"
    assert [c["choices"][0]["finish_reason"] for c in data if c["choices"]][-1] == "stop"
    assert data[-1]["choices"] == [] and data[-1]["usage"]["total_tokens"] > 0


@needs_curl
def test_curl_gets_a_whole_completion(d: InProcessDaemon) -> None:
    body = json.loads(
        curl_chat(
            http_socket(d), {"model": "mia", "messages": [{"role": "user", "content": "hey"}]}
        )
    )
    assert body["object"] == "chat.completion"
    assert body["choices"][0]["message"] == {
        "role": "assistant",
        "content": "echo: hey",
        "refusal": None,
    }


@pytest.mark.parametrize(
    "garbage",
    [
        b"GARBAGE\r\n\r\n",
        b"GET /v1/models HTTP/1.1\r\nno colon here\r\n\r\n",
        b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        b"GET /v1/models HTTP/1.1\r\nHost: a\r\nHost: b\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        "GET /v1/模型 HTTP/1.1\r\n\r\n".encode(),
    ],
)
def test_a_malformed_request_gets_400_and_the_daemon_keeps_serving(
    d: InProcessDaemon, garbage: bytes
) -> None:
    reply = raw_exchange(http_socket(d), garbage)
    assert reply.startswith(b"HTTP/1.1 400 "), reply[:200]
    assert json.loads(reply.partition(b"\r\n\r\n")[2])["error"]["type"] == "invalid_request_error"
    uds = kept(httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(d)))))
    assert uds.get("http://localhost/v1/models").json()["data"][0]["id"] == "mia"
    with d.client() as c:
        assert c.ping() == {}


def test_a_body_over_the_limit_gets_413(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d", env={"XAID_HTTP_MAX_BODY_BYTES": "2048"}) as d:
        uds = kept(httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(d)))))
        big = {"model": "mia", "messages": [{"role": "user", "content": "长" * 4000}]}
        refused = uds.post("http://localhost/v1/chat/completions", json=big)
        assert refused.status_code == 413 and refused.json()["error"]["code"] == "body_too_large"
        assert uds.get("http://localhost/v1/models").status_code == 200


def test_keep_alive_serves_many_requests_on_one_connection(d: InProcessDaemon) -> None:
    with d.client() as c:
        before = c.stats()["connections_total"]
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(d)))) as uds:
            for _ in range(5):
                assert uds.get("http://localhost/v1/models").status_code == 200
        assert c.stats()["connections_total"] == before + 1


def test_systemd_activates_the_http_socket(tmp_path: Path) -> None:
    """Two sockets handed over, named as the units name them: the HTTP one answers HTTP."""
    cbor = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    cbor.bind(str(tmp_path / "xaid.sock"))
    cbor.listen(8)
    http = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    http.bind(str(tmp_path / "activated-http.sock"))
    http.listen(8)
    env = {k: v for k, v in os.environ.items() if not k.startswith("XAID_")}
    env.update(
        {
            "LISTEN_FDS": "2",
            "LISTEN_FDNAMES": "xaid.socket:http",
            "XAID_STORAGE_STATE_DIR": str(tmp_path / "state"),
            "XAID_SERVER_SOCKET": str(tmp_path / "unused" / "xaid.sock"),
            "XAID_LLM_PROVIDER": "scripted",
        }
    )
    fds = (cbor.fileno(), http.fileno())

    def as_fd3_and_4() -> None:
        os.dup2(fds[0], 3)
        os.dup2(fds[1], 4)

    proc = subprocess.Popen(
        ["/bin/sh", "-c", f'LISTEN_PID=$$ exec "{sys.executable}" -m xaid'],
        env=env,
        preexec_fn=as_fd3_and_4,
        pass_fds=(3, 4),
    )
    try:
        uds = kept(
            httpx.Client(transport=httpx.HTTPTransport(uds=str(tmp_path / "activated-http.sock")))
        )
        for _ in range(300):
            try:
                assert uds.get("http://localhost/v1/models").json() == {
                    "object": "list",
                    "data": [],
                }
                break
            except httpx.TransportError:
                threading.Event().wait(0.05)
        else:
            pytest.fail("the activated HTTP socket never answered")
        assert not (tmp_path / "unused").exists()  # neither socket was bound by xaid itself
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
    cbor.close()
    http.close()


@pytest.mark.parametrize(
    "text", ["one two three four five six seven eight", "一 二 三 四 五 六 七 八"]
)
def test_a_client_gone_mid_stream_stops_the_turn(d: InProcessDaemon, text: str) -> None:
    """The peer closes after the first words: the turn stops, what was written is kept as
    ``interrupted``, and the daemon serves on."""
    body = json.dumps(
        {"model": "mia", "stream": True, "messages": [{"role": "user", "content": text}]}
    )
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(60)
        s.connect(str(http_socket(d)))
        s.sendall(
            b"POST /v1/chat/completions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            + f"Content-Length: {len(body.encode())}\r\n\r\n".encode()
            + body.encode()
        )
        got = b""
        while b'"content":"echo' not in got:
            got += s.recv(4096)
    with d.client() as c:
        sid = c.call("session.list", agent_id="mia")["sessions"][0]["session_id"]
        for _ in range(200):
            messages = c.call("session.history", session_id=sid)["messages"]
            if len(messages) == 2:
                break
            threading.Event().wait(0.05)
        assert [(m["role"], m["status"]) for m in messages] == [
            ("user", "complete"),
            ("assistant", "interrupted"),
        ]
        assert len(messages[1]["text"]) < len(f"echo: {text}")
    assert "Traceback" not in d.log()
    uds = kept(httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(d)))))
    assert uds.get("http://localhost/v1/models").status_code == 200
