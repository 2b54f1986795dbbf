"""What ``session.send`` answers: the reply, its ids, what it cost, and (with ``explain``) what the
model was shown. A record, so that the turn and the method agree on one shape; ``to_wire`` is the
protocol's map (docs/protocol.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Timings:
    memory_ms: float
    queued_ms: float
    first_token_ms: float | None
    total_ms: float

    def to_wire(self) -> dict[str, Any]:
        return {
            "memory_ms": round(self.memory_ms, 3),
            "queued_ms": round(self.queued_ms, 3),
            "first_token_ms": None
            if self.first_token_ms is None
            else round(self.first_token_ms, 3),
            "total_ms": round(self.total_ms, 3),
        }


@dataclass(frozen=True, slots=True)
class TurnReply:
    text: str
    message_id: int | None
    user_message_id: int | None
    finish_reason: str
    prompt_tokens: int
    completion_tokens: int
    timings: Timings
    warnings: tuple[str, ...] = ()
    context: dict[str, Any] | None = (
        None  # with explain: the prompt's parts, as the protocol documents them
    )
    # Of prompt_tokens, those the model had to read (the rest came from its cache); None when the
    # provider cannot tell. What the KV-cache layout of the prompt and the head cache save shows here.
    prompt_read_tokens: int | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "text": self.text,
            "message_id": self.message_id,
            "user_message_id": self.user_message_id,
            "finish_reason": self.finish_reason,
            "usage": {
                "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens,
            },
            "timings": self.timings.to_wire(),
        }
        if self.prompt_read_tokens is not None:
            out["usage"]["prompt_read_tokens"] = self.prompt_read_tokens
        if self.warnings:
            out["warnings"] = list(self.warnings)
        if self.context is not None:
            out["context"] = self.context
        return out
