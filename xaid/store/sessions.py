"""Sessions and messages tables: plain SQL in, records out."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import apsw

from . import agents
from .agents import Agent
from .errors import Conflict, NotFound


@dataclass(frozen=True, slots=True)
class Session:
    session_id: str
    agent_id: str
    opened_ms: int
    last_ms: int
    closed_ms: int | None
    message_count: int = 0
    live_turns: int = 0  # user turns sent live (not ingested): the scheduler decides at the first

    def to_wire(self) -> dict[str, Any]:
        return {
            "session_id": self.session_id,
            "agent_id": self.agent_id,
            "opened_ms": self.opened_ms,
            "last_ms": self.last_ms,
            "closed_ms": self.closed_ms,
            "open": self.closed_ms is None,
            "messages": self.message_count,
        }


@dataclass(frozen=True, slots=True)
class Message:
    session_id: str
    agent_id: str
    role: str
    text: str
    ts_ms: int
    ref: str | None = None
    speaker: str | None = None
    status: str = "complete"
    tool_calls: list[dict[str, Any]] | None = None
    tool_call_id: str | None = None
    message_id: int | None = None

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.message_id,
            "role": self.role,
            "text": self.text,
            "ts": self.ts_ms,
            "ref": self.ref if self.ref is not None else str(self.message_id),
            "status": self.status,
        }
        if self.speaker is not None:
            out["speaker"] = self.speaker
        if self.tool_calls:
            out["tool_calls"] = self.tool_calls
        if self.tool_call_id is not None:
            out["tool_call_id"] = self.tool_call_id
        return out


_SESSION = """SELECT s.session_id, s.agent_id, s.opened_ms, s.last_ms, s.closed_ms,
                     (SELECT count(*) FROM messages m WHERE m.session_id = s.session_id),
                     s.live_turns
              FROM sessions s"""
_MSG_COLS = "session_id, agent_id, role, text, ts_ms, ref, speaker, status, tool_calls, tool_call_id, message_id"


# A new message never takes the id of a deleted one: provenance rows (sources.message_id, and the
# default ref, which is the id as text) may still name it. SQLite would hand out the highest ids
# again once the newest messages are gone, so deletions record a high-water mark first.
_NEXT_ID = (
    "(SELECT max(coalesce((SELECT max(message_id) FROM messages), 0), "
    "coalesce((SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'messages_high_water'), 0)) + 1)"
)


def retire_message_ids(conn: apsw.Connection) -> None:
    """Call before deleting messages: their ids are never given out again. With no message in the
    whole database there is nothing to retire (``max`` over no rows is NULL, which ``meta.value``
    refuses: issue 22 item 1), and no row is written."""
    conn.execute(
        "INSERT INTO meta (key, value) SELECT 'messages_high_water', CAST(max(message_id) AS TEXT) FROM messages "
        "WHERE message_id IS NOT NULL HAVING max(message_id) IS NOT NULL ON CONFLICT(key) DO UPDATE SET "
        "value = CAST(max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER)) AS TEXT)"
    )


def count_live_turn(conn: apsw.Connection, session_id: str) -> None:
    """A user message sent live (session.send), as opposed to ingested history."""
    conn.execute(
        "UPDATE sessions SET live_turns = live_turns + 1 WHERE session_id = ?", (session_id,)
    )


def insert_session(conn: apsw.Connection, session_id: str, agent_id: str, ts_ms: int) -> None:
    conn.execute(
        "INSERT INTO sessions (session_id, agent_id, opened_ms, last_ms) VALUES (?, ?, ?, ?)",
        (session_id, agent_id, ts_ms, ts_ms),
    )


def open_per_agent(conn: apsw.Connection) -> dict[str, int]:
    """How many sessions each agent has open (agents with none are absent)."""
    rows = conn.execute(
        "SELECT agent_id, count(*) FROM sessions WHERE closed_ms IS NULL GROUP BY agent_id"
    )
    return {str(agent): int(n) for agent, n in rows}


def recent_agents(conn: apsw.Connection, limit: int) -> list[str]:
    """The agents whose sessions were last active, most recent first; then those without any."""
    return [
        str(r[0])
        for r in conn.execute(
            "SELECT a.agent_id FROM agents a LEFT JOIN sessions s ON s.agent_id = a.agent_id "
            "GROUP BY a.agent_id ORDER BY max(s.last_ms) DESC NULLS LAST, a.rowid DESC LIMIT ?",
            (limit,),
        )
    ]


def get_session(conn: apsw.Connection, session_id: str) -> Session | None:
    row = conn.execute(f"{_SESSION} WHERE s.session_id = ?", (session_id,)).fetchone()
    return Session(*row) if row else None


def with_agent(conn: apsw.Connection, session_id: str) -> tuple[Session, Agent | None] | None:
    """The session and its agent in one read: a turn needs both before anything else."""
    session = get_session(conn, session_id)
    return None if session is None else (session, agents.get(conn, session.agent_id))


def count_open(conn: apsw.Connection) -> int:
    return int(conn.execute("SELECT count(*) FROM sessions WHERE closed_ms IS NULL").get)


def live_turns(conn: apsw.Connection, session_id: str) -> int | None:
    """How many user turns were sent live in the session (not ingested); None: no such session."""
    row = conn.execute(
        "SELECT live_turns FROM sessions WHERE session_id = ?", (session_id,)
    ).fetchone()
    return None if row is None else int(row[0])


def user_texts(conn: apsw.Connection, session_id: str) -> list[str]:
    """What the user said in the session, in the order stored."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT text FROM messages WHERE session_id = ? AND role = 'user' ORDER BY message_id",
            (session_id,),
        )
    ]


def spoke_since(
    conn: apsw.Connection, agent_id: str, since_ms: int, other_than: str | None
) -> bool:
    """Whether the user said anything to the agent at or after ``since_ms`` in a session other than
    ``other_than`` (the one being decided for): whether they have met since."""
    row = conn.execute(
        "SELECT 1 FROM messages WHERE agent_id = ? AND role = 'user' AND ts_ms >= ? "
        "AND session_id IS NOT ? LIMIT 1",
        (agent_id, since_ms, other_than),
    ).fetchone()
    return row is not None


def latest_user_texts(conn: apsw.Connection, agent_id: str, limit: int) -> list[str]:
    """The agent's latest ``limit`` user messages, oldest first (what language its user writes in)."""
    rows = conn.execute(
        "SELECT text FROM messages WHERE agent_id = ? AND role = 'user' "
        "ORDER BY ts_ms DESC, message_id DESC LIMIT ?",
        (agent_id, limit),
    ).fetchall()
    return [str(r[0]) for r in reversed(rows)]


def list_sessions(
    conn: apsw.Connection,
    agent_id: str,
    open_only: bool = False,
    after: tuple[int, str] | None = None,
    limit: int = -1,
) -> list[Session]:
    """In (opened_ms, session_id) order, after the key ``after``; ``limit`` -1 is all."""
    where = "WHERE s.agent_id = ?" + (" AND s.closed_ms IS NULL" if open_only else "")
    args: tuple[Any, ...] = (agent_id,)
    if after is not None:
        where += " AND (s.opened_ms, s.session_id) > (?, ?)"
        args += after
    return [
        Session(*r)
        for r in conn.execute(
            f"{_SESSION} {where} ORDER BY s.opened_ms, s.session_id LIMIT ?", (*args, limit)
        )
    ]


def require_open(conn: apsw.Connection, session_id: str) -> None:
    """Call in the transaction that writes to a session: a closed session is read-only, a deleted one
    (its agent deleted meanwhile) is gone. Checked again here because the request checked it before
    awaiting anything, and a close or a delete may have committed since."""
    row = conn.execute(
        "SELECT closed_ms FROM sessions WHERE session_id = ?", (session_id,)
    ).fetchone()
    if row is None:
        raise NotFound("session", session_id)
    if row[0] is not None:
        raise Conflict(f"session {session_id!r} is closed; open a new one")


def close_session(conn: apsw.Connection, session_id: str, ts_ms: int) -> None:
    conn.execute(
        "UPDATE sessions SET closed_ms = max(?, last_ms) WHERE session_id = ? AND closed_ms IS NULL",
        (ts_ms, session_id),
    )


def transcript_pruned_ms(conn: apsw.Connection, session_id: str) -> int | None:
    """When the transcript retention deleted the session's messages; None while they are kept."""
    row = conn.execute(
        "SELECT transcript_pruned_ms FROM sessions WHERE session_id = ?", (session_id,)
    ).fetchone()
    return row[0] if row else None


def insert_message(conn: apsw.Connection, msg: Message) -> Message:
    conn.execute(
        f"INSERT INTO messages ({_MSG_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, {_NEXT_ID})",
        (
            msg.session_id,
            msg.agent_id,
            msg.role,
            msg.text,
            msg.ts_ms,
            msg.ref,
            msg.speaker,
            msg.status,
            json.dumps(msg.tool_calls, ensure_ascii=False) if msg.tool_calls else None,
            msg.tool_call_id,
        ),
    )
    conn.execute(
        "UPDATE sessions SET last_ms = max(last_ms, ?) WHERE session_id = ?",
        (msg.ts_ms, msg.session_id),
    )
    return replace(msg, message_id=conn.last_insert_rowid())


def _message(row: tuple[Any, ...]) -> Message:
    tool_calls = json.loads(row[8]) if row[8] else None
    return Message(
        row[0], row[1], row[2], row[3], row[4], row[5], row[6], row[7], tool_calls, row[9], row[10]
    )


def messages_after(conn: apsw.Connection, session_id: str, after_id: int) -> list[Message]:
    rows = conn.execute(
        f"SELECT {_MSG_COLS} FROM messages WHERE session_id = ? AND message_id > ? ORDER BY message_id",
        (session_id, after_id),
    )
    return [_message(r) for r in rows]


def messages(conn: apsw.Connection, session_id: str, limit: int | None = None) -> list[Message]:
    """The session's messages in order; with ``limit``, the newest ``limit`` of them."""
    if limit is None:
        rows = conn.execute(
            f"SELECT {_MSG_COLS} FROM messages WHERE session_id = ? ORDER BY message_id",
            (session_id,),
        )
        return [_message(r) for r in rows]
    rows = conn.execute(
        f"SELECT {_MSG_COLS} FROM messages WHERE session_id = ? ORDER BY message_id DESC LIMIT ?",
        (session_id, limit),
    )
    return [_message(r) for r in rows][::-1]


def last_user_message(conn: apsw.Connection, session_id: str) -> Message | None:
    row = conn.execute(
        f"SELECT {_MSG_COLS} FROM messages WHERE session_id = ? AND role = 'user' "
        "ORDER BY message_id DESC LIMIT 1",
        (session_id,),
    ).fetchone()
    return _message(row) if row else None


def delete_after(conn: apsw.Connection, session_id: str, message_id: int) -> int:
    """Delete the session's messages after ``message_id`` (a reply being replaced); their ids are
    retired first, so they are never given out again. Returns how many went."""
    retire_message_ids(conn)
    conn.execute(
        "DELETE FROM messages WHERE session_id = ? AND message_id > ?", (session_id, message_id)
    )
    return conn.changes()
