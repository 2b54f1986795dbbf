"""OpenAICompatProvider against a real loopback HTTP server.

The server stands in for an OpenAI-compatible endpoint such as llama-server: it records every
request it receives and answers with a scripted server-sent-events stream, so the provider's real
socket, HTTP and SSE code runs without any network beyond 127.0.0.1.
"""

from __future__ import annotations

import dataclasses
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from xaid.config import LLMConfig
from xaid.providers.base import ChatMessage, GenerateRequest, ProviderError, ToolCall, ToolSpec
from xaid.providers.openai_compat import OpenAICompatProvider

KEY = "sk-test-secret-1234567890"


@dataclasses.dataclass
class Reply:
    status: int = 200
    events: list[Any] = dataclasses.field(default_factory=list)  # dicts become `data:` lines
    body: str = ""  # used instead of events when status >= 400
    delay: float = 0.0  # pause after each event, to stream slowly
    echo_auth: bool = False  # put the Authorization header into the error body


class FakeEndpoint(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.requests: list[dict[str, Any]] = []
        self.reply = Reply()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


class Handler(BaseHTTPRequestHandler):
    server: FakeEndpoint

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep test output quiet

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.requests.append(
            {"path": self.path, "headers": dict(self.headers), "body": json.loads(raw)}
        )
        reply = self.server.reply
        if reply.status >= 400:
            body = reply.body
            if reply.echo_auth:
                body = f"rejected {self.headers.get('Authorization')} " + body
            data = body.encode()
            self.send_response(reply.status)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        try:
            for event in [*reply.events, "[DONE]"]:
                payload = event if isinstance(event, str) else json.dumps(event)
                self.wfile.write(f"data: {payload}\n\n".encode())
                self.wfile.flush()
                if reply.delay:
                    time.sleep(reply.delay)
        except OSError:
            pass  # the client hung up (cancellation)


@pytest.fixture
def endpoint() -> Iterator[FakeEndpoint]:
    server = FakeEndpoint()
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def make(base_url: str, env: dict[str, str] | None = None, **changes: Any) -> OpenAICompatProvider:
    cfg = dataclasses.replace(
        LLMConfig(), base_url=base_url, model="test-model", request_timeout=10.0, **changes
    )
    provider = OpenAICompatProvider(cfg, env={} if env is None else env)
    provider.load()
    return provider


def content(text: str, finish: str | None = None) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": finish}]}


def tool_delta(
    index: int, *, call_id: str | None = None, name: str | None = None, args: str = ""
) -> dict[str, Any]:
    call: dict[str, Any] = {"index": index, "function": {"arguments": args}}
    if call_id is not None:
        call["id"] = call_id
        call["type"] = "function"
    if name is not None:
        call["function"]["name"] = name
    return {"choices": [{"index": 0, "delta": {"tool_calls": [call]}, "finish_reason": None}]}


def request(**kw: Any) -> GenerateRequest:
    return GenerateRequest(
        messages=(ChatMessage("system", "be brief"), ChatMessage("user", "hi")), **kw
    )


def run(
    provider: OpenAICompatProvider, req: GenerateRequest | None = None
) -> tuple[list[str], Any]:
    pieces: list[str] = []
    completion = provider.generate(req or request(), pieces.append, threading.Event())
    return pieces, completion


def test_content_pieces_stream_in_order(endpoint: FakeEndpoint) -> None:
    endpoint.reply = Reply(events=[content("Hel"), content("lo, "), content("world", "stop")])
    pieces, completion = run(make(endpoint.base_url))
    assert pieces == ["Hel", "lo, ", "world"]
    assert completion.text == "Hello, world"
    assert completion.finish_reason == "stop"
    assert completion.tool_calls == []
    assert completion.completion_tokens == 3  # no usage sent: one token per delta
    assert completion.prompt_tokens == 0


def test_usage_from_stream_wins(endpoint: FakeEndpoint) -> None:
    usage = {"choices": [], "usage": {"prompt_tokens": 17, "completion_tokens": 5}}
    endpoint.reply = Reply(events=[content("a"), content("b", "length"), usage])
    _, completion = run(make(endpoint.base_url))
    assert (completion.prompt_tokens, completion.completion_tokens) == (17, 5)
    assert completion.finish_reason == "length"


def test_request_body_is_openai_shaped(endpoint: FakeEndpoint) -> None:
    endpoint.reply = Reply(events=[content("ok", "stop")])
    tool = ToolSpec(
        "get_weather",
        "Weather for a city",
        {"type": "object", "properties": {"city": {"type": "string"}}},
    )
    req = request(tools=(tool,), max_tokens=42, temperature=0.25)
    run(make(endpoint.base_url), req)
    (got,) = endpoint.requests
    assert got["path"] == "/v1/chat/completions"
    body = got["body"]
    assert body["model"] == "test-model"
    assert body["stream"] is True
    assert body["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
    ]
    assert body["tools"] == [
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Weather for a city",
                "parameters": tool.parameters,
            },
        }
    ]
    assert body["max_tokens"] == 42
    assert body["temperature"] == 0.25


def test_no_tools_key_without_tools(endpoint: FakeEndpoint) -> None:
    endpoint.reply = Reply(events=[content("ok", "stop")])
    run(make(endpoint.base_url))
    assert "tools" not in endpoint.requests[0]["body"]


def test_api_key_from_env(endpoint: FakeEndpoint, tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("sk-from-file\n")
    endpoint.reply = Reply(events=[content("ok", "stop")])
    run(make(endpoint.base_url, env={"XAID_LLM_API_KEY": KEY}, api_key_file=str(key_file)))
    assert endpoint.requests[0]["headers"]["Authorization"] == f"Bearer {KEY}"


def test_api_key_from_file_when_env_absent(endpoint: FakeEndpoint, tmp_path: Path) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("  sk-from-file\n")
    endpoint.reply = Reply(events=[content("ok", "stop")])
    run(make(endpoint.base_url, env={"OTHER": "x"}, api_key_file=str(key_file)))
    assert endpoint.requests[0]["headers"]["Authorization"] == "Bearer sk-from-file"


def test_no_authorization_without_key(endpoint: FakeEndpoint) -> None:
    endpoint.reply = Reply(events=[content("ok", "stop")])
    provider = make(endpoint.base_url)
    run(provider)
    assert "Authorization" not in endpoint.requests[0]["headers"]
    assert provider.describe() == {
        "provider": "openai",
        "base_url": endpoint.base_url,
        "model": "test-model",
        "tools": True,
    }


def test_streamed_tool_calls_are_assembled(endpoint: FakeEndpoint) -> None:
    endpoint.reply = Reply(
        events=[
            tool_delta(0, call_id="call_abc", name="get_weather", args=""),
            tool_delta(0, args='{"ci'),
            tool_delta(1, call_id="call_def", name="get_time", args='{"tz":'),
            tool_delta(0, args='ty": "Par'),
            tool_delta(1, args=' "UTC"}'),
            tool_delta(0, args='is"}'),
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        ]
    )
    pieces, completion = run(make(endpoint.base_url))
    assert pieces == []
    assert completion.finish_reason == "tool_calls"
    assert completion.tool_calls == [
        ToolCall(call_id="call_abc", name="get_weather", arguments={"city": "Paris"}),
        ToolCall(call_id="call_def", name="get_time", arguments={"tz": "UTC"}),
    ]


def test_unparsable_tool_arguments_raise(endpoint: FakeEndpoint) -> None:
    endpoint.reply = Reply(
        events=[
            tool_delta(0, call_id="call_x", name="broken", args='{"a": '),
            {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        ]
    )
    with pytest.raises(ProviderError, match=r"broken.*not a JSON object"):
        run(make(endpoint.base_url))


def test_cancel_after_first_piece_stops_early(endpoint: FakeEndpoint) -> None:
    # 40 pieces at 50 ms each: bounded at 2 s should cancellation fail to stop the read.
    endpoint.reply = Reply(events=[content(f"p{i} ") for i in range(40)], delay=0.05)
    cancelled = threading.Event()
    pieces: list[str] = []

    def emit(piece: str) -> None:
        pieces.append(piece)
        cancelled.set()

    completion = make(endpoint.base_url).generate(request(), emit, cancelled)
    assert pieces == ["p0 "]
    assert completion.text == "p0 "
    assert completion.finish_reason == "cancelled"


def test_http_500_raises_without_leaking_key(endpoint: FakeEndpoint) -> None:
    endpoint.reply = Reply(status=500, body="x" * 1000, echo_auth=True)
    provider = make(endpoint.base_url, env={"XAID_LLM_API_KEY": KEY})
    with pytest.raises(ProviderError) as info:
        run(provider)
    message = str(info.value)
    assert "500" in message
    assert endpoint.base_url in message
    assert KEY not in message
    assert "x" * 201 not in message  # body excerpt is bounded
    assert "\n" not in message


def test_refused_connection_raises_without_leaking_key() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base_url = f"http://127.0.0.1:{port}/v1"
    provider = make(base_url, env={"XAID_LLM_API_KEY": KEY})
    with pytest.raises(ProviderError) as info:
        run(provider)
    message = str(info.value)
    assert base_url in message
    assert "refused" in message
    assert KEY not in message


def test_bad_base_url_fails_at_load() -> None:
    provider = OpenAICompatProvider(
        dataclasses.replace(LLMConfig(), base_url="ftp://example/v1"), env={}
    )
    with pytest.raises(ProviderError, match="not an http"):
        provider.load()
