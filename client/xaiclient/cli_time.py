"""The time a message is said, as xaictl's ``--ts`` and ``--at`` give it: replaying a day from a shell.

The protocol takes ``ts`` as milliseconds since the epoch on ``session.open``, ``session.send`` and
``session.close``; people think in "tomorrow 08:00" or "+8h". Both flags accept every form here, in
the local time zone (xaictl prints local times), so the scene "the next morning" needs no arithmetic:

    1767430800000            milliseconds since the epoch
    2026-12-02T08:00         ISO 8601 date-time, or a date alone (midnight); a zone may be given
    2026-12-02 08:00         the same with a space
    tomorrow 08:00           also today, yesterday, 明天, 今天, 昨天; the time may be left out (now's time)
    08:00                    today at that time
    +8h, -30m, +2d, +1d8h    relative to now: d, h, m, s
    now
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable

from .wire import BadParams, XaiError

_DAYS = {"today": 0, "tomorrow": 1, "yesterday": -1, "今天": 0, "明天": 1, "昨天": -1}
_CLOCK = re.compile(r"^(\d{1,2})[:：](\d{2})$")
_RELATIVE = re.compile(r"^[+-](?:\d+[dhms])+$")
_PART = re.compile(r"(\d+)([dhms])")
_UNIT_S = {"d": 86_400, "h": 3_600, "m": 60, "s": 1}
FORMS = "ms since the epoch, ISO (2026-12-02T08:00), 'tomorrow 08:00', '08:00', '+8h' or 'now'"


def _now() -> dt.datetime:
    return dt.datetime.now().astimezone()


def _ms(when: dt.datetime) -> int:
    return int(when.timestamp() * 1000)


def _at_clock(day: dt.datetime, clock: str, text: str) -> dt.datetime:
    m = _CLOCK.match(clock)
    if m is None or int(m[1]) > 23 or int(m[2]) > 59:
        raise _bad(text)
    return day.replace(hour=int(m[1]), minute=int(m[2]), second=0, microsecond=0)


def _bad(text: str) -> XaiError:
    return BadParams(f"cannot read the time {text!r}: give {FORMS}")


def parse_when(text: str, now: Callable[[], dt.datetime] = _now) -> int:
    """``text`` in any of the module's forms, as ms since the epoch."""
    raw = text.strip()
    lowered = raw.lower()
    if raw.isdigit():
        return int(raw)
    base = now()
    if lowered == "now":
        return _ms(base)
    if _RELATIVE.match(lowered):
        seconds = sum(int(n) * _UNIT_S[u] for n, u in _PART.findall(lowered))
        return _ms(base + dt.timedelta(seconds=-seconds if lowered[0] == "-" else seconds))
    words = lowered.split()
    if words and words[0] in _DAYS and len(words) <= 2:
        day = base + dt.timedelta(days=_DAYS[words[0]])
        return _ms(_at_clock(day, words[1], raw) if len(words) == 2 else day)
    if _CLOCK.match(lowered):
        return _ms(_at_clock(base, lowered, raw))
    try:
        when = dt.datetime.fromisoformat(raw)
    except ValueError:
        raise _bad(raw) from None
    if when.tzinfo is None:
        when = when.astimezone()  # a naive time is local time, as xaictl prints them
    return _ms(when)


def add_flags(parser: object) -> None:
    """``--ts`` and ``--at`` (one or the other) on a subcommand; read them with ``given``."""
    group = parser.add_mutually_exclusive_group()  # type: ignore[attr-defined]
    group.add_argument(
        "--ts",
        metavar="WHEN",
        help="when it happens: ms since the epoch or ISO 8601 (default now; for replaying a day)",
    )
    group.add_argument(
        "--at",
        metavar="WHEN",
        help="the same in words: 'tomorrow 08:00', '2026-12-02 08:00', '+8h', '08:00' (local time)",
    )


def given(args: object) -> int | None:
    """The ``ts`` the flags ask for, or None for the daemon's now."""
    text = getattr(args, "ts", None) or getattr(args, "at", None)
    return None if text is None else parse_when(text)
