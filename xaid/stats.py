"""Per-method counters and latency percentiles, kept in memory since the daemon started."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

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
