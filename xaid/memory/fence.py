"""The forget fence: what a user forgets stays forgotten, even by a consolidation already running.

A consolidation job reads a session, then may wait seconds for the model before it writes the
episode. A ``memory.forget`` (or a forget request in conversation, or ``agent.delete``) in that
window deletes what is stored, but the job still holds the words it read. Every forget bumps the
agent's epoch in the same transaction that deletes; the job notes the epoch before it reads and
checks it again in the transaction that writes. A changed epoch means the job starts over from
what is left, so forget always wins.
"""

from __future__ import annotations

import apsw

_KEY = "forget_epoch:"


class Fenced(Exception):
    """Raised inside the write transaction (so nothing is written) when a forget came in between."""


def epoch(conn: apsw.Connection, agent_id: str) -> int:
    row = conn.execute("SELECT value FROM meta WHERE key = ?", (_KEY + agent_id,)).fetchone()
    return int(row[0]) if row else 0


def bump(conn: apsw.Connection, agent_id: str) -> None:
    """Call in the transaction that forgets: jobs of the agent in flight will not write what they read."""
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET "
        "value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)",
        (_KEY + agent_id,),
    )


def check(conn: apsw.Connection, agent_id: str, seen: int) -> None:
    if epoch(conn, agent_id) != seen:
        raise Fenced(agent_id)
