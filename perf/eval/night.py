"""The night before a session's first turn, as the daemon lives it, for the benches that replay a
history at its real times and then open a session.

A bench ingests weeks of history in seconds and opens the next morning's session right after, so
the daemon's own clock (the real one) is months away from the scene's and nothing of what it does
between two sessions has happened: the prompt head and the opening a greeting will have
(xaid/conversation/prewarm.py) are built at the wrong time, or not read before the turn at all.
A real daemon builds them again every ``prewarm.REFRESH_S`` (five minutes) with its clock, and its
model reads them while idle, so the morning's first turn finds them in its context.

Here the daemon runs in this process (testkit's ``InProcessDaemon``) on a ``ManualClock``: the
clock stands at the end of the history while it is ingested, then at the probe's time less
``BEFORE_MS`` (the last refresh a user who opens the app at the probe's minute would find), the
refresh loop runs every ``REFRESH_S`` instead of every five minutes (a night's worth of refreshes
in a second), and :func:`pass_night` returns once the model has read what that refresh handed over.
The turn itself is timed as before: the night only decides what the context holds when it starts.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from testkit.inproc import InProcessDaemon
from testkit.scratch import ScratchDaemon
from xaid.clock import ManualClock
from xaid.conversation import prewarm
from xaid.providers.head_cache import agent_dir_name

REFRESH_S = 0.5  # the refresh loop's period here (the daemon's own is prewarm.REFRESH_S)
BEFORE_MS = 5 * 60_000  # the last refresh before the probe: at most one period before it
POLL_S = 1.0
QUIET_POLLS = 3  # polls in a row that see nothing change: the model has read what it was given
# ... once an opening was read ahead after the clock moved; before that, this many: on a busy machine
# the refresh may not have begun within three polls (CI with two other jobs on 2 cores: the greeting
# then read 50 tokens where the night leaves it under 40).
IDLE_POLLS = 10
NIGHT_TIMEOUT_S = 180.0


@contextlib.contextmanager
def night_daemon(env: Mapping[str, str]) -> Iterator[tuple[InProcessDaemon, ManualClock]]:
    """A daemon in this process on a manual clock, its prewarm refresh every ``REFRESH_S``."""
    clock = ManualClock(0)
    saved = prewarm.REFRESH_S
    prewarm.REFRESH_S = REFRESH_S  # read by the loop at each round
    try:
        with tempfile.TemporaryDirectory(prefix="xaid-perf-night-") as tmp:
            daemon = InProcessDaemon(Path(tmp), env, clock=clock)
            daemon.start()
            try:
                yield daemon, clock
            finally:
                daemon.stop()
    finally:
        prewarm.REFRESH_S = saved


def _files(folder: Path) -> tuple[tuple[str, int, int], ...]:
    """The agent's head-cache files as (name, size, mtime): what the model's read-ahead wrote."""
    found = []
    for path in sorted(folder.glob("*.kv")):
        with contextlib.suppress(FileNotFoundError):
            stat = path.stat()
            found.append((path.name, stat.st_size, stat.st_mtime_ns))
    return tuple(found)


def _counters(client: Any) -> tuple[Any, Any]:
    model = client.status()["model"]
    return model.get("head_cache"), model.get("read_ahead")


def pass_night(
    daemon: ScratchDaemon, client: Any, clock: ManualClock, agent_id: str, probe_ms: int
) -> bool:
    """Move the clock to ``BEFORE_MS`` before the probe and wait until the model has read the head
    and the opening the refresh builds then: the agent's head-cache files exist and neither they
    nor the model's read-ahead counters (``status``) change over ``QUIET_POLLS`` polls
    ``POLL_S`` apart (``IDLE_POLLS`` until an opening was read ahead after the clock moved).
    Each poll is a frame to the runner, to which a read-ahead gives way for a moment (then goes
    on), so polls are a second apart. False when nothing settled within
    ``NIGHT_TIMEOUT_S`` (the turn then reads what the context lacks, as without the night)."""
    started = time.monotonic()
    clock.set(probe_ms - BEFORE_MS)
    folder = daemon.state_dir / "head_cache" / agent_dir_name(agent_id)
    before = _openings(_counters(client)[1])
    last, same, opened = None, 0, False
    while same < (QUIET_POLLS if opened else IDLE_POLLS):
        if time.monotonic() - started > NIGHT_TIMEOUT_S:
            return False
        time.sleep(POLL_S)
        now = (_files(folder), _counters(client))
        opened = opened or _openings(now[1][1]) != before
        same = same + 1 if now == last and now[0] else 0
        last = now
    return True


def _openings(read_ahead: dict[str, int] | None) -> int:
    """The openings the model has read ahead (or begun and given way), from ``status``'s
    ``read_ahead`` counters: read from the poll's own status call, since each call is a frame the
    runner's read-ahead gives way to."""
    read = read_ahead or {}
    return int(read.get("openings", 0)) + int(read.get("opening_yields", 0))
