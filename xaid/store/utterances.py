"""Utterances: every turn of both sides, kept as memory after consolidation. Plain SQL in, records out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import apsw


@dataclass(frozen=True, slots=True)
class NewUtterance:
    message_id: int | None
    ref: str
    role: str  # user | assistant
    speaker: str | None
    text: str
    ts_ms: int
    value: float


@dataclass(frozen=True, slots=True)
class Utterance:
    utterance_id: int
    agent_id: str
    session_id: str | None
    episode_id: int | None
    ref: str
    role: str
    speaker: str | None
    text: str
    ts_ms: int
    prev_id: int | None
    value: float
    status: str
    ref_count: int

    def to_wire(self) -> dict[str, Any]:
        return {
            "utterance_id": self.utterance_id,
            "session_id": self.session_id,
            "episode_id": self.episode_id,
            "role": self.role,
            "speaker": self.speaker,
            "text": self.text,
            "ts": self.ts_ms,
            "prev_id": self.prev_id,
            "value": round(self.value, 4),
            "status": self.status,
            "ref_count": self.ref_count,
            "refs": [self.ref],
        }


# The words live once, in the utterance's memory_items row (the keyword indexes read them there).
_COLUMNS = (
    "u.utterance_id, u.agent_id, u.session_id, u.episode_id, u.ref, u.role, u.speaker, m.text, u.ts_ms, "
    "u.prev_id, u.value, u.status, u.ref_count"
)
_FROM = "utterances u JOIN memory_items m ON m.kind = 'utterance' AND m.source_id = u.utterance_id"


def insert(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str | None,
    episode_id: int | None,
    u: NewUtterance,
    prev_id: int | None,
    embedded: bool = True,
) -> int:
    """The utterance row; its words go in with its memory_items row (xaid.memory.index.add)."""
    conn.execute(
        "INSERT INTO utterances (agent_id, session_id, episode_id, message_id, ref, role, speaker, ts_ms, prev_id, "
        "value, embedded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            agent_id,
            session_id,
            episode_id,
            u.message_id,
            u.ref,
            u.role,
            u.speaker,
            u.ts_ms,
            prev_id,
            u.value,
            int(embedded),
        ),
    )
    return conn.last_insert_rowid()


def get(conn: apsw.Connection, agent_id: str, utterance_id: int) -> Utterance | None:
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM {_FROM} WHERE u.agent_id = ? AND u.utterance_id = ?",
        (agent_id, utterance_id),
    ).fetchone()
    return Utterance(*row) if row else None


def many(conn: apsw.Connection, ids: Sequence[int]) -> dict[int, Utterance]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {
        r[0]: Utterance(*r)
        for r in conn.execute(
            f"SELECT {_COLUMNS} FROM {_FROM} WHERE u.utterance_id IN ({marks})", tuple(ids)
        )
    }


def listed(
    conn: apsw.Connection, agent_id: str, *, session_id: str | None = None, limit: int = 1000
) -> list[Utterance]:
    """Oldest first; one session's, or the agent's newest ``limit``."""
    if session_id is not None:
        return [
            Utterance(*r)
            for r in conn.execute(
                f"SELECT {_COLUMNS} FROM {_FROM} WHERE u.agent_id = ? AND u.session_id = ? "
                "ORDER BY u.utterance_id LIMIT ?",
                (agent_id, session_id, limit),
            )
        ]
    rows = conn.execute(
        f"SELECT {_COLUMNS} FROM {_FROM} WHERE u.agent_id = ? ORDER BY u.ts_ms DESC, "
        "u.utterance_id DESC LIMIT ?",
        (agent_id, limit),
    ).fetchall()
    return [Utterance(*r) for r in reversed(rows)]


def touch(conn: apsw.Connection, utterance_id: int, ts_ms: int) -> None:
    conn.execute(
        "UPDATE utterances SET ref_count = ref_count + 1, last_ref_ms = max(coalesce(last_ref_ms, 0), ?) "
        "WHERE utterance_id = ?",
        (ts_ms, utterance_id),
    )


def fading(conn: apsw.Connection, before_ms: int) -> list[tuple[int, str, int]]:
    """(utterance id, agent, memory item id) of turns said before ``before_ms`` that nobody recalled (nor
    their session's episode) and that still have a vector."""
    return [
        (r[0], r[1], r[2])
        for r in conn.execute(
            "SELECT u.utterance_id, u.agent_id, m.item_id FROM utterances u "
            "JOIN memory_items m ON m.kind = 'utterance' AND m.source_id = u.utterance_id "
            "LEFT JOIN episodes e ON e.episode_id = u.episode_id "
            "WHERE u.embedded = 1 AND u.ref_count = 0 AND u.ts_ms < ? AND coalesce(e.ref_count, 0) = 0",
            (before_ms,),
        )
    ]


def unembed(conn: apsw.Connection, ids: Sequence[int]) -> None:
    for uid in ids:
        conn.execute("UPDATE utterances SET embedded = 0 WHERE utterance_id = ?", (uid,))


def delete(conn: apsw.Connection, ids: Sequence[int]) -> None:
    for uid in ids:
        conn.execute("UPDATE utterances SET prev_id = NULL WHERE prev_id = ?", (uid,))
        conn.execute("DELETE FROM utterances WHERE utterance_id = ?", (uid,))


def next_of(conn: apsw.Connection, ids: Sequence[int]) -> dict[int, int]:
    """{the turn after: the turn it follows} for each of ``ids`` that has one."""
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    return {
        r[0]: r[1]
        for r in conn.execute(
            f"SELECT utterance_id, prev_id FROM utterances WHERE prev_id IN ({marks})", tuple(ids)
        )
    }


def supersede_sources(
    conn: apsw.Connection,
    agent_id: str,
    fact_id: int,
    stands: Callable[[str], bool] = lambda _text: False,
) -> list[Utterance]:
    """The turns that stated a fact now superseded are history too: "I live in Berlin" must not come
    back as current once the user has moved, though "where did I live before?" may still find it.
    A turn whose words ``stands`` (one dated happening: xaid.memory.supersede.stands) stays current.
    The turns marked, so what quotes them can follow."""
    ids = [
        r[0]
        for r in conn.execute(
            f"SELECT u.utterance_id, m.text FROM {_FROM} WHERE u.agent_id = ? AND u.role = 'user' "
            "AND u.message_id IN (SELECT message_id FROM sources WHERE kind = 'fact' AND "
            "item_id = ? AND message_id IS NOT NULL)",
            (agent_id, fact_id),
        )
        if not stands(r[1])
    ]
    for uid in ids:
        conn.execute("UPDATE utterances SET status = 'superseded' WHERE utterance_id = ?", (uid,))
    # the reply to such a turn restates or builds on the old value ("Leeds is lovely in spring"): history too
    for uid in ids:
        conn.execute(
            "UPDATE utterances SET status = 'superseded' WHERE prev_id = ? AND role = 'assistant'",
            (uid,),
        )
    return list(many(conn, ids).values())


def supersede(conn: apsw.Connection, agent_id: str, utterance_id: int) -> Utterance | None:
    """One of the user's turns replaced by a later one of the same subject (xaid.memory.supersede):
    it and the reply to it become history, as ``supersede_sources`` does for a fact's turns. The
    turn as it was, or None when it is gone or no longer current (nothing to do)."""
    u = get(conn, agent_id, utterance_id)
    if u is None or u.status != "current" or u.role != "user":
        return None
    conn.execute(
        "UPDATE utterances SET status = 'superseded' WHERE utterance_id = ? OR "
        "(prev_id = ? AND role = 'assistant')",
        (utterance_id, utterance_id),
    )
    return u


def users_in_episodes(
    conn: apsw.Connection, agent_id: str, episode_ids: Sequence[int]
) -> list[Utterance]:
    """The current user turns of these episodes (an episode found by its summary leads to its turns,
    which may have no vector of their own)."""
    if not episode_ids:
        return []
    marks = ",".join("?" * len(episode_ids))
    return [
        Utterance(*r)
        for r in conn.execute(
            f"SELECT {_COLUMNS} FROM {_FROM} WHERE u.agent_id = ? AND u.role = 'user' AND "
            f"u.status = 'current' AND u.episode_id IN ({marks})",
            (agent_id, *episode_ids),
        )
    ]


def of_message(conn: apsw.Connection, agent_id: str, message_id: int) -> Utterance | None:
    """The turn kept for one message (a change within one session finds its earlier turn by it)."""
    row = conn.execute(
        f"SELECT {_COLUMNS} FROM {_FROM} WHERE u.agent_id = ? AND u.message_id = ?",
        (agent_id, message_id),
    ).fetchone()
    return Utterance(*row) if row else None


def facts_stated_in(conn: apsw.Connection, agent_id: str, utterance_id: int) -> list[int]:
    """The current facts drawn from this turn's message (their provenance in ``sources``)."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT f.fact_id FROM facts f WHERE f.agent_id = ? AND f.status = 'current' AND f.fact_id IN "
            "(SELECT s.item_id FROM sources s JOIN utterances u ON u.message_id = s.message_id "
            "WHERE s.kind = 'fact' AND u.utterance_id = ? AND u.agent_id = ?)",
            (agent_id, utterance_id, agent_id),
        )
    ]


def add_participant(conn: apsw.Connection, agent_id: str, speaker: str, role: str) -> None:
    conn.execute(
        "INSERT OR IGNORE INTO participants (agent_id, speaker, role) VALUES (?, ?, ?)",
        (agent_id, speaker, role),
    )


def participants(conn: apsw.Connection, agent_id: str) -> dict[str, str]:
    """{name: role} of the people in this agent's conversations (a name used by both roles: neither)."""
    out: dict[str, str] = {}
    for speaker, role in conn.execute(
        "SELECT speaker, role FROM participants WHERE agent_id = ?", (agent_id,)
    ):
        out[speaker] = role if speaker not in out else ""
    return {k: v for k, v in out.items() if v}
