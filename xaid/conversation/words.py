"""The user's words as they arrive, live (a turn) or imported (``session.ingest``): stored, and
the mood they move observed in the same transaction.

One function for both, so history a client imports moves the mood exactly as if it had been
lived, and a rule about storing the user's words is written once.
"""

from __future__ import annotations

import apsw

from ..clock import Clock, for_state, state_ceiling
from ..config import MoodConfig
from ..mood import tracker
from ..mood.classifier import Reading
from ..mood.state import MoodState
from ..store import sessions as sql
from ..store.sessions import Message


def store(
    conn: apsw.Connection,
    msg: Message,
    reading: Reading | None,
    cfg: MoodConfig,
    clock: Clock,
) -> tuple[Message, MoodState | None]:
    """Inside the caller's transaction: the message stored and, when it was classified
    (``reading``), the mood it moved. The mood keeps the message's own time, bounded by the
    clock (``clock.for_state``)."""
    stored = sql.insert_message(conn, msg)
    if reading is None:
        return stored, None
    mood = tracker.observe(
        conn,
        msg.agent_id,
        reading,
        for_state(msg.ts_ms, clock),
        cfg,
        stored.message_id,
        state_ceiling(clock),
    )
    return stored, mood
