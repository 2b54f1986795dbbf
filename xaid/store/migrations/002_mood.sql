-- Mood per agent: the current state, and a bounded history of every change with what caused it.

CREATE TABLE mood_state (
    agent_id     TEXT PRIMARY KEY REFERENCES agents(agent_id) ON DELETE CASCADE,
    valence      REAL NOT NULL,
    arousal      REAL NOT NULL,
    fatigue      REAL NOT NULL,
    confidence   REAL NOT NULL,
    half_life_ms INTEGER NOT NULL,   -- how fast this particular feeling fades (set by its intensity)
    updated_ms   INTEGER NOT NULL
) STRICT;

CREATE TABLE mood_history (
    history_id   INTEGER PRIMARY KEY,
    agent_id     TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    ts_ms        INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('observe', 'reset')),
    valence      REAL NOT NULL,
    arousal      REAL NOT NULL,
    fatigue      REAL NOT NULL,
    confidence   REAL NOT NULL,
    half_life_ms INTEGER NOT NULL,
    intensity    REAL,                -- of the reading that caused the change (feeds memory value)
    cues         TEXT,                -- JSON list of the cues that fired
    message_id   INTEGER REFERENCES messages(message_id) ON DELETE SET NULL
) STRICT;

CREATE INDEX mood_history_by_agent ON mood_history(agent_id, history_id);
CREATE INDEX mood_history_by_message ON mood_history(message_id);
