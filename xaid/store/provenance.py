"""Where a memory came from, as the memory page shows it ("why do you remember this?"): the turns
named by its ``sources`` rows, read from the transcript, or from the kept utterance when the
transcript has been pruned since."""

from __future__ import annotations

from dataclasses import dataclass

import apsw


@dataclass(frozen=True, slots=True)
class SourceTurn:
    ref: str
    role: str | None  # None: neither the message nor a kept turn holds it any more
    text: str | None
    ts_ms: int | None


def source_turns(conn: apsw.Connection, agent_id: str, kind: str, item_id: int) -> list[SourceTurn]:
    """The source turns of an episode, highlight or fact of this agent, oldest first."""
    rows = conn.execute(
        "SELECT s.ref, COALESCE(m.role, u.role), COALESCE(m.text, i.text), COALESCE(m.ts_ms, u.ts_ms) "
        "FROM sources s "
        "LEFT JOIN messages m ON m.message_id = s.message_id AND m.agent_id = s.agent_id "
        "LEFT JOIN utterances u ON u.agent_id = s.agent_id AND u.ref = s.ref AND m.message_id IS NULL "
        "LEFT JOIN memory_items i ON i.kind = 'utterance' AND i.source_id = u.utterance_id "
        "WHERE s.agent_id = ? AND s.kind = ? AND s.item_id = ? "
        "GROUP BY s.ref ORDER BY s.message_id, s.ref",
        (agent_id, kind, item_id),
    )
    return [SourceTurn(*r) for r in rows]
