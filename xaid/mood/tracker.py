"""Reading, remembering and recalling an agent's mood inside database transactions.

Kept apart from the arithmetic (state.py) and the SQL (store/mood.py) so a turn can record the
user's message and the mood it moved in one transaction: either both are stored or neither.
"""

from __future__ import annotations

import apsw

from ..config import MoodConfig
from ..store import mood as sql
from .classifier import Reading
from .state import HOUR_MS, MoodParams, MoodState, decay, merge, neutral


def params(cfg: MoodConfig) -> MoodParams:
    return MoodParams(
        half_life_ms=int(cfg.half_life_hours * HOUR_MS), learning_rate=cfg.learning_rate
    )


def current(conn: apsw.Connection, agent_id: str, at_ms: int, cfg: MoodConfig) -> MoodState:
    """The mood as it stands at ``at_ms``, faded by the time since it last changed."""
    state = sql.get(conn, agent_id)
    if state is None:
        return neutral(at_ms, params(cfg))
    return decay(state, at_ms)


def observe(
    conn: apsw.Connection,
    agent_id: str,
    reading: Reading,
    at_ms: int,
    cfg: MoodConfig,
    message_id: int | None,
    ceiling_ms: int | None = None,
) -> MoodState:
    """``at_ms`` is already bounded (clock.for_state); ``ceiling_ms`` is the latest time a stored state may
    carry (the daemon's clock plus its margin), so one stored by an older xaid fades again."""
    p = params(cfg)
    if ceiling_ms is not None:
        sql.bound_updated(conn, agent_id, ceiling_ms)
    prev = sql.get(conn, agent_id) or neutral(at_ms, p)
    state = merge(prev, reading, at_ms, p)
    if reading.confidence > 0:
        sql.save(
            conn,
            agent_id,
            state,
            "observe",
            intensity=reading.intensity,
            cues=reading.cues,
            message_id=message_id,
            keep=cfg.history_limit,
        )
    return state


def reset(conn: apsw.Connection, agent_id: str, at_ms: int, cfg: MoodConfig) -> MoodState:
    state = neutral(at_ms, params(cfg))
    sql.save(conn, agent_id, state, "reset", keep=cfg.history_limit)
    return state


def observe_if_latest(
    conn: apsw.Connection, agent_id: str, reading: Reading, at_ms: int, cfg: MoodConfig
) -> MoodState | None:
    """``observe`` at ``at_ms`` unless the stored mood changed after it (a later turn moved it
    since: that is the mood now, and an older reading must not override it). The new state, or None."""
    state = sql.get(conn, agent_id)
    if state is not None and state.updated_ms > at_ms:
        return None
    return observe(conn, agent_id, reading, at_ms, cfg, None)
