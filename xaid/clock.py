"""The one clock: everything that asks "what time is it" goes through a Clock.

Tests and history imports replay weeks in seconds by handing the daemon a ManualClock, and any
request may carry its own ``ts`` that stands in for the clock for that call.

The user's time zone lives here too: "tomorrow", "yesterday" and "3 days ago" are days of the
user's calendar, not of UTC (a message at 07:00 in Shanghai is 23:00 UTC the day before). Each
daemon holds its own (``UserZone``, in its ``Settings``) and puts it into the context of all it
runs (``use_zone``): tasks and the worker threads anyio starts inherit it, so two daemons in one
process each keep their own, and code outside a daemon (tests, tools) reads UTC.
"""

from __future__ import annotations

import os
import time
from contextvars import ContextVar, Token
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

HOUR_MS = (
    3_600_000  # the one home of these two: every module that counts hours or days imports them
)
DAY_MS = 24 * HOUR_MS

# The last millisecond whose calendar day every zone can write: 9999-12-31T23:59:59.999 at UTC+14:00,
# the farthest east any zone is. A later one is year 10000 somewhere east of UTC, which no date holds.
MAX_TS = 253_402_300_799_999 - 14 * HOUR_MS
DAY_MARGIN_MS = 7 * DAY_MS  # "next week" said at MAX_TS still names a date that exists


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


# A message may carry any time (history replayed from the past); state that fades or waits on the clock
# (the mood, the scheduler's last push) takes none later than this past the daemon's own clock: one
# message dated ten years ahead would otherwise stop the mood's decay, and every push, for ten years.
# Two days, not a minute: a client may stage the evening ahead and the morning after it (`xaictl demo`).
FUTURE_MARGIN_MS = 2 * DAY_MS


def state_ceiling(clock: Clock) -> int:
    """The latest time mood and scheduler state may carry."""
    return clock.now_ms() + FUTURE_MARGIN_MS


def for_state(ts_ms: int, clock: Clock) -> int:
    """``ts_ms`` as mood and scheduler state may keep it: at most FUTURE_MARGIN_MS past the clock."""
    return min(ts_ms, state_ceiling(clock))


def local(ts_ms: int, tz: tzinfo | None = None) -> datetime:
    """``ts_ms`` as a time of the user's zone (or ``tz``), for any stored value: one outside what a
    calendar holds (an old import, a bad row) is read as the nearest day that exists, never an error."""
    bounded = min(max(int(ts_ms), 0), MAX_TS - DAY_MARGIN_MS)
    return datetime.fromtimestamp(bounded / 1000, tz or zone())


@dataclass(eq=False)
class UserZone:
    """The user's zone as one daemon holds it. SIGHUP sets ``tz`` in place, so every task that
    took the holder into its context sees the new zone at once."""

    tz: tzinfo = UTC


_in_use: ContextVar[UserZone | None] = ContextVar("xaid_user_zone", default=None)


def zone() -> tzinfo:
    """The user's time zone, for turning timestamps into calendar days: the running daemon's
    (memory.timezone), or UTC outside a daemon, so code run there (tests) is deterministic."""
    held = _in_use.get()
    return held.tz if held is not None else UTC


def use_zone(held: UserZone) -> Token[UserZone | None]:
    """From now on, in this context and every task and thread started from it, ``held`` is the
    zone; ``reset_zone`` with the token puts back the one before."""
    return _in_use.set(held)


def reset_zone(token: Token[UserZone | None]) -> None:
    _in_use.reset(token)


def set_zone(name: str) -> tzinfo:
    """Use the zone ``name`` (IANA, e.g. "Asia/Shanghai"; empty: this machine's own) in this
    context from now on."""
    tz = resolve_zone(name)
    _in_use.set(UserZone(tz))
    return tz


def resolve_zone(name: str) -> tzinfo:
    """The zone for a memory.timezone value; raises ValueError for a name the zone database lacks."""
    if name:
        try:
            return ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(
                f"unknown time zone {name!r} (expected an IANA name such as 'Europe/Berlin')"
            ) from exc
    return _local_zone()


def _local_zone() -> tzinfo:
    """The machine's zone with its daylight-saving rules: $TZ, /etc/timezone or the /etc/localtime link;
    failing those, its current fixed offset."""
    candidates = [os.environ.get("TZ", "").lstrip(":")]
    timezone_file = Path("/etc/timezone")
    if timezone_file.is_file():
        candidates.append(timezone_file.read_text(encoding="utf-8", errors="replace").strip())
    localtime = Path("/etc/localtime")
    if localtime.is_symlink():
        target = str(localtime.resolve())
        if "zoneinfo/" in target:
            candidates.append(target.split("zoneinfo/", 1)[1])
    for candidate in candidates:
        if candidate and not candidate.startswith("/"):
            try:
                return ZoneInfo(candidate)
            except (ZoneInfoNotFoundError, ValueError):
                continue
    return datetime.now().astimezone().tzinfo or UTC
