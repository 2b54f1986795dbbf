"""The OpenAI chat shapes: what a client sends, what it is answered, and errors the way OpenAI's
SDKs read them (``{"error": {"message", "type", "param", "code"}}`` with a fitting status).

Only what xaid acts on is read from a request (``model``, ``messages``, ``stream``,
``stream_options.include_usage``); sampling knobs are the agent's and the daemon's, and ``user``
is never identity. A wrong type is a 400 naming the field, not a guess.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xaiclient.wire import ErrorCode, XaiError

SYSTEM_ROLES = frozenset({"system", "developer"})
ROLES = SYSTEM_ROLES | {"user", "assistant", "tool", "function"}
FINISH = frozenset({"stop", "length", "tool_calls", "content_filter"})

# The status a client should see for each of the daemon's error codes (docs/protocol.md, HTTP).
STATUS: dict[str, int] = {
    ErrorCode.BAD_PARAMS: 400,
    ErrorCode.BAD_REQUEST: 400,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.CONFLICT: 409,
    ErrorCode.BUSY: 409,
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.OVERLOADED: 503,
    ErrorCode.SHUTTING_DOWN: 503,
    ErrorCode.MODEL_UNAVAILABLE: 503,
    ErrorCode.PROVIDER_ERROR: 502,
    ErrorCode.TIMEOUT: 504,
    ErrorCode.CANCELLED: 499,
    ErrorCode.STORAGE_ERROR: 500,
    ErrorCode.INTERNAL: 500,
}
_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
          404: "not_found_error", 409: "conflict_error", 413: "invalid_request_error"}  # fmt: skip


class HttpError(Exception):
    """An answer other than 2xx; ``body`` is OpenAI's error shape."""

    def __init__(
        self, status: int, message: str, code: str | None = None, param: str | None = None
    ):
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.param = param

    def body(self) -> dict[str, Any]:
        kind = _TYPES.get(self.status, "server_error" if self.status >= 500 else "api_error")
        return {
            "error": {"message": self.message, "type": kind, "param": self.param, "code": self.code}
        }

    @classmethod
    def of(cls, exc: XaiError) -> HttpError:
        """A daemon error as the HTTP client sees it: same words, the code as OpenAI's ``code``."""
        code = str(exc.code)
        if code == ErrorCode.NOT_FOUND and exc.data.get("what") == "agent":
            return cls(
                404,
                f"no model {exc.data.get('id')!r}: a model is an agent id",
                "model_not_found",
                "model",
            )
        return cls(STATUS.get(code, 500), exc.message, code)


@dataclass(frozen=True, slots=True)
class ClientMessage:
    role: str
    text: str


@dataclass(frozen=True, slots=True)
class ChatRequest:
    model: str
    messages: tuple[ClientMessage, ...]
    stream: bool = False
    include_usage: bool = False

    @property
    def newest_user(self) -> int | None:
        """Index of the newest user message: the turn."""
        for i in range(len(self.messages) - 1, -1, -1):
            if self.messages[i].role == "user":
                return i
        return None

    @property
    def system_text(self) -> str | None:
        """The client's system messages, joined: an app's character card."""
        parts = [m.text for m in self.messages if m.role in SYSTEM_ROLES and m.text.strip()]
        return "\n\n".join(parts) if parts else None


def _text(content: Any, where: str) -> str:
    """``content`` is a string, null, or a list of parts of which the text ones count."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        out = []
        for j, part in enumerate(content):
            if not isinstance(part, dict):
                raise HttpError(
                    400,
                    f"{where}.content[{j}] must be an object",
                    "invalid_type",
                    f"{where}.content",
                )
            if part.get("type") == "text":
                if not isinstance(part.get("text"), str):
                    raise HttpError(
                        400,
                        f"{where}.content[{j}].text must be a string",
                        "invalid_type",
                        f"{where}.content",
                    )
                out.append(part["text"])
        return "\n".join(out)
    raise HttpError(
        400,
        f"{where}.content must be a string or a list of parts",
        "invalid_type",
        f"{where}.content",
    )


def parse_chat(body: bytes, max_messages: int = 10_000) -> ChatRequest:
    try:
        raw = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise HttpError(400, f"the body is not JSON: {exc}", "invalid_json") from None
    if not isinstance(raw, dict):
        raise HttpError(400, "the body must be a JSON object", "invalid_json")
    model = raw.get("model")
    if not isinstance(model, str) or not model:
        raise HttpError(
            400, "'model' must name an agent (GET /v1/models lists them)", "invalid_type", "model"
        )
    messages = raw.get("messages")
    if not isinstance(messages, list) or not messages:
        raise HttpError(400, "'messages' must be a non-empty list", "invalid_type", "messages")
    if len(messages) > max_messages:
        raise HttpError(400, f"at most {max_messages} messages", "invalid_value", "messages")
    parsed = []
    for i, m in enumerate(messages):
        where = f"messages[{i}]"
        if not isinstance(m, dict) or m.get("role") not in ROLES:
            raise HttpError(
                400,
                f"{where} must be an object with a role of {', '.join(sorted(ROLES))}",
                "invalid_value",
                where,
            )
        parsed.append(ClientMessage(m["role"], _text(m.get("content"), where)))
    stream = raw.get("stream", False)
    if stream is None:
        stream = False
    if not isinstance(stream, bool):
        raise HttpError(400, "'stream' must be a boolean", "invalid_type", "stream")
    options = raw.get("stream_options") or {}
    if not isinstance(options, dict):
        raise HttpError(400, "'stream_options' must be an object", "invalid_type", "stream_options")
    return ChatRequest(model, tuple(parsed), stream, bool(options.get("include_usage")))


def new_id() -> str:
    return "chatcmpl-" + secrets.token_hex(12)


def finish_reason(reason: str) -> str:
    return reason if reason in FINISH else "stop"


def usage(prompt_tokens: int, completion_tokens: int) -> dict[str, int]:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def completion(
    cid: str, created: int, model: str, text: str, reason: str, used: dict[str, int]
) -> dict[str, Any]:
    return {
        "id": cid,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "system_fingerprint": None,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None},
                "logprobs": None,
                "finish_reason": finish_reason(reason),
            }
        ],
        "usage": used,
    }


def chunk(
    cid: str,
    created: int,
    model: str,
    delta: dict[str, Any] | None,
    reason: str | None = None,
    used: dict[str, int] | None = None,
    with_usage: bool = False,
) -> dict[str, Any]:
    """One ``chat.completion.chunk``. ``delta`` None is the usage chunk (``choices: []``)."""
    out: dict[str, Any] = {
        "id": cid,
        "object": "chat.completion.chunk",
        "created": created,
        "model": model,
        "system_fingerprint": None,
        "choices": []
        if delta is None
        else [{"index": 0, "delta": delta, "logprobs": None, "finish_reason": reason}],
    }
    if with_usage:
        out["usage"] = used
    return out


def models(agent_ids: Sequence[tuple[str, int]]) -> dict[str, Any]:
    """``GET /v1/models``: one model per agent, its id the agent's id."""
    return {
        "object": "list",
        "data": [
            {"id": agent_id, "object": "model", "created": created, "owned_by": "xaid"}
            for agent_id, created in agent_ids
        ],
    }
