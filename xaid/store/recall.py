"""recall_items and recall_settings tables: plain SQL in, records out."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import apsw

from ..clock import HOUR_MS

_ITEM = (
    "item_id, agent_id, source_episode, topic, keywords, scene, not_before, not_after, priority, state, "
    "created_ms, pushed_ms, pushed_session, engaged, feedback, closed_reason"
)


@dataclass(frozen=True, slots=True)
class RecallItem:
    item_id: int
    agent_id: str
    source_episode: int | None
    topic: str
    keywords: tuple[str, ...]
    scene: str
    not_before: int
    not_after: int
    priority: float
    state: str
    created_ms: int
    pushed_ms: int | None
    pushed_session: str | None
    engaged: bool | None
    feedback: str | None
    closed_reason: str | None

    def to_wire(self) -> dict[str, Any]:
        return {
            "item_id": self.item_id,
            "source_episode": self.source_episode,
            "topic": self.topic,
            "keywords": list(self.keywords),
            "scene": self.scene,
            "not_before": self.not_before,
            "not_after": self.not_after,
            "priority": round(self.priority, 3),
            "state": self.state,
            "created_ms": self.created_ms,
            "pushed_ms": self.pushed_ms,
            "pushed_session": self.pushed_session,
            "engaged": self.engaged,
            "feedback": self.feedback,
            "closed_reason": self.closed_reason,
        }


@dataclass(frozen=True, slots=True)
class Settings:
    enabled: bool
    quiet: bool
    min_gap_ms: int
    allow: tuple[str, ...]
    avoid: tuple[str, ...] = ()  # "don't bring this up": topics never suggested

    def to_wire(self) -> dict[str, Any]:
        return {
            "enabled": self.enabled,
            "quiet": self.quiet,
            "min_gap_hours": self.min_gap_ms / HOUR_MS,
            "allow": list(self.allow),
            "avoid": list(self.avoid),
        }


def _item(row: tuple[Any, ...]) -> RecallItem:
    values = list(row)
    values[4] = tuple(json.loads(values[4]))
    values[13] = None if values[13] is None else bool(values[13])
    return RecallItem(*values)


def insert(
    conn: apsw.Connection,
    agent_id: str,
    source_episode: int | None,
    topic: str,
    keywords: list[str],
    scene: str,
    not_before: int,
    not_after: int,
    priority: float,
    now_ms: int,
) -> int:
    conn.execute(
        "INSERT INTO recall_items (agent_id, source_episode, topic, keywords, scene, not_before, not_after, priority, "
        "state, created_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)",
        (
            agent_id,
            source_episode,
            topic,
            json.dumps(keywords, ensure_ascii=False),
            scene,
            not_before,
            not_after,
            priority,
            now_ms,
        ),
    )
    return conn.last_insert_rowid()


def restore(conn: apsw.Connection, agent_id: str, item: RecallItem) -> bool:
    """An imported follow-up as the export had it (``item_id`` and ``agent_id`` are not read); one
    with the same topic and creation time is not written twice. Whether it was written."""
    if conn.execute(
        "SELECT 1 FROM recall_items WHERE agent_id = ? AND topic = ? AND created_ms = ?",
        (agent_id, item.topic, item.created_ms),
    ).fetchone():
        return False
    conn.execute(
        "INSERT INTO recall_items (agent_id, source_episode, topic, keywords, scene, not_before, not_after, "
        "priority, state, created_ms, pushed_ms, pushed_session, engaged, feedback, closed_reason) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)",
        (
            agent_id,
            item.source_episode,
            item.topic,
            json.dumps(list(item.keywords), ensure_ascii=False),
            item.scene,
            item.not_before,
            item.not_after,
            item.priority,
            item.state,
            item.created_ms,
            item.pushed_ms,
            None if item.engaged is None else int(item.engaged),
            item.feedback,
            item.closed_reason,
        ),
    )
    return True


def items(
    conn: apsw.Connection,
    agent_id: str,
    states: tuple[str, ...] = ("pending",),
    after: tuple[int, int] | None = None,
    limit: int = -1,
) -> list[RecallItem]:
    """In (not_before, item_id) order, after the key ``after``; ``limit`` -1 is all."""
    marks = ",".join("?" * len(states))
    keyset = " AND (not_before, item_id) > (?, ?)" if after is not None else ""
    rows = conn.execute(
        f"SELECT {_ITEM} FROM recall_items WHERE agent_id = ? AND state IN ({marks}){keyset} "
        "ORDER BY not_before, item_id LIMIT ?",
        (agent_id, *states, *(after or ()), limit),
    )
    return [_item(r) for r in rows]


def last_armed(conn: apsw.Connection, agent_id: str, scene: str) -> int | None:
    """When the latest item of ``scene`` was armed for ``agent_id``, whatever its state now."""
    row = conn.execute(
        "SELECT MAX(created_ms) FROM recall_items WHERE agent_id = ? AND scene = ?",
        (agent_id, scene),
    ).fetchone()
    return int(row[0]) if row and row[0] is not None else None


def get(conn: apsw.Connection, agent_id: str, item_id: int) -> RecallItem | None:
    row = conn.execute(
        f"SELECT {_ITEM} FROM recall_items WHERE agent_id = ? AND item_id = ?", (agent_id, item_id)
    ).fetchone()
    return _item(row) if row else None


def close(conn: apsw.Connection, item_id: int, state: str, reason: str) -> None:
    conn.execute(
        "UPDATE recall_items SET state = ?, closed_reason = ? WHERE item_id = ?",
        (state, reason, item_id),
    )


def redate(
    conn: apsw.Connection, item_id: int, not_before: int, not_after: int, reason: str
) -> None:
    """A matter moved to another day: its window follows it, and ``reason`` says why (what
    ``scheduler.list --all`` shows in place of a closing reason while it is pending)."""
    conn.execute(
        "UPDATE recall_items SET not_before = ?, not_after = ?, closed_reason = ? WHERE item_id = ?",
        (not_before, not_after, reason, item_id),
    )


def mark_pushed(conn: apsw.Connection, item_id: int, session_id: str | None, now_ms: int) -> None:
    conn.execute(
        "UPDATE recall_items SET state = 'pushed', pushed_ms = ?, pushed_session = ? WHERE item_id = ?",
        (now_ms, session_id, item_id),
    )


def set_engaged(conn: apsw.Connection, item_id: int, engaged: bool) -> None:
    conn.execute("UPDATE recall_items SET engaged = ? WHERE item_id = ?", (int(engaged), item_id))


def set_feedback(conn: apsw.Connection, item_id: int, feedback: str) -> None:
    conn.execute("UPDATE recall_items SET feedback = ? WHERE item_id = ?", (feedback, item_id))


def last_pushed(conn: apsw.Connection, agent_id: str) -> RecallItem | None:
    """The item suggested most recently, whatever its state now."""
    for r in conn.execute(
        f"SELECT {_ITEM} FROM recall_items WHERE agent_id = ? AND pushed_ms IS NOT NULL "
        "ORDER BY pushed_ms DESC, item_id DESC LIMIT 1",
        (agent_id,),
    ):
        return _item(r)
    return None


def pushed_in(conn: apsw.Connection, session_id: str) -> list[RecallItem]:
    return [
        _item(r)
        for r in conn.execute(
            f"SELECT {_ITEM} FROM recall_items WHERE pushed_session = ?", (session_id,)
        )
    ]


STATES = ("pending", "pushed", "expired", "resolved", "cancelled")


def settings(conn: apsw.Connection, agent_id: str, default_gap_ms: int) -> Settings:
    return saved_settings(conn, agent_id) or Settings(True, False, default_gap_ms, ())


def saved_settings(conn: apsw.Connection, agent_id: str) -> Settings | None:
    """The agent's controls as set, or None when never set (the defaults apply)."""
    row = conn.execute(
        "SELECT enabled, quiet, min_gap_ms, allow, avoid FROM recall_settings WHERE agent_id = ?",
        (agent_id,),
    ).fetchone()
    if row is None:
        return None
    return Settings(
        bool(row[0]),
        bool(row[1]),
        int(row[2]),
        tuple(json.loads(row[3])),
        tuple(json.loads(row[4])),
    )


def save_settings(conn: apsw.Connection, agent_id: str, s: Settings) -> None:
    conn.execute(
        "INSERT INTO recall_settings (agent_id, enabled, quiet, min_gap_ms, allow, avoid) "
        "VALUES (?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(agent_id) DO UPDATE SET enabled = excluded.enabled, quiet = excluded.quiet, "
        "min_gap_ms = excluded.min_gap_ms, allow = excluded.allow, avoid = excluded.avoid",
        (
            agent_id,
            int(s.enabled),
            int(s.quiet),
            s.min_gap_ms,
            json.dumps(list(s.allow), ensure_ascii=False),
            json.dumps(list(s.avoid), ensure_ascii=False),
        ),
    )


def outcome_counts(conn: apsw.Connection, agent_id: str | None) -> dict[str, int]:
    where, args = ("WHERE agent_id = ?", (agent_id,)) if agent_id else ("", ())
    row = conn.execute(
        "SELECT count(pushed_ms), sum(engaged = 1), sum(feedback = 'welcome'), sum(feedback = 'annoying'), "
        f"sum(state = 'pending') FROM recall_items {where}",
        args,
    ).get
    return {
        "pushes": row[0] or 0,
        "engaged": row[1] or 0,
        "welcome": row[2] or 0,
        "annoying": row[3] or 0,
        "pending": row[4] or 0,
    }
