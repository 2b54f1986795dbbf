"""What the daemon and its model runner say to each other, and how it crosses the socketpair.

The runner (xaid/providers/runner.py) is a child process holding llama.cpp; the daemon's side is
xaid/providers/runner_supervisor.py. They exchange the frames of the client protocol (a 4-byte
length and one CBOR map, xaiclient.wire), so there is one codec in the project, not two. This
module only turns the provider records (``GenerateRequest``, ``Completion``) into plain maps and
back, and reads and writes whole frames on a blocking socket; it imports no native code, so the
daemon can use it without loading llama.cpp.

The conversation, one frame at a time:

- daemon → runner: ``load`` (the ``[llm]`` settings, the models directory and the head cache's
  directory), then any number of ``generate`` (an id and a request), ``cancel`` (an id),
  ``forget`` (a session id), ``erase_agent`` (an agent id: its prompt heads on disk go),
  ``prewarm`` (an agent, its head and the opening that may follow it) and ``read_ahead`` (a
  session, its agent and the messages its next prompt starts with; messages in the OpenAI shape):
  the last two are read while the model is idle.
- runner → daemon: ``ready`` (what ``status`` shows about the model) or ``failed`` (a load error
  the user can act on: missing file, bad GGUF), then per ``generate`` any number of ``piece``
  frames and one ``done`` (the completion) or ``error`` (a message safe to show).

A runner that dies sends nothing more: the daemon reads end of file and asks the kernel why.
"""

from __future__ import annotations

import dataclasses
import select
import socket
from typing import Any

from xaiclient.wire import FrameDecoder, decode_payload, encode_frame

from ..config import LLMConfig
from .base import ChatMessage, Completion, GenerateRequest, ToolCall, ToolSpec

# A prompt is at most n_ctx tokens of text; 16 MiB leaves room for any context window in use.
MAX_FRAME = 16 << 20


class RunnerGone(Exception):
    """The other end closed the socketpair: the runner died (or, seen from the runner, the daemon)."""


class FrameChannel:
    """Whole frames over one end of a socketpair, blocking; one reader and one writer at a time."""

    def __init__(self, sock: socket.socket):
        self.sock = sock
        self._decoder = FrameDecoder(MAX_FRAME)

    def send(self, payload: dict[str, Any]) -> None:
        try:
            self.sock.sendall(encode_frame(payload))
        except OSError as exc:
            raise RunnerGone(str(exc)) from None

    def receive(self, timeout: float | None = None) -> dict[Any, Any] | None:
        """The next frame; None when ``timeout`` seconds pass without one."""
        while (payload := self._decoder.next_payload()) is None:
            if timeout is not None:
                ready, _, _ = select.select([self.sock], [], [], timeout)
                if not ready:
                    return None
            try:
                data = self.sock.recv(1 << 16)
            except OSError as exc:
                raise RunnerGone(str(exc)) from None
            if not data:
                raise RunnerGone("end of file")
            self._decoder.feed(data)
        return decode_payload(payload)

    def close(self) -> None:
        self.sock.close()


def config_to_map(cfg: LLMConfig) -> dict[str, Any]:
    return dataclasses.asdict(cfg)


def config_from_map(data: dict[str, Any]) -> LLMConfig:
    known = {f.name for f in dataclasses.fields(LLMConfig)}
    return LLMConfig(**{k: v for k, v in data.items() if k in known})


def _call_to_map(call: ToolCall) -> dict[str, Any]:
    return {"call_id": call.call_id, "name": call.name, "arguments": call.arguments}


def _call_from_map(data: dict[str, Any]) -> ToolCall:
    return ToolCall(data["call_id"], data["name"], dict(data["arguments"]))


def request_to_map(request: GenerateRequest) -> dict[str, Any]:
    return {
        "messages": [
            {
                "role": m.role,
                "content": m.content,
                "tool_calls": [_call_to_map(c) for c in m.tool_calls],
                "tool_call_id": m.tool_call_id,
            }
            for m in request.messages
        ],
        "tools": [
            {"name": t.name, "description": t.description, "parameters": t.parameters}
            for t in request.tools
        ],
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "session": request.session,
        "agent": request.agent,
        "stop": list(request.stop),
        "repeat_penalty": request.repeat_penalty,
        "no_copy": request.no_copy,
        "no_copy_tokens": request.no_copy_tokens,
        "prefix": request.prefix,
        "choices": list(request.choices),
    }


def request_from_map(data: dict[str, Any]) -> GenerateRequest:
    return GenerateRequest(
        messages=tuple(
            ChatMessage(
                m["role"],
                m["content"],
                tuple(_call_from_map(c) for c in m["tool_calls"]),
                m["tool_call_id"],
            )
            for m in data["messages"]
        ),
        tools=tuple(ToolSpec(t["name"], t["description"], t["parameters"]) for t in data["tools"]),
        max_tokens=data["max_tokens"],
        temperature=data["temperature"],
        session=data["session"],
        agent=data["agent"],
        stop=tuple(data["stop"]),
        repeat_penalty=data["repeat_penalty"],
        no_copy=data["no_copy"],
        no_copy_tokens=data["no_copy_tokens"],
        prefix=data.get("prefix", ""),
        choices=tuple(data.get("choices", ())),
    )


def completion_to_map(out: Completion) -> dict[str, Any]:
    return {
        "text": out.text,
        "tool_calls": [_call_to_map(c) for c in out.tool_calls],
        "prompt_tokens": out.prompt_tokens,
        "completion_tokens": out.completion_tokens,
        "finish_reason": out.finish_reason,
        "prompt_eval_tokens": out.prompt_eval_tokens,
        "prompt_eval_ms": out.prompt_eval_ms,
        "choice_logprobs": list(out.choice_logprobs),
    }


def completion_from_map(data: dict[str, Any]) -> Completion:
    return Completion(
        text=data["text"],
        tool_calls=[_call_from_map(c) for c in data["tool_calls"]],
        prompt_tokens=data["prompt_tokens"],
        completion_tokens=data["completion_tokens"],
        finish_reason=data["finish_reason"],
        prompt_eval_tokens=data["prompt_eval_tokens"],
        prompt_eval_ms=data["prompt_eval_ms"],
        choice_logprobs=tuple(data.get("choice_logprobs", ())),
    )
