"""A provider that talks to any OpenAI-compatible chat endpoint (llama-server, vLLM, Ollama, OpenAI).

Only the standard library is used, so the daemon gains no HTTP dependency just to reach a server
that may sit on the same machine. The stream is read line by line so that each piece reaches the
client as soon as the endpoint produces it, and so that cancellation is noticed between events.
"""

from __future__ import annotations

import http.client
import json
import os
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from xaid.config import LLMConfig
from xaid.providers.base import (
    ChatMessage,
    Completion,
    Emit,
    GenerateRequest,
    ProviderError,
    ToolCall,
)

_EXCERPT = 200


class OpenAICompatProvider:
    """Native tool calls: OpenAI-shaped endpoints accept ``tools`` and stream ``tool_calls`` back."""

    name = "openai"

    def __init__(self, cfg: LLMConfig, env: Mapping[str, str] | None = None) -> None:
        self._cfg = cfg
        self._env: Mapping[str, str] = os.environ if env is None else env
        self._key: str | None = None
        self._loaded = False

    @property
    def supports_tools(self) -> bool:
        return True

    def load(self) -> None:
        """Fail at start on a bad URL or unreadable key file rather than on the first turn."""
        self._target()
        self._key = self._resolve_key()
        self._loaded = True

    def describe(self) -> dict[str, Any]:
        return {
            "provider": self.name,
            "base_url": self._cfg.base_url,
            "model": self._cfg.model,
            "tools": True,
        }

    def session_closed(self, session_id: str) -> None:
        """Nothing is kept per session here."""

    def agent_erased(self, agent_id: str) -> None:
        """Nothing is kept per agent here (what the endpoint keeps is its own affair)."""

    def prewarm(self, agent_id: str, head: str, opening: tuple[ChatMessage, ...] = ()) -> None:
        """The endpoint's prompt cache is its own affair."""

    def read_ahead(self, session_id: str, agent_id: str, messages: tuple[ChatMessage, ...]) -> None:
        """The endpoint's prompt cache is its own affair."""

    def close(self) -> None:
        """Connections live for one request, so only the key needs forgetting."""
        self._key = None
        self._loaded = False

    def _target(self) -> tuple[str, str, int | None, str]:
        url = urlsplit(self._cfg.base_url)
        if url.scheme not in ("http", "https") or not url.hostname:
            raise ProviderError(f"llm.base_url {self._cfg.base_url!r} is not an http(s) URL")
        try:
            port = url.port
        except ValueError:
            raise ProviderError(f"llm.base_url {self._cfg.base_url!r} has a bad port") from None
        return url.scheme, url.hostname, port, url.path.rstrip("/") + "/chat/completions"

    def _resolve_key(self) -> str | None:
        """Environment or file only: a key on the command line would show in every process listing."""
        if self._cfg.api_key_env and self._env.get(self._cfg.api_key_env, "").strip():
            return self._env[self._cfg.api_key_env].strip()
        if self._cfg.api_key_file:
            try:
                return Path(self._cfg.api_key_file).read_text(encoding="utf-8").strip() or None
            except (OSError, UnicodeDecodeError) as exc:
                reason = (
                    exc.strerror
                    if isinstance(exc, OSError) and exc.strerror
                    else type(exc).__name__
                )
                raise ProviderError(
                    f"cannot read llm.api_key_file {self._cfg.api_key_file}: {reason}"
                ) from None
        return None

    def _fail(self, what: str) -> ProviderError:
        """One line naming the endpoint, with the key masked in case the server echoed it back."""
        text = f"openai endpoint {self._cfg.base_url}: {what}"
        if self._key:
            text = text.replace(self._key, "***")
        return ProviderError(" ".join(text.split()))

    def generate(
        self, request: GenerateRequest, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        if request.choices:  # no weighing over this API: the caller decides as with no model
            return Completion()
        if not self._loaded:
            self.load()
        scheme, host, port, path = self._target()
        body: dict[str, Any] = {
            "model": self._cfg.model,
            "messages": [m.to_openai() for m in request.messages],
            "stream": True,
            # Without this OpenAI itself never reports usage on a stream; other servers ignore it.
            "stream_options": {"include_usage": True},
            "max_tokens": request.max_tokens,
            "temperature": request.temperature,
        }
        if request.stop:
            body["stop"] = list(request.stop[:4])  # OpenAI's own endpoint takes at most four
        if request.tools:
            body["tools"] = [t.to_openai() for t in request.tools]
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream"}
        if self._key:
            headers["Authorization"] = f"Bearer {self._key}"
        conn_cls = http.client.HTTPSConnection if scheme == "https" else http.client.HTTPConnection
        conn = conn_cls(host, port, timeout=self._cfg.request_timeout)
        try:
            try:
                conn.request("POST", path, body=json.dumps(body).encode("utf-8"), headers=headers)
                resp = conn.getresponse()
                if resp.status >= 400:
                    excerpt = resp.read(4096).decode("utf-8", "replace").strip()[:_EXCERPT]
                    raise self._fail(
                        f"HTTP {resp.status} {resp.reason}: {excerpt or '(empty body)'}"
                    )
                return self._read_stream(resp, emit, cancelled)
            except ConnectionRefusedError:
                raise self._fail("connection refused (is the server running?)") from None
            except TimeoutError:
                raise self._fail(f"no answer within {self._cfg.request_timeout:g}s") from None
            except (OSError, http.client.HTTPException) as exc:
                raise self._fail(f"{type(exc).__name__}: {exc}") from None
        finally:
            conn.close()

    def _read_stream(
        self, resp: http.client.HTTPResponse, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        """Server-sent events, one JSON chunk per ``data:`` line, until ``[DONE]`` or end of stream."""
        out = Completion()
        pieces: list[str] = []
        calls: dict[int, dict[str, str]] = {}
        finish: str | None = None
        usage: dict[str, Any] | None = None
        deltas = 0
        while True:
            if cancelled.is_set():
                finish = "cancelled"
                break
            raw = resp.readline()
            if not raw:
                break
            line = raw.decode("utf-8", "replace").strip()
            if not line.startswith("data:"):
                continue  # blank separators, comments and event names carry nothing we use
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                chunk = json.loads(data)
            except json.JSONDecodeError:
                raise self._fail(f"unparsable stream event: {data[:_EXCERPT]}") from None
            if not isinstance(chunk, dict):
                continue
            if "error" in chunk:
                raise self._fail(f"error in stream: {json.dumps(chunk['error'])[:_EXCERPT]}")
            if isinstance(chunk.get("usage"), dict):
                usage = chunk["usage"]
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                piece = delta.get("content")
                if piece:
                    pieces.append(piece)
                    deltas += 1
                    emit(piece)
                for tc in delta.get("tool_calls") or []:
                    slot = calls.setdefault(
                        int(tc.get("index", 0)), {"id": "", "name": "", "arguments": ""}
                    )
                    fn = tc.get("function") or {}
                    slot["id"] = tc.get("id") or slot["id"]
                    slot["name"] += fn.get("name") or ""
                    slot["arguments"] += fn.get("arguments") or ""
                if choice.get("finish_reason"):
                    finish = choice["finish_reason"]
        out.text = "".join(pieces)
        out.tool_calls = (
            [self._assemble(i, calls[i]) for i in sorted(calls)] if finish != "cancelled" else []
        )
        if out.tool_calls and finish in (None, "stop"):
            finish = "tool_calls"  # some servers say "stop" after a tool call; the turn loop needs to know
        out.finish_reason = finish or "stop"
        out.prompt_tokens = int((usage or {}).get("prompt_tokens") or 0)
        out.completion_tokens = int((usage or {}).get("completion_tokens") or deltas)
        return out

    def _assemble(self, index: int, slot: dict[str, str]) -> ToolCall:
        """Arguments arrive as JSON text in fragments and only make sense once all are joined."""
        try:
            args = json.loads(slot["arguments"]) if slot["arguments"].strip() else {}
        except json.JSONDecodeError:
            args = None
        if not isinstance(args, dict):
            raise self._fail(
                f"tool call {slot['name'] or index!s} has arguments that are not a JSON object: "
                f"{slot['arguments'][:_EXCERPT]}"
            )
        return ToolCall(call_id=slot["id"] or f"call_{index}", name=slot["name"], arguments=args)
