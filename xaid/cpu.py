"""Steps that compute rather than wait, run off the event loop.

Every client is served on the one event loop, so a step that computes for a second there (the rules
over a 1,000-message session, an export's encoding) delays every ping by a second: a measured
consolidation stalled other clients 4 s (issue 22 item 6; DESIGN 3c "the event loop is for I/O").
Such a step runs here, on a worker thread. Python's GIL still runs one thread at a time, but it
hands over every few milliseconds (``sys.getswitchinterval``), so the loop keeps answering while
the step computes. The database has its own thread (``store.db``); this is for the rest.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, TypeVarTuple

import anyio

T = TypeVar("T")
Ts = TypeVarTuple("Ts")


async def run(fn: Callable[[*Ts], T], *args: *Ts) -> T:
    """``fn(*args)`` on a worker thread; cancelling the caller waits for the step to end."""
    return await anyio.to_thread.run_sync(fn, *args)
