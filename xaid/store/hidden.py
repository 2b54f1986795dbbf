"""The hidden table: memories held back from recall while a question back waits (memory.hide)."""

from __future__ import annotations

from collections.abc import Iterable

import apsw


def add(
    conn: apsw.Connection,
    agent_id: str,
    request_id: int,
    hidden_ms: int,
    *,
    message_ids: Iterable[int] = (),
    item_ids: Iterable[int] = (),
) -> None:
    """Hide these turns and memories for the question back of message ``request_id`` (a row
    already hidden by an earlier question stays with it)."""
    for column, ids in (("message_id", message_ids), ("item_id", item_ids)):
        conn.executemany(
            f"INSERT INTO hidden (agent_id, request_id, {column}, hidden_ms) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            [(agent_id, request_id, i, hidden_ms) for i in dict.fromkeys(ids)],
        )


def items(conn: apsw.Connection, agent_id: str) -> frozenset[int]:
    """The agent's memory items hidden from recall."""
    return frozenset(
        r[0]
        for r in conn.execute(
            "SELECT item_id FROM hidden WHERE agent_id = ? AND item_id IS NOT NULL", (agent_id,)
        )
    )


def sources(conn: apsw.Connection, agent_id: str, kind: str) -> frozenset[int]:
    """The source ids (episode_id, fact_id, …) of the agent's hidden memories of ``kind``."""
    return frozenset(
        r[0]
        for r in conn.execute(
            "SELECT m.source_id FROM hidden h JOIN memory_items m ON m.item_id = h.item_id "
            "WHERE h.agent_id = ? AND m.kind = ?",
            (agent_id, kind),
        )
    )


def messages(conn: apsw.Connection, agent_id: str, session_id: str) -> dict[int, int]:
    """The hidden turns of one conversation: message id → the request that hid it."""
    return {
        int(r[0]): int(r[1])
        for r in conn.execute(
            "SELECT h.message_id, h.request_id FROM hidden h JOIN messages m "
            "ON m.message_id = h.message_id WHERE h.agent_id = ? AND m.session_id = ?",
            (agent_id, session_id),
        )
    }


def said(conn: apsw.Connection, agent_id: str) -> list[str]:
    """The words of the agent's hidden user turns, and of the facts hidden with them (the profile
    restates a fact in its own words): what a profile line or a check-in may hold."""
    turns = conn.execute(
        "SELECT m.text FROM hidden h JOIN messages m ON m.message_id = h.message_id "
        "WHERE h.agent_id = ? AND m.role = 'user'",
        (agent_id,),
    )
    facts = conn.execute(
        "SELECT m.text FROM hidden h JOIN memory_items m ON m.item_id = h.item_id "
        "WHERE h.agent_id = ? AND m.kind = 'fact'",
        (agent_id,),
    )
    return [str(r[0]) for r in (*turns, *facts) if r[0]]


def lift(conn: apsw.Connection, agent_id: str, request_id: int) -> int:
    """Show again what the question back of ``request_id`` hid; how many rows were lifted."""
    conn.execute("DELETE FROM hidden WHERE agent_id = ? AND request_id = ?", (agent_id, request_id))
    return conn.changes()
