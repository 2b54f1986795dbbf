"""The OpenAI-compatible surface through the official ``openai`` SDK, the client apps are built on:
over the Unix socket (httpx's ``HTTPTransport(uds=...)`` handed to the SDK) and over loopback TCP with
the token, streaming and not. The daemon runs the scripted provider (it echoes the user's words):
these tests are about what the daemon does with a request, not about the words of a model."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx  # the HTTP client the openai SDK (3.x) is built on
import openai
import pytest
from xaiclient import Client

from testkit.closing import kept
from testkit.http import http_socket, openai_over_unix
from testkit.inproc import InProcessDaemon


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def daemon_http(tmp_path: Path) -> Iterator[tuple[InProcessDaemon, int]]:
    port = free_port()
    with InProcessDaemon(
        tmp_path / "d", env={"XAID_HTTP_LISTEN": f"unix:,tcp:127.0.0.1:{port}"}
    ) as d:
        with d.client() as c:
            c.agent_create("mia", name="Mia")
            c.agent_create("lin", name="小林")
        yield d, port


def token_of(c: Client) -> str:
    return str(c.call("admin.http_token")["token"])


def test_models_are_the_agents(daemon_http: tuple[InProcessDaemon, int]) -> None:
    d, _ = daemon_http
    models = openai_over_unix(d).models.list()
    assert sorted(m.id for m in models.data) == ["lin", "mia"]
    assert openai_over_unix(d).models.retrieve("lin").id == "lin"
    with pytest.raises(openai.NotFoundError):
        openai_over_unix(d).models.retrieve("nobody")


@pytest.mark.parametrize(
    ("agent", "text"), [("mia", "I adopted a cat named Miso."), ("lin", "我今天去了京都。")]
)
def test_a_completion_over_the_unix_socket(
    daemon_http: tuple[InProcessDaemon, int], agent: str, text: str
) -> None:
    d, _ = daemon_http
    reply = openai_over_unix(d).chat.completions.create(
        model=agent, messages=[{"role": "user", "content": text}]
    )
    assert reply.object == "chat.completion" and reply.model == agent
    assert reply.choices[0].message.role == "assistant"
    assert reply.choices[0].message.content == f"echo: {text}"
    assert reply.choices[0].finish_reason == "stop"
    assert reply.usage is not None and reply.usage.completion_tokens > 0
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens


@pytest.mark.parametrize("text", ["tell me about your day", "给我讲讲你的一天"])
def test_streaming_over_the_unix_socket_as_the_sdk_parses_it(
    daemon_http: tuple[InProcessDaemon, int], text: str
) -> None:
    d, _ = daemon_http
    chunks = list(
        openai_over_unix(d).chat.completions.create(
            model="mia",
            messages=[{"role": "user", "content": text}],
            stream=True,
            stream_options={"include_usage": True},
        )
    )
    assert chunks[0].choices[0].delta.role == "assistant"
    assert len({c.id for c in chunks}) == 1
    words = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    assert words == f"echo: {text}"
    finishing = [c for c in chunks if c.choices and c.choices[0].finish_reason]
    assert [c.choices[0].finish_reason for c in finishing] == ["stop"]
    assert chunks[-1].choices == [] and chunks[-1].usage is not None  # the usage chunk, last
    assert chunks[-1].usage.completion_tokens > 0
    assert all(c.usage is None for c in chunks[:-1])


def test_loopback_tcp_with_the_token(daemon_http: tuple[InProcessDaemon, int]) -> None:
    d, port = daemon_http
    with d.client() as c:
        token = token_of(c)
    assert (d.state_dir / "http.token").stat().st_mode & 0o777 == 0o600
    sdk = kept(openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key=token, max_retries=0))
    reply = sdk.chat.completions.create(model="mia", messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content == "echo: hi"
    streamed = sdk.chat.completions.create(
        model="lin", messages=[{"role": "user", "content": "你好"}], stream=True
    )
    assert "".join(c.choices[0].delta.content or "" for c in streamed if c.choices) == "echo: 你好"


@pytest.mark.parametrize("key", [None, "wrong", "xaid-not-the-token"])
def test_tcp_without_the_token_is_refused(
    daemon_http: tuple[InProcessDaemon, int], key: str | None
) -> None:
    d, port = daemon_http
    headers = {} if key is None else {"Authorization": f"Bearer {key}"}
    raw = httpx.get(f"http://127.0.0.1:{port}/v1/models", headers=headers)
    assert raw.status_code == 401
    assert raw.json()["error"]["code"] == "invalid_api_key"
    if key is not None:
        sdk = kept(
            openai.OpenAI(base_url=f"http://127.0.0.1:{port}/v1", api_key=key, max_retries=0)
        )
        with pytest.raises(openai.AuthenticationError):
            sdk.chat.completions.create(model="mia", messages=[{"role": "user", "content": "hi"}])
    with d.client() as c:  # nothing was stored for a refused request
        assert c.call("session.list", agent_id="mia")["sessions"] == []


def test_a_wrong_origin_or_host_is_refused(daemon_http: tuple[InProcessDaemon, int]) -> None:
    d, port = daemon_http
    with d.client() as c:
        auth = {"Authorization": f"Bearer {token_of(c)}"}
    url = f"http://127.0.0.1:{port}/v1/models"
    assert httpx.get(url, headers=auth).status_code == 200
    evil = httpx.get(url, headers={**auth, "Origin": "http://evil.example"})
    assert evil.status_code == 403 and evil.json()["error"]["code"] == "origin_not_allowed"
    assert "access-control-allow-origin" not in evil.headers
    rebound = httpx.get(url, headers={**auth, "Host": f"evil.example:{port}"})
    assert rebound.status_code == 403 and rebound.json()["error"]["code"] == "host_not_allowed"
    over_uds = kept(httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(d)))))
    assert (
        over_uds.get(
            "http://localhost/v1/models", headers={"Origin": "http://evil.example"}
        ).status_code
        == 403
    )


def test_an_allowed_origin_gets_cors(tmp_path: Path) -> None:
    env = {"XAID_HTTP_LISTEN": "unix:", "XAID_HTTP_ORIGINS": "http://localhost:3000"}
    with InProcessDaemon(tmp_path / "d", env=env) as d:
        uds = kept(httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(d)))))
        ok = uds.get("http://localhost/v1/models", headers={"Origin": "http://localhost:3000"})
        assert ok.status_code == 200
        assert ok.headers["access-control-allow-origin"] == "http://localhost:3000"
        pre = uds.options(
            "http://localhost/v1/chat/completions", headers={"Origin": "http://localhost:3000"}
        )
        assert pre.status_code == 204 and "POST" in pre.headers["access-control-allow-methods"]


def test_a_peer_outside_the_allow_list_is_refused(tmp_path: Path) -> None:
    """The test runs as a uid the allow-list does not name: the same refusal as the CBOR socket's."""
    with InProcessDaemon(tmp_path / "d", env={"XAID_SERVER_ALLOW_UIDS": "4242"}) as d:
        with pytest.raises(openai.PermissionDeniedError) as info:
            openai_over_unix(d).models.list()
        assert "may not use this daemon" in str(info.value)
        assert "refused an HTTP connection" in d.log()


def test_errors_in_openai_shape(daemon_http: tuple[InProcessDaemon, int]) -> None:
    d, _ = daemon_http
    sdk = openai_over_unix(d)
    with pytest.raises(openai.NotFoundError) as missing:
        sdk.chat.completions.create(model="ghost", messages=[{"role": "user", "content": "hi"}])
    assert missing.value.code == "model_not_found"
    with pytest.raises(openai.BadRequestError):
        sdk.chat.completions.create(model="mia", messages=[])
    with pytest.raises(openai.BadRequestError):  # no user message: no turn
        sdk.chat.completions.create(
            model="mia", messages=[{"role": "system", "content": "be kind"}]
        )
    uds = kept(httpx.Client(transport=httpx.HTTPTransport(uds=str(http_socket(d)))))
    bad = uds.post("http://localhost/v1/chat/completions", content=b"{not json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_json"
    assert uds.get("http://localhost/v1/nothing").status_code == 404
    assert uds.get("http://localhost/v1/chat/completions").status_code == 405


@pytest.mark.skipif(os.geteuid() != 0, reason="becoming another uid needs root")
def test_a_second_uid_is_refused_while_the_first_is_served(tmp_path: Path) -> None:
    """A process of uid 5000 reaches the socket (mode 0666 here, so the file mode does not stop it)
    and is refused by the allow-list; the daemon's own uid is served in the same run."""
    public = Path(tempfile.mkdtemp(prefix="xaid-http-peer-"))  # tmp_path is closed to other uids
    public.chmod(0o755)
    probe = (
        "import json, os, socket, sys\n"  # the stdlib only: the venv may be closed to uid 5000
        "os.setgroups([]); os.setgid(5000); os.setuid(5000)\n"
        "s = socket.socket(socket.AF_UNIX); s.settimeout(20); s.connect(sys.argv[1])\n"
        "s.sendall(b'GET /v1/models HTTP/1.1\\r\\nHost: localhost\\r\\n\\r\\n')\n"
        "data = b''\n"
        "while chunk := s.recv(65536): data += chunk\n"
        "head, _, body = data.partition(b'\\r\\n\\r\\n')\n"
        "print(head.split()[1].decode(), json.loads(body)['error']['code'])\n"
    )
    try:
        with InProcessDaemon(public / "d", env={"XAID_SERVER_SOCKET_MODE": "0666"}) as d:
            os.chmod(d.socket.parent, 0o755)
            out = subprocess.run(
                [sys.executable, "-c", probe, str(http_socket(d))],
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert out.stdout.split() == ["403", "forbidden"], out.stderr
            assert "refused an HTTP connection from uid 5000" in d.log()
            assert openai_over_unix(d).models.list().data == []  # root (the daemon's uid) is served
    finally:
        shutil.rmtree(public, ignore_errors=True)
