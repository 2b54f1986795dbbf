"""The one clock: everything that asks "what time is it" goes through a Clock.

Tests and history imports replay weeks in seconds by handing the daemon a ManualClock, and any
request may carry its own ``ts`` that stands in for the clock for that call.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class ManualClock:
    """A clock that moves only when told; for tests and replays."""

    def __init__(self, start_ms: int = 0):
        self._now = start_ms

    def now_ms(self) -> int:
        return self._now

    def set(self, ms: int) -> None:
        self._now = ms

    def advance(self, ms: int) -> None:
        self._now += ms


def at(clock: Clock, ts: int | None) -> int:
    """The request's own timestamp when it gave one, else the clock's."""
    return ts if ts is not None else clock.now_ms()
