"""Agents table: plain SQL in, ``Agent`` records out."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import apsw


@dataclass(frozen=True, slots=True)
class Agent:
    agent_id: str
    name: str
    persona_init: str
    config: dict[str, Any] = field(default_factory=dict)
    created_ms: int = 0
    updated_ms: int = 0

    def to_wire(self) -> dict[str, Any]:
        return {
            "agent_id": self.agent_id,
            "name": self.name,
            "persona_init": self.persona_init,
            "config": self.config,
            "created_ms": self.created_ms,
            "updated_ms": self.updated_ms,
        }


_COLS = "agent_id, name, persona_init, config, created_ms, updated_ms"


def _row(row: tuple[Any, ...]) -> Agent:
    return Agent(row[0], row[1], row[2], json.loads(row[3]), row[4], row[5])


def insert(conn: apsw.Connection, agent: Agent) -> bool:
    """False when the id is taken."""
    try:
        conn.execute(
            f"INSERT INTO agents ({_COLS}) VALUES (?, ?, ?, ?, ?, ?)",
            (
                agent.agent_id,
                agent.name,
                agent.persona_init,
                json.dumps(agent.config, ensure_ascii=False),
                agent.created_ms,
                agent.updated_ms,
            ),
        )
    except apsw.ConstraintError:
        return False
    return True


def get(conn: apsw.Connection, agent_id: str) -> Agent | None:
    row = conn.execute(f"SELECT {_COLS} FROM agents WHERE agent_id = ?", (agent_id,)).fetchone()
    return _row(row) if row else None


def list_all(
    conn: apsw.Connection, after: tuple[int, str] | None = None, limit: int = -1
) -> list[Agent]:
    """In (created_ms, agent_id) order, after the key ``after``; ``limit`` -1 is all."""
    where, args = (
        ("WHERE (created_ms, agent_id) > (?, ?)", after) if after is not None else ("", ())
    )
    return [
        _row(r)
        for r in conn.execute(
            f"SELECT {_COLS} FROM agents {where} ORDER BY created_ms, agent_id LIMIT ?",
            (*args, limit),
        )
    ]


def update(conn: apsw.Connection, agent: Agent) -> None:
    conn.execute(
        "UPDATE agents SET name = ?, persona_init = ?, config = ?, updated_ms = ? WHERE agent_id = ?",
        (
            agent.name,
            agent.persona_init,
            json.dumps(agent.config, ensure_ascii=False),
            agent.updated_ms,
            agent.agent_id,
        ),
    )


def delete(conn: apsw.Connection, agent_id: str) -> bool:
    conn.execute("DELETE FROM agents WHERE agent_id = ?", (agent_id,))
    return conn.changes() > 0
