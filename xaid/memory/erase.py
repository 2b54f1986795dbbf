"""The one path by which words leave: every forget and ``agent.delete`` takes it.

A forget is four steps, and a step left out is a privacy defect of its own (issue 22 items 8 and 3,
issue 23 item 3: the sequence was written out three times and ``agent.delete`` skipped the
checkpoint). ``Eraser.erase`` runs them in order, shielded from cancellation so a client that
hangs up mid-way cannot leave the words half gone:

1. one transaction: the agent's forget fence is bumped (fence.py: a consolidation in flight will
   not write back what it read) and the caller's ``delete`` runs (``forget.forget_text``,
   ``forget_all``, a turn storing its forget request, the agent's row, …);
2. the keyword indexes are merged (``forget.optimize_indexes``), so a deleted entry leaves the
   FTS segments and not only their view;
3. the WAL is checkpointed and truncated (``forget.checkpoint``), so the words are in neither the
   -wal file nor a free page of the database (secure_delete overwrites freed pages);
4. every copy held in memory is dropped: whoever keeps one registers ``on_erased`` (the profile
   snapshots and the memories shown in open sessions in ``Turns``, llama.cpp's saved session
   states through the provider). The in-memory vector copy needs no call: it reloads on the
   generation that every change of the vectors bumps in the same transaction. The lines searches
   remember (shown.py) and the candidates' rows (rows.py) are dropped in the transaction that
   forgets.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import anyio
import apsw

from ..live import LiveSessions
from ..store import Database
from . import fence, forget, rows, shown, unchanged

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Erasure:
    """What was erased, for those who hold copies in memory."""

    agent_id: str
    sessions: tuple[str, ...]  # the agent's sessions still open when it was erased
    holds: Callable[[str], bool] | None  # which texts held what went; None: all of the agent's

    def touches(self, text: str | None) -> bool:
        return self.holds is None or bool(text and self.holds(text))


def _open_sessions(conn: apsw.Connection, agent_id: str) -> tuple[str, ...]:
    return tuple(
        r[0]
        for r in conn.execute(
            "SELECT session_id FROM sessions WHERE agent_id = ? AND closed_ms IS NULL", (agent_id,)
        )
    )


class Eraser:
    def __init__(self, db: Database, live: LiveSessions):
        self.db = db
        self.live = live
        self._on_erased: list[Callable[[Erasure], None]] = []

    async def replying(self, agent_id: str) -> bool:
        """Whether a turn runs in one of the agent's sessions: forgetting all of it, or deleting it,
        would pull the session out from under the turn. The running turns are read once the
        database has answered, not before: a send that loaded its session meanwhile is running by
        then (read before, a turn started in between stored its reply into a deleted session). The
        answer itself is ``LiveSessions.replying``, the one every caller reads."""
        await self.db.run(_barrier)  # what was queued on the database thread before has run
        return self.live.replying(agent_id)

    def on_erased(self, drop: Callable[[Erasure], None]) -> None:
        """``drop`` is called after every erase with what went, to let go of its copies."""
        self._on_erased.append(drop)

    async def erase(
        self,
        agent_id: str,
        delete: Callable[[apsw.Connection], T],
        holds: Callable[[str], bool] | None = None,
    ) -> T:
        """``delete(conn)`` in the transaction that bumps the agent's fence, then the indexes, the
        checkpoint and the copies in memory (see the module). ``holds`` tells which texts held what
        was erased (None: anything of the agent's may have)."""

        def write(conn: apsw.Connection) -> tuple[T, tuple[str, ...]]:
            sessions = _open_sessions(conn, agent_id)
            fence.bump(conn, agent_id)
            result = delete(conn)
            # After the delete: finding what to forget searches, which remembers lines again.
            shown.drop_agent(conn, agent_id)
            rows.drop_agent(conn, agent_id)
            unchanged.drop_agent(conn, agent_id)
            return result, sessions

        with anyio.CancelScope(shield=True):
            result, sessions = await self.db.run(write)
            erasure = Erasure(agent_id, sessions, holds)
            for drop in self._on_erased:
                drop(erasure)
            await self.db.run(forget.optimize_indexes)
            await self.db.run_outside_transaction(forget.checkpoint)
        return result


def _barrier(conn: apsw.Connection) -> None:
    """Nothing: a call on the one database thread returns once every call queued before it has."""
