"""Episodes, highlights, facts, provenance, persona and jobs: plain SQL in, records out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import apsw


@dataclass(frozen=True, slots=True)
class Episode:
    episode_id: int
    agent_id: str
    session_id: str | None
    started_ms: int
    ended_ms: int
    summary: str
    closing_valence: float | None
    closing_arousal: float | None
    closing_fatigue: float | None
    tension: float
    decided_by: str
    ref_count: int
    last_ref_ms: int | None
    pruned_ms: int | None
    highlights: tuple[str, ...] = ()
    refs: tuple[str, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        return {
            "episode_id": self.episode_id,
            "session_id": self.session_id,
            "started_ms": self.started_ms,
            "ended_ms": self.ended_ms,
            "summary": self.summary,
            "highlights": list(self.highlights),
            "closing_mood": {
                "valence": self.closing_valence,
                "arousal": self.closing_arousal,
                "fatigue": self.closing_fatigue,
            },
            "tension": self.tension,
            "decided_by": self.decided_by,
            "ref_count": self.ref_count,
            "refs": list(self.refs),
        }


@dataclass(frozen=True, slots=True)
class ClosingMood:
    """The mood at a session's last word, kept with its episode. An imported episode may come
    without arousal or fatigue; those columns then stay NULL."""

    valence: float
    arousal: float | None = None
    fatigue: float | None = None


@dataclass(frozen=True, slots=True)
class Signals:
    """What a fact's value was computed from (memory.facts.value), stored beside it so a change of
    weights can be explained; an imported fact without them has zeros."""

    recency: float = 0.0
    specificity: float = 0.0
    intensity: float = 0.0
    user_refs: int = 0

    def as_dict(self) -> dict[str, float]:
        return {
            "recency": self.recency,
            "specificity": self.specificity,
            "intensity": self.intensity,
            "user_refs": self.user_refs,
        }


@dataclass(frozen=True, slots=True)
class Persona:
    """The newest version of an agent's learned profile of the user."""

    text: str
    version: int
    episodes_seen: int


@dataclass(frozen=True, slots=True)
class Fact:
    fact_id: int
    agent_id: str
    subject: str
    kind: str
    text: str
    status: str
    superseded_by: int | None
    episode_id: int | None
    value: float
    signals: Signals
    valid_from: str | None
    valid_to: str | None
    decided_by: str
    created_ms: int
    updated_ms: int
    ref_count: int
    refs: tuple[str, ...] = ()

    def to_wire(self) -> dict[str, Any]:
        return {
            "fact_id": self.fact_id,
            "subject": self.subject,
            "kind": self.kind,
            "text": self.text,
            "status": self.status,
            "superseded_by": self.superseded_by,
            "episode_id": self.episode_id,
            "value": round(self.value, 4),
            "signals": self.signals.as_dict(),
            "valid_from": self.valid_from,
            "valid_to": self.valid_to,
            "decided_by": self.decided_by,
            "created_ms": self.created_ms,
            "updated_ms": self.updated_ms,
            "ref_count": self.ref_count,
            "refs": list(self.refs),
        }


@dataclass(frozen=True, slots=True)
class NewFact:
    subject: str
    kind: str
    text: str
    value: float
    signals: Signals = field(default_factory=Signals)
    valid_from: str | None = None
    valid_to: str | None = None


_EPISODE = (
    "episode_id, agent_id, session_id, started_ms, ended_ms, summary, closing_valence, closing_arousal, "
    "closing_fatigue, tension, decided_by, ref_count, last_ref_ms, pruned_ms"
)
_FACT = (
    "fact_id, agent_id, subject, kind, text, status, superseded_by, episode_id, value, sig_recency, "
    "sig_specificity, sig_intensity, sig_user_refs, valid_from, valid_to, decided_by, created_ms, updated_ms, "
    "ref_count"
)


def refs_of(conn: apsw.Connection, kind: str, item_id: int) -> tuple[str, ...]:
    return tuple(
        r[0]
        for r in conn.execute(
            "SELECT ref FROM sources WHERE kind = ? AND item_id = ? ORDER BY message_id, ref",
            (kind, item_id),
        )
    )


def refs_of_many(
    conn: apsw.Connection, keys: Sequence[tuple[str, int]]
) -> dict[tuple[str, int], tuple[str, ...]]:
    """``refs_of`` for several memories in one query."""
    if not keys:
        return {}
    marks = ",".join("(?, ?)" for _ in keys)
    out: dict[tuple[str, int], list[str]] = {}
    for kind, item_id, ref in conn.execute(
        f"SELECT kind, item_id, ref FROM sources WHERE (kind, item_id) IN (VALUES {marks}) "
        "ORDER BY kind, item_id, message_id, ref",
        tuple(v for key in keys for v in key),
    ):
        out.setdefault((kind, item_id), []).append(ref)
    return {key: tuple(refs) for key, refs in out.items()}


def add_sources(
    conn: apsw.Connection,
    kind: str,
    item_id: int,
    agent_id: str,
    sources: Sequence[tuple[int | None, str]],
) -> None:
    for message_id, ref in sources:
        conn.execute(
            "INSERT OR IGNORE INTO sources (kind, item_id, agent_id, message_id, ref) VALUES (?, ?, ?, ?, ?)",
            (kind, item_id, agent_id, message_id, ref),
        )


def _episode(conn: apsw.Connection, row: tuple[Any, ...]) -> Episode:
    highlights = tuple(
        r[0]
        for r in conn.execute(
            "SELECT text FROM highlights WHERE episode_id = ? ORDER BY ts_ms, highlight_id",
            (row[0],),
        )
    )
    return replace(Episode(*row), highlights=highlights, refs=refs_of(conn, "episode", row[0]))


def insert_episode(
    conn: apsw.Connection,
    agent_id: str,
    session_id: str | None,
    started_ms: int,
    ended_ms: int,
    summary: str,
    closing: ClosingMood | None,
    tension: float,
    decided_by: str,
) -> int:
    v, a, f = (closing.valence, closing.arousal, closing.fatigue) if closing else (None, None, None)
    conn.execute(
        "INSERT INTO episodes (agent_id, session_id, started_ms, ended_ms, summary, closing_valence, closing_arousal, "
        "closing_fatigue, tension, decided_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (agent_id, session_id, started_ms, ended_ms, summary, v, a, f, tension, decided_by),
    )
    return conn.last_insert_rowid()


def insert_highlight(
    conn: apsw.Connection,
    episode_id: int,
    agent_id: str,
    text: str,
    ts_ms: int,
    intensity: float,
    specificity: float,
) -> int:
    conn.execute(
        "INSERT INTO highlights (episode_id, agent_id, text, ts_ms, intensity, specificity) VALUES (?, ?, ?, ?, ?, ?)",
        (episode_id, agent_id, text, ts_ms, intensity, specificity),
    )
    return conn.last_insert_rowid()


@dataclass(frozen=True, slots=True)
class Highlight:
    highlight_id: int
    episode_id: int
    text: str
    ts_ms: int
    refs: tuple[str, ...]

    def to_wire(self) -> dict[str, Any]:
        return {
            "highlight_id": self.highlight_id,
            "episode_id": self.episode_id,
            "text": self.text,
            "ts": self.ts_ms,
            "refs": list(self.refs),
        }


def get_highlight(conn: apsw.Connection, agent_id: str, highlight_id: int) -> Highlight | None:
    row = conn.execute(
        "SELECT highlight_id, episode_id, text, ts_ms FROM highlights WHERE highlight_id = ? AND "
        "agent_id = ?",
        (highlight_id, agent_id),
    ).fetchone()
    if row is None:
        return None
    return Highlight(row[0], row[1], row[2], row[3], refs_of(conn, "highlight", highlight_id))


def episode_tension(conn: apsw.Connection, episode_id: int) -> float | None:
    """The unresolved tension an episode closed with; None when the episode is gone."""
    row = conn.execute(
        "SELECT tension FROM episodes WHERE episode_id = ?", (episode_id,)
    ).fetchone()
    return float(row[0]) if row else None


def last_ended_at_most(conn: apsw.Connection, agent_id: str, valence: float) -> int | None:
    """When the latest episode of ``agent_id`` that closed at ``valence`` or below ended."""
    row = conn.execute(
        "SELECT MAX(ended_ms) FROM episodes WHERE agent_id = ? AND closing_valence <= ?",
        (agent_id, valence),
    ).fetchone()
    return int(row[0]) if row and row[0] is not None else None


@dataclass(frozen=True, slots=True)
class PeakExport:
    """A verbatim peak of an episode, as an export carries it (``Highlight`` is one as memory.get
    shows it)."""

    text: str
    ts_ms: int
    intensity: float
    specificity: float

    def to_wire(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "ts": self.ts_ms,
            "intensity": self.intensity,
            "specificity": self.specificity,
        }


def highlights_of(conn: apsw.Connection, episode_id: int) -> list[PeakExport]:
    return [
        PeakExport(*r)
        for r in conn.execute(
            "SELECT text, ts_ms, intensity, specificity FROM highlights WHERE episode_id = ? "
            "ORDER BY ts_ms, highlight_id",
            (episode_id,),
        )
    ]


def episode_for_session(conn: apsw.Connection, session_id: str) -> int | None:
    row = conn.execute(
        "SELECT episode_id FROM episodes WHERE session_id = ?", (session_id,)
    ).fetchone()
    return int(row[0]) if row else None


def get_episode(conn: apsw.Connection, agent_id: str, episode_id: int) -> Episode | None:
    row = conn.execute(
        f"SELECT {_EPISODE} FROM episodes WHERE agent_id = ? AND episode_id = ?",
        (agent_id, episode_id),
    ).fetchone()
    return _episode(conn, row) if row else None


def episodes(
    conn: apsw.Connection,
    agent_id: str,
    *,
    since_ms: int | None = None,
    until_ms: int | None = None,
    limit: int = 1000,
) -> list[Episode]:
    """Newest first."""
    rows = conn.execute(
        f"SELECT {_EPISODE} FROM episodes WHERE agent_id = ? AND ended_ms >= ? AND ended_ms <= ? "
        "ORDER BY ended_ms DESC, episode_id DESC LIMIT ?",
        (
            agent_id,
            since_ms if since_ms is not None else -(2**62),
            until_ms if until_ms is not None else 2**62,
            limit,
        ),
    ).fetchall()
    return [_episode(conn, r) for r in rows]


def count_episodes(conn: apsw.Connection, agent_id: str) -> int:
    return int(conn.execute("SELECT count(*) FROM episodes WHERE agent_id = ?", (agent_id,)).get)


def _fact(conn: apsw.Connection, row: tuple[Any, ...]) -> Fact:
    signals = Signals(row[9], row[10], row[11], row[12])
    return Fact(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        row[8],
        signals,
        row[13],
        row[14],
        row[15],
        row[16],
        row[17],
        row[18],
        refs=refs_of(conn, "fact", row[0]),
    )


def insert_fact(
    conn: apsw.Connection,
    agent_id: str,
    fact: NewFact,
    episode_id: int | None,
    decided_by: str,
    ts_ms: int,
) -> int:
    s = fact.signals
    conn.execute(
        "INSERT INTO facts (agent_id, subject, kind, text, status, episode_id, value, sig_recency, sig_specificity, "
        "sig_intensity, sig_user_refs, valid_from, valid_to, decided_by, created_ms, updated_ms) "
        "VALUES (?, ?, ?, ?, 'current', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            agent_id,
            fact.subject,
            fact.kind,
            fact.text,
            episode_id,
            fact.value,
            s.recency,
            s.specificity,
            s.intensity,
            int(s.user_refs),
            fact.valid_from,
            fact.valid_to,
            decided_by,
            ts_ms,
            ts_ms,
        ),
    )
    fact_id = conn.last_insert_rowid()
    fact_event(conn, fact_id, agent_id, ts_ms, "ADD", fact.text, decided_by)
    return fact_id


def fact_event(
    conn: apsw.Connection,
    fact_id: int,
    agent_id: str,
    ts_ms: int,
    action: str,
    text: str,
    decided_by: str,
    other: int | None = None,
) -> None:
    conn.execute(
        "INSERT INTO fact_history (fact_id, agent_id, ts_ms, action, text, decided_by, other_fact) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (fact_id, agent_id, ts_ms, action, text, decided_by, other),
    )


def restore_fact_state(
    conn: apsw.Connection,
    fact_id: int,
    status: str,
    superseded_by: int | None,
    updated_ms: int,
) -> None:
    """An imported fact as the export had it: its status, its successor, its last change."""
    conn.execute(
        "UPDATE facts SET status = ?, superseded_by = ?, updated_ms = ? WHERE fact_id = ?",
        (status, superseded_by, updated_ms, fact_id),
    )


def restore_history(
    conn: apsw.Connection,
    fact_id: int,
    agent_id: str,
    lines: Sequence[tuple[int, str, str, str, int | None]],
) -> None:
    """An imported fact's history as the export had it ((ts, action, text, decided_by, other fact)),
    in place of the one line its insert wrote."""
    conn.execute("DELETE FROM fact_history WHERE fact_id = ?", (fact_id,))
    for ts_ms, action, text, decided_by, other in lines:
        fact_event(conn, fact_id, agent_id, ts_ms, action, text, decided_by, other)


def supersede(conn: apsw.Connection, old_id: int, new_id: int, ts_ms: int, decided_by: str) -> None:
    conn.execute(
        "UPDATE facts SET status = 'superseded', superseded_by = ?, updated_ms = ? WHERE fact_id = ?",
        (new_id, ts_ms, old_id),
    )
    row = conn.execute("SELECT agent_id, text FROM facts WHERE fact_id = ?", (old_id,)).get
    fact_event(conn, old_id, row[0], ts_ms, "SUPERSEDED", row[1], decided_by, new_id)


def outdate(conn: apsw.Connection, fact_id: int, ts_ms: int, decided_by: str) -> None:
    """Superseded by something the user said that made no fact of its own (a change read by meaning,
    xaid.memory.supersede): history, with no successor to point at."""
    conn.execute(
        "UPDATE facts SET status = 'superseded', updated_ms = ? WHERE fact_id = ?", (ts_ms, fact_id)
    )
    row = conn.execute("SELECT agent_id, text FROM facts WHERE fact_id = ?", (fact_id,)).get
    fact_event(conn, fact_id, row[0], ts_ms, "SUPERSEDED", row[1], decided_by)


def retire(conn: apsw.Connection, fact_id: int, ts_ms: int, decided_by: str) -> None:
    """The user said it no longer holds: kept as history, never returned as current."""
    conn.execute(
        "UPDATE facts SET status = 'deleted', updated_ms = ? WHERE fact_id = ?", (ts_ms, fact_id)
    )
    row = conn.execute("SELECT agent_id, text FROM facts WHERE fact_id = ?", (fact_id,)).get
    fact_event(conn, fact_id, row[0], ts_ms, "DELETE", row[1], decided_by)


def get_fact(conn: apsw.Connection, agent_id: str, fact_id: int) -> Fact | None:
    row = conn.execute(
        f"SELECT {_FACT} FROM facts WHERE agent_id = ? AND fact_id = ?", (agent_id, fact_id)
    ).fetchone()
    return _fact(conn, row) if row else None


def facts(
    conn: apsw.Connection,
    agent_id: str,
    *,
    status: str | None = "current",
    subject: str | None = None,
    limit: int = 10_000,
) -> list[Fact]:
    where = ["agent_id = ?"]
    args: list[Any] = [agent_id]
    if status is not None:
        where.append("status = ?")
        args.append(status)
    if subject is not None:
        where.append("subject = ?")
        args.append(subject)
    rows = conn.execute(
        f"SELECT {_FACT} FROM facts WHERE {' AND '.join(where)} ORDER BY fact_id LIMIT ?",
        (*args, limit),
    ).fetchall()
    return [_fact(conn, r) for r in rows]


def fact_history(conn: apsw.Connection, fact_id: int) -> list[dict[str, Any]]:
    rows = conn.execute(
        "SELECT ts_ms, action, text, decided_by, other_fact FROM fact_history WHERE fact_id = ? ORDER BY history_id",
        (fact_id,),
    )
    return [
        {"ts": r[0], "action": r[1], "text": r[2], "decided_by": r[3], "other_fact": r[4]}
        for r in rows
    ]


def touch(conn: apsw.Connection, kind: str, source_id: int, ts_ms: int) -> None:
    """A retrieval hit or a user mention: the memory was referenced, so it is kept longer."""
    table, key = {"episode": ("episodes", "episode_id"), "fact": ("facts", "fact_id")}.get(
        kind, (None, None)
    )
    if kind == "highlight":
        row = conn.execute(
            "SELECT episode_id FROM highlights WHERE highlight_id = ?", (source_id,)
        ).fetchone()
        if row is None:
            return
        table, key, source_id = "episodes", "episode_id", row[0]
    if table is None:
        return
    conn.execute(
        f"UPDATE {table} SET ref_count = ref_count + 1, last_ref_ms = max(coalesce(last_ref_ms, 0), ?) "
        f"WHERE {key} = ?",
        (ts_ms, source_id),
    )


def plans_over(conn: apsw.Connection, agent_id: str, today: str) -> list[str]:
    """The texts of current plans whose last day is before ``today`` (an ISO local date)."""
    return [
        r[0]
        for r in conn.execute(
            "SELECT text FROM facts WHERE agent_id = ? AND status = 'current' AND kind = 'plan' AND valid_to < ?",
            (agent_id, today),
        )
    ]


def persona(conn: apsw.Connection, agent_id: str) -> Persona | None:
    """The newest persona."""
    row = conn.execute(
        "SELECT text, version, episodes_seen FROM persona WHERE agent_id = ? ORDER BY version DESC "
        "LIMIT 1",
        (agent_id,),
    ).fetchone()
    return Persona(row[0], int(row[1]), int(row[2])) if row else None


def write_persona(
    conn: apsw.Connection, agent_id: str, text: str, episodes_seen: int, decided_by: str, ts_ms: int
) -> int:
    current = persona(conn, agent_id)
    version = (current.version if current else 0) + 1
    conn.execute(
        "INSERT INTO persona (agent_id, text, version, episodes_seen, decided_by, created_ms) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (agent_id, text, version, episodes_seen, decided_by, ts_ms),
    )
    return version


def enqueue_job(conn: apsw.Connection, agent_id: str, session_id: str, ts_ms: int) -> bool:
    """False when the session already has a job (done or pending): never twice."""
    conn.execute(
        "INSERT OR IGNORE INTO jobs (agent_id, kind, session_id, state, created_ms, updated_ms) "
        "VALUES (?, 'consolidate', ?, 'pending', ?, ?)",
        (agent_id, session_id, ts_ms, ts_ms),
    )
    return conn.changes() > 0


def pending_jobs(conn: apsw.Connection) -> list[tuple[int, str, str]]:
    return [
        (r[0], r[1], r[2])
        for r in conn.execute(
            "SELECT job_id, agent_id, session_id FROM jobs WHERE state = 'pending' ORDER BY job_id"
        )
    ]


def finish_job(
    conn: apsw.Connection, job_id: int, state: str, ts_ms: int, error: str | None = None
) -> None:
    conn.execute(
        "UPDATE jobs SET state = ?, attempts = attempts + 1, error = ?, updated_ms = ? WHERE job_id = ?",
        (state, error, ts_ms, job_id),
    )


def job_attempts(conn: apsw.Connection, job_id: int) -> int:
    row = conn.execute("SELECT attempts FROM jobs WHERE job_id = ?", (job_id,)).fetchone()
    return int(row[0]) if row else 0


def job_state(conn: apsw.Connection, session_id: str) -> str | None:
    row = conn.execute("SELECT state FROM jobs WHERE session_id = ?", (session_id,)).fetchone()
    return row[0] if row else None
