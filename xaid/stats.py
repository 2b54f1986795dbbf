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
- ``LoopLag``: how late the event loop wakes a task that sleeps a fixed period. Every request,
  ping included, is served on the one loop, so any step that holds it (a consolidation's rules, an
  export's encoding) delays every client by as much; the worst lag is the figure that says whether
  the daemon keeps to "the event loop is for I/O" (DESIGN 3c).
- ``Backpressure``: replies waiting for peers that do not read them (xaid.server.connection).
- ``prometheus``: the text exposition format (version 0.0.4), one function over the same dictionary
  ``stats`` returns, so the JSON and the Prometheus views can never disagree.
"""

from __future__ import annotations

import os
import resource
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

import anyio


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


LAG_PERIOD_S = 0.02  # how often the loop is sampled: short, so a stall of a few ms is seen
LAG_LATE_MS = 50.0  # a wake-up later than this is counted: a client would notice it


@dataclass
class LoopLag:
    """The event loop's lag: each sample is how much later than asked a sleep of LAG_PERIOD_S ended."""

    samples: int = 0
    late: int = 0
    last_ms: float = 0.0
    worst_ms: float = 0.0
    recent_ms: deque[float] = field(default_factory=lambda: deque(maxlen=WINDOW))

    def note(self, ms: float) -> None:
        self.samples += 1
        self.late += ms > LAG_LATE_MS
        self.last_ms = ms
        self.worst_ms = max(self.worst_ms, ms)
        self.recent_ms.append(ms)

    async def watch(self, period: float = LAG_PERIOD_S) -> None:
        """Runs for the daemon's life (a task of lifespan's group); costs one wake-up per period."""
        while True:
            start = anyio.current_time()
            await anyio.sleep(period)
            self.note(max(0.0, (anyio.current_time() - start - period) * 1000))

    def to_wire(self) -> dict[str, Any]:
        ordered = sorted(self.recent_ms)
        return {
            "samples": self.samples,
            "late": self.late,
            "last_ms": round(self.last_ms, 3),
            "worst_ms": round(self.worst_ms, 3),
            "recent_worst_ms": round(ordered[-1] if ordered else 0.0, 3),
            "p99_ms": round(percentile(ordered, 0.99), 3),
        }


class Holder(Protocol):
    """A connection, as far as the back-pressure figures see it."""

    def held_bytes(self) -> int: ...


@dataclass
class Backpressure:
    """Reply bytes encoded for peers and not yet taken by their sockets, and the pauses they caused.

    ``queued_bytes`` is the sum over the open connections, read when asked (a transport's buffer
    empties without telling anyone); ``worst_queued_bytes`` the most one connection was seen to
    hold; ``pauses`` how often a connection stopped reading requests until its peer caught up."""

    worst_queued_bytes: int = 0
    pauses: int = 0
    holders: set[Holder] = field(default_factory=set)

    def seen(self, held: int) -> None:
        self.worst_queued_bytes = max(self.worst_queued_bytes, held)

    def to_wire(self) -> dict[str, Any]:
        held = [h.held_bytes() for h in self.holders]
        for n in held:
            self.seen(n)
        return {
            "queued_bytes": sum(held),
            "worst_queued_bytes": self.worst_queued_bytes,
            "pauses": self.pauses,
        }


@dataclass
class Stats:
    methods: dict[str, MethodStats] = field(default_factory=dict)
    connections_total: int = 0
    connections_refused: int = 0
    protocol_errors: int = 0
    loop: LoopLag = field(default_factory=LoopLag)
    backpressure: Backpressure = field(default_factory=Backpressure)

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
            "loop": self.loop.to_wire(),
            "backpressure": self.backpressure.to_wire(),
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
    loop = stats.get("loop", {})
    metric(
        "loop_lag_worst_ms",
        "gauge",
        "Worst event-loop lag since start, in milliseconds.",
        [("", loop.get("worst_ms", 0))],
    )
    metric(
        "loop_lag_late_total",
        "counter",
        f"Event-loop wake-ups later than {LAG_LATE_MS:g} ms.",
        [("", loop.get("late", 0))],
    )
    pressure = stats.get("backpressure", {})
    metric(
        "reply_queued_bytes",
        "gauge",
        "Reply bytes waiting for peers to read them.",
        [("", pressure.get("queued_bytes", 0))],
    )
    metric(
        "backpressure_pauses_total",
        "counter",
        "Times a connection stopped reading requests until its peer read its replies.",
        [("", pressure.get("pauses", 0))],
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
