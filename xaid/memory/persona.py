"""L3: a short narrative profile of the user, at the head of every system prompt.

Refreshed every ``persona_every`` episodes from the current facts (the highest-valued first,
grouped by kind). The agent's ``persona_init`` is its seed: it stands at the head of the system
prompt from the first turn, and the learned profile follows it. A refresh writes a new version; the
old ones stay, so the profile is rewritten, never deleted. The text changes rarely on purpose:
it sits in the stable head of the prompt that llama.cpp can keep cached.

A plan is part of the profile only until its day has passed: "Tomorrow [2026-12-02] the user has an
interview" read on 5 December would have the companion wish luck for something already over. The
fact stays in memory (search still finds it, dated); the profile drops it at the next refresh, and
until then ``current_text`` leaves it out when it reads the profile for a new session. Its time is
put as the date it meant ("On Friday 4 December 2026, the user has an interview"), never "Tomorrow":
read on the 4th, "Tomorrow [2026-12-04]" had the companion wish luck for the next day, and a date
keeps the head the same from day to day.
"""

from __future__ import annotations

import apsw

from .. import clock
from ..store import memory as sql
from ..store.agents import Agent
from ..store.memory import Fact
from ..text import timeparse

ORDER = ("identity", "work", "place", "person", "health", "preference", "plan", "other")
MAX_FACTS = 12


HEADER = "What you know about the user: "


def _line(text: str) -> str:
    return text if text.endswith(("。", ".", "!", "?", "！", "？")) else text + "."


def _over(f: Fact, today: str) -> bool:
    return f.kind == "plan" and f.valid_to is not None and f.valid_to < today


def compose(facts: list[Fact], today: str = "") -> str:
    """The profile from ``facts``, leaving out plans whose day is before ``today`` (an ISO local date)."""
    kept = [f for f in facts if not _over(f, today)]
    ranked = sorted(
        kept, key=lambda f: (ORDER.index(f.kind) if f.kind in ORDER else len(ORDER), -f.value)
    )
    lines = [_line(timeparse.timeless(f.text)) for f in ranked[:MAX_FACTS]]
    return HEADER + " ".join(lines) if lines else ""


def _today(now_ms: int) -> str:
    return clock.local(now_ms).date().isoformat()


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
    text = compose(sql.facts(conn, agent.agent_id), _today(now_ms))
    if not text or (current is not None and current.text == text):
        return None
    return sql.write_persona(conn, agent.agent_id, text, count, "rules", now_ms)


def current_text(conn: apsw.Connection, agent_id: str, now_ms: int | None = None) -> str | None:
    """The profile as it stands at ``now_ms``: without the plans that are over since it was written."""
    current = sql.persona(conn, agent_id)
    if current is None:
        return None
    text = current.text
    if now_ms is not None:
        for plan in sql.plans_over(conn, agent_id, _today(now_ms)):
            for line in {_line(plan), _line(timeparse.timeless(plan))}:
                text = text.replace(" " + line, "").replace(line, "")
    text = timeparse.timeless(text)  # a profile written before its times were put as dates
    return text if text.strip() != HEADER.strip() else None
