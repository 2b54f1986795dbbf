"""Helpers shared by the benchmark areas: percentiles, fresh daemons, progress output."""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from testkit import DaemonProcess

# Event loops of the daemon, as environment overrides of DaemonProcess.
LOOPS: dict[str, dict[str, str]] = {
    "uvloop": {"XAID_SERVER_UVLOOP": "true"},
    "asyncio": {"XAID_SERVER_UVLOOP": "false"},
}


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile, q in [0, 1]."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def ratio(value: float, baseline: float) -> float | None:
    return value / baseline if baseline else None


def progress(message: str) -> None:
    print(f"[perf {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


@contextmanager
def scratch_daemon(
    env: Mapping[str, str] | None = None, config: str | None = None, start: bool = True
) -> Iterator[DaemonProcess]:
    """A daemon in a fresh temp dir (fresh database), stopped and removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="xaid-perf-") as tmp:
        daemon = DaemonProcess(Path(tmp), env, config)
        try:
            if start:
                daemon.start()
            yield daemon
        finally:
            try:
                daemon.stop()
            finally:
                daemon.kill()
