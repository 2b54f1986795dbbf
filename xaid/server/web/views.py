"""What the memory page shows, read in one database round trip per page: records, no HTML.

The reads are the store's own functions, the ones the CBOR methods answer with (``memory.list``,
``memory.get``, ``mood.history``, ``scheduler.list``, ``scheduler.config``), so the page shows what
a client would see; only "where did it come from" reads the source turns themselves
(``store.provenance``).
"""

from __future__ import annotations

from dataclasses import dataclass

import apsw

from ...clock import DAY_MS, HOUR_MS
from ...config import Config
from ...mood import tracker
from ...store import memory as sql
from ...store import mood as mood_sql
from ...store import provenance
from ...store import recall as recall_sql
from ...store import sessions as session_sql
from ...store import utterances as utterance_sql
from ...store.agents import Agent
from ...store.memory import Episode, Fact, Persona
from ...store.mood import MoodChange, MoodState
from ...store.provenance import SourceTurn
from ...store.recall import RecallItem, Settings
from ...store.sessions import Session

WINDOW_MS = 30 * DAY_MS  # the mood plot's span
MAX_READINGS = 10_000
MAX_FACTS = 1000
MAX_EPISODES = 200
LAST_SUGGESTIONS = 10


@dataclass(frozen=True, slots=True)
class Overview:
    agent: Agent
    persona: Persona | None
    facts: list[Fact]
    episodes: list[Episode]
    mood: MoodState
    readings: list[MoodChange]  # the last 30 days, oldest first
    sessions: list[Session]  # opened in the last 30 days
    armed: list[RecallItem]
    suggested: list[RecallItem]  # newest push first
    settings: Settings
    now_ms: int


def overview(conn: apsw.Connection, agent: Agent, now_ms: int, cfg: Config) -> Overview:
    a = agent.agent_id
    since = now_ms - WINDOW_MS
    pushed = [i for i in recall_sql.items(conn, a, recall_sql.STATES) if i.pushed_ms is not None]
    pushed.sort(key=lambda i: i.pushed_ms or 0, reverse=True)
    return Overview(
        agent,
        sql.persona(conn, a),
        sql.facts(conn, a, status=None, limit=MAX_FACTS),
        sql.episodes(conn, a, limit=MAX_EPISODES),
        tracker.current(conn, a, now_ms, cfg.mood),
        mood_sql.history(conn, a, MAX_READINGS, since),
        [s for s in session_sql.list_sessions(conn, a) if s.opened_ms >= since],
        recall_sql.items(conn, a, ("pending",)),
        pushed[:LAST_SUGGESTIONS],
        recall_sql.settings(conn, a, int(cfg.scheduler.min_gap_hours * HOUR_MS)),
        now_ms,
    )


@dataclass(frozen=True, slots=True)
class Why:
    """One memory and what it came from: the turns, and for a fact its history."""

    kind: str
    item_id: int
    text: str
    ts_ms: int | None
    turns: list[SourceTurn]
    history: list[tuple[int, str, str, str]]  # (ts, action, text, decided_by)


def why(conn: apsw.Connection, agent_id: str, kind: str, item_id: int) -> Why | None:
    if kind == "fact":
        fact = sql.get_fact(conn, agent_id, item_id)
        if fact is None:
            return None
        lines = [
            (h["ts"], h["action"], h["text"], h["decided_by"])
            for h in sql.fact_history(conn, item_id)
        ]
        turns = provenance.source_turns(conn, agent_id, "fact", item_id)
        return Why(kind, item_id, fact.text, fact.created_ms, turns, lines)
    if kind == "episode":
        ep = sql.get_episode(conn, agent_id, item_id)
        if ep is None:
            return None
        turns = provenance.source_turns(conn, agent_id, "episode", item_id)
        return Why(kind, item_id, ep.summary, ep.ended_ms, turns, [])
    if kind == "highlight":
        hl = sql.get_highlight(conn, agent_id, item_id)
        if hl is None:
            return None
        turns = provenance.source_turns(conn, agent_id, "highlight", item_id)
        return Why(kind, item_id, hl.text, hl.ts_ms, turns, [])
    turn = utterance_sql.get(conn, agent_id, item_id)
    if turn is None:
        return None
    said = [turn]
    if turn.prev_id is not None and (prev := utterance_sql.get(conn, agent_id, turn.prev_id)):
        said.insert(0, prev)
    turns = [SourceTurn(u.ref, u.role, u.text, u.ts_ms) for u in said]
    return Why(kind, item_id, turn.text, turn.ts_ms, turns, [])
