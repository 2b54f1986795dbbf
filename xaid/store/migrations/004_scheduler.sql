-- Proactive recall: matters worth asking about later, the user's controls, and what came of each push.

CREATE TABLE recall_items (
    item_id        INTEGER PRIMARY KEY,
    agent_id       TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    source_episode INTEGER REFERENCES episodes(episode_id) ON DELETE SET NULL,
    topic          TEXT NOT NULL,       -- what to ask about, in words the model can use
    keywords       TEXT NOT NULL,       -- JSON list: how to tell that the matter came up again
    scene          TEXT NOT NULL,       -- plan | worry | emotion | manual: what armed it
    not_before     INTEGER NOT NULL,
    not_after      INTEGER NOT NULL,
    priority       REAL NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('pending', 'pushed', 'expired', 'resolved', 'cancelled')),
    created_ms     INTEGER NOT NULL,
    pushed_ms      INTEGER,
    pushed_session TEXT,
    engaged        INTEGER,             -- 1 when the user took the topic up in the pushed session
    feedback       TEXT CHECK (feedback IN ('welcome', 'annoying')),
    closed_reason  TEXT
) STRICT;
CREATE INDEX recall_items_by_agent ON recall_items(agent_id, state, not_before);

CREATE TABLE recall_settings (
    agent_id   TEXT PRIMARY KEY REFERENCES agents(agent_id) ON DELETE CASCADE,
    enabled    INTEGER NOT NULL DEFAULT 1,
    quiet      INTEGER NOT NULL DEFAULT 0,    -- quiet mode: keep arming, never suggest
    min_gap_ms INTEGER NOT NULL,
    allow      TEXT NOT NULL DEFAULT '[]'     -- JSON list of scenes/topic words; empty allows all
) STRICT;
