"""A fact corrected by the user (the memory page's "correct"): their words become the current fact
and the old one is superseded by it, through the very step a consolidation's UPDATE takes
(``episodes.apply_decision``), so history, indexes and quoted summaries follow the same way.

``decided_by`` is ``user``: the fact is the user's own statement, not a rule's or a model's reading.
"""

from __future__ import annotations

import apsw
import numpy as np

from ..store import memory as sql
from ..store.memory import NewFact
from . import episodes, facts

MAX_TEXT = 1000
BY_USER = "user"


class NotCurrent(Exception):
    """The fact is gone or already replaced: there is nothing current to correct."""


def correct(
    conn: apsw.Connection,
    agent_id: str,
    fact_id: int,
    text: str,
    vector: np.ndarray | None,
    ts_ms: int,
) -> int:
    """The new fact's id; the old one (of this agent, current) is superseded by it."""
    old = sql.get_fact(conn, agent_id, fact_id)
    if old is None or old.status != "current":
        raise NotCurrent(f"fact:{fact_id} is not a current fact of {agent_id!r}")
    planned = episodes.PlannedFact(
        NewFact(old.subject, old.kind, text, old.value, old.signals),
        facts.Decision("UPDATE", fact_id, BY_USER),
        vector,
        [],
    )
    episodes.apply_decision(conn, agent_id, old.episode_id, planned, ts_ms)
    replaced = sql.get_fact(conn, agent_id, fact_id)
    assert replaced is not None and replaced.superseded_by is not None
    return replaced.superseded_by
