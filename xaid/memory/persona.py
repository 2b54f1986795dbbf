"""L3: a short narrative profile of the user, at the head of every system prompt.

Refreshed every ``persona_every`` episodes from the current facts (the highest-valued first,
grouped by kind). The agent's ``persona_init`` is its seed: it stands at the head of the system
prompt from the first turn, and the learned profile follows it. A refresh writes a new version; the
old ones stay, so the profile is rewritten, never deleted. The text changes rarely on purpose:
it sits in the stable head of the prompt that llama.cpp can keep cached.
"""

from __future__ import annotations

import apsw

from ..store import memory as sql
from ..store.agents import Agent
from ..store.memory import Fact

ORDER = ("identity", "work", "place", "person", "health", "preference", "plan", "other")
MAX_FACTS = 12


def compose(facts: list[Fact]) -> str:
    ranked = sorted(facts, key=lambda f: (ORDER.index(f.kind) if f.kind in ORDER else len(ORDER), -f.value))
    lines = [f.text if f.text.endswith(("。", ".", "!", "?", "！", "？")) else f.text + "." for f in ranked[:MAX_FACTS]]
    return "What you know about the user: " + " ".join(lines) if lines else ""


def refresh(conn: apsw.Connection, agent: Agent, every: int, now_ms: int) -> int | None:
    """A new version of the profile when ``every`` episodes came since the last; its id, or None.
    (Agents with memory off are not asked: xaid.consolidation checks that.)"""
    count = sql.count_episodes(conn, agent.agent_id)
    current = sql.persona(conn, agent.agent_id)
    seen = current.episodes_seen if current else 0
    if count - seen < every and current is not None:
        return None
    if current is None and count < 1:
        return None
    text = compose(sql.facts(conn, agent.agent_id))
    if not text or (current is not None and current.text == text):
        return None
    return sql.write_persona(conn, agent.agent_id, text, count, "rules", now_ms)


def current_text(conn: apsw.Connection, agent_id: str) -> str | None:
    current = sql.persona(conn, agent_id)
    return current.text if current else None
