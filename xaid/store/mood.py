"""mood_state and mood_history tables: plain SQL in, records out."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import apsw

from ..clock import HOUR_MS

# The neutral mood a decaying state returns to (the arithmetic is xaid.mood.state's).
BASELINE_VALENCE = 0.0
BASELINE_AROUSAL = 0.3
BASELINE_FATIGUE = 0.0


@dataclass(frozen=True, slots=True)
class MoodState:
    valence: float = BASELINE_VALENCE
    arousal: float = BASELINE_AROUSAL
    fatigue: float = BASELINE_FATIGUE
    confidence: float = 0.0
    half_life_ms: int = 12 * HOUR_MS
    updated_ms: int = 0

    def to_wire(self) -> dict[str, Any]:
        return {
            "valence": round(self.valence, 4),
            "arousal": round(self.arousal, 4),
            "fatigue": round(self.fatigue, 4),
            "confidence": round(self.confidence, 4),
            "half_life_h": round(self.half_life_ms / HOUR_MS, 2),
            "updated_ms": self.updated_ms,
        }


@dataclass(frozen=True, slots=True)
class MoodChange:
    history_id: int
    ts_ms: int
    kind: str
    state: MoodState
    intensity: float | None
    cues: list[str]
    message_id: int | None

    def to_wire(self) -> dict[str, Any]:
        out = self.state.to_wire()
        out.update(
            id=self.history_id,
            ts=self.ts_ms,
            kind=self.kind,
            intensity=self.intensity,
            cues=self.cues,
            message_id=self.message_id,
        )
        return out


_STATE = "valence, arousal, fatigue, confidence, half_life_ms, updated_ms"


def get(conn: apsw.Connection, agent_id: str) -> MoodState | None:
    row = conn.execute(
        f"SELECT {_STATE} FROM mood_state WHERE agent_id = ?", (agent_id,)
    ).fetchone()
    return MoodState(*row) if row else None


def restore(conn: apsw.Connection, agent_id: str, state: MoodState) -> bool:
    """An imported mood, kept when it is newer than the agent's own (or the agent has none);
    whether it was."""
    conn.execute(
        f"INSERT INTO mood_state (agent_id, {_STATE}) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(agent_id) DO UPDATE SET valence = excluded.valence, arousal = excluded.arousal, "
        "fatigue = excluded.fatigue, confidence = excluded.confidence, half_life_ms = excluded.half_life_ms, "
        "updated_ms = excluded.updated_ms WHERE excluded.updated_ms > mood_state.updated_ms",
        (
            agent_id,
            state.valence,
            state.arousal,
            state.fatigue,
            state.confidence,
            state.half_life_ms,
            state.updated_ms,
        ),
    )
    return conn.changes() > 0


def bound_updated(conn: apsw.Connection, agent_id: str, ceiling_ms: int) -> None:
    """A state stored with a time past ``ceiling_ms`` (by an xaid that took any future time) is taken
    as changed at the ceiling, so it fades again."""
    conn.execute(
        "UPDATE mood_state SET updated_ms = ? WHERE agent_id = ? AND updated_ms > ?",
        (ceiling_ms, agent_id, ceiling_ms),
    )


def save(
    conn: apsw.Connection,
    agent_id: str,
    state: MoodState,
    kind: str,
    *,
    intensity: float | None = None,
    cues: tuple[str, ...] = (),
    message_id: int | None = None,
    keep: int = 500,
) -> None:
    """Write the new state and its history row; prune history beyond ``keep`` rows."""
    values = (state.valence, state.arousal, state.fatigue, state.confidence, state.half_life_ms)
    conn.execute(
        f"INSERT INTO mood_state (agent_id, {_STATE}) VALUES (?, ?, ?, ?, ?, ?, ?) "
        "ON CONFLICT(agent_id) DO UPDATE SET valence = excluded.valence, arousal = excluded.arousal, "
        "fatigue = excluded.fatigue, confidence = excluded.confidence, half_life_ms = excluded.half_life_ms, "
        "updated_ms = excluded.updated_ms",
        (agent_id, *values, state.updated_ms),
    )
    conn.execute(
        "INSERT INTO mood_history (agent_id, ts_ms, kind, valence, arousal, fatigue, confidence, half_life_ms, "
        "intensity, cues, message_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            agent_id,
            state.updated_ms,
            kind,
            *values,
            intensity,
            json.dumps(list(cues), ensure_ascii=False),
            message_id,
        ),
    )
    conn.execute(
        "DELETE FROM mood_history WHERE agent_id = ? AND history_id <= "
        "(SELECT history_id FROM mood_history WHERE agent_id = ? ORDER BY history_id DESC LIMIT 1 OFFSET ?)",
        (agent_id, agent_id, keep),
    )


def history(
    conn: apsw.Connection, agent_id: str, limit: int, since_ms: int | None = None
) -> list[MoodChange]:
    rows = conn.execute(
        "SELECT history_id, ts_ms, kind, valence, arousal, fatigue, confidence, half_life_ms, intensity, cues, "
        "message_id FROM mood_history WHERE agent_id = ? AND ts_ms >= ? ORDER BY history_id DESC LIMIT ?",
        (agent_id, since_ms if since_ms is not None else -(2**62), limit),
    )
    out = []
    for r in rows:
        state = MoodState(r[3], r[4], r[5], r[6], r[7], r[1])
        out.append(MoodChange(r[0], r[1], r[2], state, r[8], json.loads(r[9] or "[]"), r[10]))
    return out[::-1]
