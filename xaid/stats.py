"""What ``stats`` and ``status`` report, kept in memory since the daemon started, and the same
figures for Prometheus.

- ``Stats``: per-method counters and latency percentiles.
- ``LLMSpeed``: how fast the model answers, over its recent turns. Three figures, each a window of
  the latest SPEED_WINDOW values: first token (a turn's ``first_token_ms``, from the request to the
  first piece of the reply, memory recall and queueing included: what a user waits before anything
  appears); generation (tokens per second once the reply streams, (pieces - 1) over the time from
  the first piece to the last, so prompt reading and queueing do not blur it); prompt (tokens per
  second llama.cpp spent reading the part of a prompt it had not cached, only where the provider
  reports it, and only reads of at least MIN_PROMPT_READ tokens: a read of 3 tokens is all overhead
  and says nothing about the model).
- ``prometheus``: the text exposition format (version 0.0.4), one function over the same dictionary
  ``stats`` returns, so the JSON and the Prometheus views can never disagree.
"""

from __future__ import annotations

import os
import resource
from collections import deque
from dataclasses import dataclass, field
from typing import Any


def rss_kib(pid: int | None = None) -> int | None:
    """Resident memory of a process in KiB, from /proc (this process when ``pid`` is None); None
    for a process that is gone. Where /proc is missing, this process's peak is the best there is."""
    try:
        with open(f"/proc/{pid or os.getpid()}/statm") as f:
            return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
    except (OSError, ValueError, IndexError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss if pid is None else None


WINDOW = 2048  # latencies kept per method: enough for stable p99, bounded memory on a Pi


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[index]


@dataclass
class MethodStats:
    calls: int = 0
    errors: int = 0
    latencies_ms: deque[float] = field(default_factory=lambda: deque(maxlen=WINDOW))

    def to_wire(self) -> dict[str, Any]:
        ordered = sorted(self.latencies_ms)
        return {
            "calls": self.calls,
            "errors": self.errors,
            "p50_ms": round(percentile(ordered, 0.50), 3),
            "p95_ms": round(percentile(ordered, 0.95), 3),
            "p99_ms": round(percentile(ordered, 0.99), 3),
        }


@dataclass
class Stats:
    methods: dict[str, MethodStats] = field(default_factory=dict)
    connections_total: int = 0
    connections_refused: int = 0
    protocol_errors: int = 0

    def record(self, method: str, ms: float, ok: bool) -> None:
        entry = self.methods.setdefault(method, MethodStats())
        entry.calls += 1
        entry.errors += 0 if ok else 1
        entry.latencies_ms.append(ms)

    def to_wire(self) -> dict[str, Any]:
        return {
            "connections_total": self.connections_total,
            "connections_refused": self.connections_refused,
            "protocol_errors": self.protocol_errors,
            "methods": {name: m.to_wire() for name, m in sorted(self.methods.items())},
        }


# How fast the model answers.
SPEED_WINDOW = 256
MIN_PROMPT_READ = 16


def _summary(values: deque[float], digits: int) -> dict[str, Any]:
    ordered = sorted(values)
    if not ordered:
        return {"count": 0, "p50": None, "p95": None}
    return {
        "count": len(ordered),
        "p50": round(percentile(ordered, 0.5), digits),
        "p95": round(percentile(ordered, 0.95), digits),
    }


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
        return {
            "first_token_ms": _summary(self.first_token_ms, 1),
            "generation_tokens_per_s": _summary(self.generation_tps, 2),
            "prompt_tokens_per_s": _summary(self.prompt_tps, 1),
        }


# The Prometheus view.
def _label(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def prometheus(stats: dict[str, Any]) -> str:
    lines: list[str] = []

    def metric(name: str, kind: str, help_text: str, samples: list[tuple[str, float]]) -> None:
        lines.append(f"# HELP xaid_{name} {help_text}")
        lines.append(f"# TYPE xaid_{name} {kind}")
        for labels, value in samples:
            lines.append(f"xaid_{name}{labels} {value}")

    methods = stats.get("methods", {})
    metric(
        "requests_total",
        "counter",
        "Requests answered, by method.",
        [(f'{{method="{_label(m)}"}}', s["calls"]) for m, s in methods.items()],
    )
    metric(
        "request_errors_total",
        "counter",
        "Requests answered with an error, by method.",
        [(f'{{method="{_label(m)}"}}', s["errors"]) for m, s in methods.items()],
    )
    metric(
        "request_latency_ms",
        "summary",
        "Latency of recent requests in milliseconds, by method.",
        [
            (f'{{method="{_label(m)}",quantile="{q}"}}', s[f"p{int(float(q) * 100)}_ms"])
            for m, s in methods.items()
            for q in ("0.5", "0.95", "0.99")
        ],
    )
    metric(
        "connections_total",
        "counter",
        "Connections accepted since start.",
        [("", stats.get("connections_total", 0))],
    )
    metric(
        "connections_refused_total",
        "counter",
        "Connections refused (allow-list or limit).",
        [("", stats.get("connections_refused", 0))],
    )
    metric(
        "protocol_errors_total",
        "counter",
        "Malformed frames received.",
        [("", stats.get("protocol_errors", 0))],
    )
    metric(
        "llm_generations_total",
        "counter",
        "Model generations finished.",
        [("", stats.get("llm_generated", 0))],
    )
    if (runner := stats.get("llm_runner")) is not None:
        metric(
            "llm_runner_starts_total",
            "counter",
            "Model runner processes started (the first and every restart).",
            [("", runner["starts"])],
        )
        metric(
            "llm_runner_crashes_total",
            "counter",
            "Model runner processes that died, by reason (signal name or exit code).",
            [(f'{{reason="{_label(r)}"}}', n) for r, n in runner["crashes"].items()],
        )
        metric(
            "llm_runner_rss_bytes",
            "gauge",
            "Resident memory of the model runner process.",
            [("", (runner["rss_kib"] or 0) * 1024)],
        )
        metric(
            "llm_runner_available",
            "gauge",
            "1 unless the model was marked unavailable after crashing again and again.",
            [("", 1 if runner["available"] else 0)],
        )
    speed = stats.get("llm_speed", {})
    for key, name, help_text in (
        (
            "first_token_ms",
            "llm_first_token_ms",
            "Time to the first piece of a reply, recent turns, in milliseconds.",
        ),
        (
            "generation_tokens_per_s",
            "llm_generation_tokens_per_second",
            "Generation speed of recent replies.",
        ),
        (
            "prompt_tokens_per_s",
            "llm_prompt_tokens_per_second",
            "Prompt reading speed of recent generations.",
        ),
    ):
        summary = speed.get(key) or {}
        metric(
            name,
            "summary",
            help_text,
            [
                (f'{{quantile="{q}"}}', summary[p])
                for q, p in (("0.5", "p50"), ("0.95", "p95"))
                if summary.get(p) is not None
            ],
        )
    memory = {
        k: v
        for k, v in stats.get("memory", {}).items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }
    metric(
        "memory_events_total",
        "counter",
        "Memory events (episodes by path, fact decisions, LLM calls, embeddings).",
        [(f'{{event="{_label(k)}"}}', v) for k, v in sorted(memory.items())],
    )
    sched = stats.get("scheduler", {})
    metric(
        "recall_pushes_total",
        "counter",
        "Proactive suggestions given.",
        [("", sched.get("pushes", 0))],
    )
    metric(
        "recall_engaged_total",
        "counter",
        "Suggestions the user took up.",
        [("", sched.get("engaged", 0))],
    )
    metric(
        "recall_annoying_total",
        "counter",
        "Suggestions rated annoying.",
        [("", sched.get("annoying", 0))],
    )
    return "\n".join(lines) + "\n"
