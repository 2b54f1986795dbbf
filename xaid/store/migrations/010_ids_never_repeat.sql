-- Ids never repeat: a stale "forget fact:1" once deleted a new, unrelated fact that SQLite had given the
-- id of the forgotten one (a plain INTEGER PRIMARY KEY reuses the highest ids once their rows are gone).
-- AUTOINCREMENT cannot be added to a table, so each is rebuilt with it, keeping every id: the keyword
-- indexes, vectors, sources and refs key on them. Foreign keys are off while migrations run
-- (xaid.store.migrate), so dropping a table deletes nothing that references it; the check after the
-- migration proves every reference still resolves.

CREATE TABLE episodes_new (
    episode_id      INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id        TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    session_id      TEXT UNIQUE,
    started_ms      INTEGER NOT NULL,
    ended_ms        INTEGER NOT NULL,
    summary         TEXT NOT NULL,
    closing_valence REAL,
    closing_arousal REAL,
    closing_fatigue REAL,
    tension         REAL NOT NULL DEFAULT 0,   -- unresolved matter left open, 0..1 (the scheduler reads it)
    decided_by      TEXT NOT NULL CHECK (decided_by IN ('rules', 'llm', 'import')),
    ref_count       INTEGER NOT NULL DEFAULT 0,
    last_ref_ms     INTEGER,
    pruned_ms       INTEGER                    -- when the forgetting curve took its highlights
) STRICT;
INSERT INTO episodes_new SELECT * FROM episodes;
DROP TABLE episodes;
ALTER TABLE episodes_new RENAME TO episodes;
CREATE INDEX episodes_by_agent ON episodes(agent_id, ended_ms);

CREATE TABLE facts_new (
    fact_id        INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id       TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    subject        TEXT NOT NULL,
    kind           TEXT NOT NULL,
    text           TEXT NOT NULL,
    status         TEXT NOT NULL CHECK (status IN ('current', 'superseded', 'deleted')),
    superseded_by  INTEGER REFERENCES facts(fact_id) ON DELETE SET NULL,
    episode_id     INTEGER REFERENCES episodes(episode_id) ON DELETE SET NULL,
    value          REAL NOT NULL,
    sig_recency    REAL NOT NULL,      -- raw signals of the value function, always kept
    sig_specificity REAL NOT NULL,
    sig_intensity  REAL NOT NULL,
    sig_user_refs  INTEGER NOT NULL,
    valid_from     TEXT,               -- resolved dates the fact speaks of (ISO), if any
    valid_to       TEXT,
    decided_by     TEXT NOT NULL,      -- fast | llm | rules | import
    created_ms     INTEGER NOT NULL,
    updated_ms     INTEGER NOT NULL,
    ref_count      INTEGER NOT NULL DEFAULT 0,
    last_ref_ms    INTEGER
) STRICT;
INSERT INTO facts_new SELECT * FROM facts;
DROP TABLE facts;
ALTER TABLE facts_new RENAME TO facts;
CREATE INDEX facts_by_agent ON facts(agent_id, status, subject);

CREATE TABLE highlights_new (
    highlight_id INTEGER PRIMARY KEY AUTOINCREMENT,
    episode_id   INTEGER NOT NULL REFERENCES episodes(episode_id) ON DELETE CASCADE,
    agent_id     TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    text         TEXT NOT NULL,
    ts_ms        INTEGER NOT NULL,
    intensity    REAL NOT NULL DEFAULT 0,
    specificity  REAL NOT NULL DEFAULT 0
) STRICT;
INSERT INTO highlights_new SELECT * FROM highlights;
DROP TABLE highlights;
ALTER TABLE highlights_new RENAME TO highlights;
CREATE INDEX highlights_by_episode ON highlights(episode_id);

CREATE TABLE recall_items_new (
    item_id        INTEGER PRIMARY KEY AUTOINCREMENT,
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
INSERT INTO recall_items_new SELECT * FROM recall_items;
DROP TABLE recall_items;
ALTER TABLE recall_items_new RENAME TO recall_items;

-- A consolidation in flight finishes its job by id: after a forget {all} had deleted the agent's jobs, a
-- new session's job took the same id and was marked done by the old one, never consolidated.
CREATE TABLE jobs_new (
    job_id     INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id   TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('consolidate')),
    session_id TEXT NOT NULL,
    state      TEXT NOT NULL CHECK (state IN ('pending', 'done', 'failed')),
    attempts   INTEGER NOT NULL DEFAULT 0,
    error      TEXT,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    UNIQUE (kind, session_id)
) STRICT;
INSERT INTO jobs_new SELECT * FROM jobs;
DROP TABLE jobs;
ALTER TABLE jobs_new RENAME TO jobs;
CREATE INDEX jobs_pending ON jobs(state, job_id);

-- memory_items is the keyword indexes' external content: DROP TABLE fires no triggers, so the indexes are
-- untouched by the copy; the triggers that keep them in step go with the old table and are made again.
CREATE TABLE memory_items_new (
    item_id   INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id  TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    kind      TEXT NOT NULL CHECK (kind IN ('episode', 'highlight', 'fact', 'utterance')),
    source_id INTEGER NOT NULL,
    text      TEXT NOT NULL,
    ts_ms     INTEGER NOT NULL,
    UNIQUE (kind, source_id)
) STRICT;
INSERT INTO memory_items_new SELECT item_id, agent_id, kind, source_id, text, ts_ms FROM memory_items;
DROP TABLE memory_items;
ALTER TABLE memory_items_new RENAME TO memory_items;
CREATE INDEX memory_items_by_agent ON memory_items(agent_id, kind, ts_ms);

CREATE TRIGGER memory_items_ai AFTER INSERT ON memory_items BEGIN
    INSERT INTO memory_fts(rowid, text) VALUES (new.item_id, new.text);
    INSERT INTO memory_fts_cjk(rowid, text) SELECT new.item_id, cjk_runs(new.text) WHERE cjk_runs(new.text) != '';
    INSERT INTO memory_fts_bigram(rowid, text) VALUES (new.item_id, cjk_bigrams(new.text));
END;
CREATE TRIGGER memory_items_ad AFTER DELETE ON memory_items BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, text) VALUES ('delete', old.item_id, old.text);
    DELETE FROM memory_fts_cjk WHERE rowid = old.item_id;
    DELETE FROM memory_fts_bigram WHERE rowid = old.item_id;
END;
CREATE TRIGGER memory_items_au AFTER UPDATE OF text ON memory_items BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, text) VALUES ('delete', old.item_id, old.text);
    DELETE FROM memory_fts_cjk WHERE rowid = old.item_id;
    DELETE FROM memory_fts_bigram WHERE rowid = old.item_id;
    INSERT INTO memory_fts(rowid, text) VALUES (new.item_id, new.text);
    INSERT INTO memory_fts_cjk(rowid, text) SELECT new.item_id, cjk_runs(new.text) WHERE cjk_runs(new.text) != '';
    INSERT INTO memory_fts_bigram(rowid, text) VALUES (new.item_id, cjk_bigrams(new.text));
END;
