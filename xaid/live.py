"""The sessions this process is serving right now: which one has a turn running, which one is
being closed, and when each last spoke.

In memory only, and shared: a turn marks its session ``active`` (``Turns.run``), a close marks it
``closing`` while the close commits (``Memory.close_and_consolidate``), and the methods that delete
or rewrite a session's words refuse while a turn runs in it. Whoever keeps per-session state for
the rest of a session (``Turns``: memories shown, the profile, folds) registers ``on_closed`` to
drop it, so the closer need not know who that is.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import anyio


class LiveSessions:
    def __init__(self) -> None:
        self.active: dict[str, anyio.Event] = {}  # session → set when its running turn ends
        self.closing: set[str] = (
            set()
        )  # sessions whose close is being written: no turn starts in them
        self.activity: dict[
            str, float
        ] = {}  # session → monotonic time of its last turn in this run
        self.replying_agent: dict[str, str] = {}  # session with a running turn → its agent
        self._on_closed: list[Callable[[str], None]] = []

    def begin_turn(self, session_id: str, agent_id: str) -> anyio.Event:
        """Marks the session's turn running; the event is set when it ends (``end_turn``)."""
        finished = self.active[session_id] = anyio.Event()
        self.replying_agent[session_id] = agent_id
        return finished

    def end_turn(self, session_id: str) -> None:
        del self.active[session_id]
        del self.replying_agent[session_id]

    def replying(self, agent_id: str) -> bool:
        """Whether a turn of ``agent_id`` is running now: the one answer for every method that must
        not delete an agent's words under a reply being written."""
        return agent_id in self.replying_agent.values()

    def touch(self, session_id: str) -> None:
        self.activity[session_id] = time.monotonic()

    def on_closed(self, drop: Callable[[str], None]) -> None:
        self._on_closed.append(drop)

    def closed(self, session_id: str) -> None:
        """The session's close is committed: everything held for it in memory goes."""
        self.activity.pop(session_id, None)
        for drop in self._on_closed:
            drop(session_id)
