-- Agents, their sessions, and every message said in them. Every row carries its agent, and
-- deleting an agent deletes everything it owns (ON DELETE CASCADE), so "forget me" is complete.

CREATE TABLE agents (
    agent_id     TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    persona_init TEXT NOT NULL DEFAULT '',
    config       TEXT NOT NULL DEFAULT '{}',   -- JSON map, validated by xaid.agents
    created_ms   INTEGER NOT NULL,
    updated_ms   INTEGER NOT NULL
) STRICT;

CREATE TABLE sessions (
    session_id TEXT PRIMARY KEY,
    agent_id   TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    opened_ms  INTEGER NOT NULL,
    last_ms    INTEGER NOT NULL,
    closed_ms  INTEGER
) STRICT;

CREATE INDEX sessions_by_agent ON sessions(agent_id, opened_ms);

CREATE TABLE messages (
    message_id   INTEGER PRIMARY KEY,
    session_id   TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    agent_id     TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    role         TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
    text         TEXT NOT NULL,
    ts_ms        INTEGER NOT NULL,
    ref          TEXT,                 -- the client's own id for the message (provenance)
    speaker      TEXT,
    status       TEXT NOT NULL DEFAULT 'complete' CHECK (status IN ('complete', 'interrupted')),
    tool_calls   TEXT,                 -- JSON list, on assistant messages that called tools
    tool_call_id TEXT                  -- on role = 'tool': the call it answers
) STRICT;

CREATE INDEX messages_by_session ON messages(session_id, message_id);
CREATE INDEX messages_by_agent ON messages(agent_id, ts_ms);
