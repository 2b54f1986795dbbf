"""How fast the model answers, over its recent turns: what ``stats`` and ``status`` report.

Three figures, each a window of the latest SPEED_WINDOW values since the daemon started:
- first token: a turn's ``first_token_ms`` (from the request to the first piece of the reply,
  memory recall and queueing included), what a user waits before anything appears;
- generation: tokens per second once the reply streams, (pieces - 1) over the time from the first
  piece to the last, so prompt reading and queueing do not blur it;
- prompt: tokens per second llama.cpp spent reading the part of a prompt it had not cached (only
  where the provider reports it, and only reads of at least MIN_PROMPT_READ tokens: a read of 3
  tokens is all overhead and says nothing about the model).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from .stats import percentile

SPEED_WINDOW = 256
MIN_PROMPT_READ = 16


def _summary(values: deque[float], digits: int) -> dict[str, Any]:
    ordered = sorted(values)
    if not ordered:
        return {"count": 0, "p50": None, "p95": None}
    return {"count": len(ordered), "p50": round(percentile(ordered, 0.5), digits),
            "p95": round(percentile(ordered, 0.95), digits)}


def _window() -> deque[float]:
    return deque(maxlen=SPEED_WINDOW)


@dataclass
class LLMSpeed:
    first_token_ms: deque[float] = field(default_factory=_window)
    generation_tps: deque[float] = field(default_factory=_window)
    prompt_tps: deque[float] = field(default_factory=_window)

    def turn(self, first_token_ms: float | None) -> None:
        if first_token_ms is not None:
            self.first_token_ms.append(first_token_ms)

    def generation(self, pieces: int, first_ns: int, last_ns: int) -> None:
        if pieces >= 2 and last_ns > first_ns:
            self.generation_tps.append((pieces - 1) / ((last_ns - first_ns) / 1e9))

    def prompt_read(self, tokens: int | None, ms: float | None) -> None:
        if tokens is not None and ms and tokens >= MIN_PROMPT_READ:
            self.prompt_tps.append(tokens / (ms / 1000))

    def to_wire(self) -> dict[str, Any]:
        """p95 of a rate is the fast end; read p50 as typical."""
        return {"first_token_ms": _summary(self.first_token_ms, 1),
                "generation_tokens_per_s": _summary(self.generation_tps, 2),
                "prompt_tokens_per_s": _summary(self.prompt_tps, 1)}
