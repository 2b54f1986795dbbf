-- Hierarchical memory. Every row carries its agent; deleting an agent deletes all of it.
-- The vector table (vec0, sqlite-vec) is created at start-up by xaid.memory.index, because its
-- dimension belongs to the configured embedding model, not to the schema.

-- L1: one episode per closed session (UNIQUE session_id: a resumed job can never write two).
CREATE TABLE episodes (
    episode_id      INTEGER PRIMARY KEY,
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
CREATE INDEX episodes_by_agent ON episodes(agent_id, ended_ms);

-- Verbatim utterances worth keeping word for word: emotional peaks, specific facts.
CREATE TABLE highlights (
    highlight_id INTEGER PRIMARY KEY,
    episode_id   INTEGER NOT NULL REFERENCES episodes(episode_id) ON DELETE CASCADE,
    agent_id     TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    text         TEXT NOT NULL,
    ts_ms        INTEGER NOT NULL,
    intensity    REAL NOT NULL DEFAULT 0,
    specificity  REAL NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX highlights_by_episode ON highlights(episode_id);

-- L2: facts. A change never overwrites: the old row becomes 'superseded' and points at its successor.
CREATE TABLE facts (
    fact_id        INTEGER PRIMARY KEY,
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
CREATE INDEX facts_by_agent ON facts(agent_id, status, subject);

CREATE TABLE fact_history (
    history_id INTEGER PRIMARY KEY,
    fact_id    INTEGER NOT NULL REFERENCES facts(fact_id) ON DELETE CASCADE,
    agent_id   TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    ts_ms      INTEGER NOT NULL,
    action     TEXT NOT NULL CHECK (action IN ('ADD', 'UPDATE', 'DELETE', 'NOOP', 'SUPERSEDED')),
    text       TEXT NOT NULL,
    decided_by TEXT NOT NULL,
    other_fact INTEGER                 -- the fact this action replaced or was replaced by
) STRICT;
CREATE INDEX fact_history_by_fact ON fact_history(fact_id);

-- Provenance: which messages every episode, highlight and fact came from; `ref` is copied so the
-- answer to "where did you get that?" survives even if the message row is gone.
CREATE TABLE sources (
    kind       TEXT NOT NULL CHECK (kind IN ('episode', 'highlight', 'fact')),
    item_id    INTEGER NOT NULL,
    agent_id   TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    message_id INTEGER,
    ref        TEXT NOT NULL,
    PRIMARY KEY (kind, item_id, ref)
) STRICT, WITHOUT ROWID;
CREATE INDEX sources_by_message ON sources(message_id);

-- One row per searchable memory: the keyword indexes and the vector table key on item_id.
CREATE TABLE memory_items (
    item_id   INTEGER PRIMARY KEY,
    agent_id  TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    kind      TEXT NOT NULL CHECK (kind IN ('episode', 'highlight', 'fact')),
    source_id INTEGER NOT NULL,        -- episode_id, highlight_id or fact_id
    text      TEXT NOT NULL,
    ts_ms     INTEGER NOT NULL,
    UNIQUE (kind, source_id)
) STRICT;
CREATE INDEX memory_items_by_agent ON memory_items(agent_id, kind, ts_ms);

-- Keyword search: unicode61 for words in Latin scripts, trigram for Chinese (no segmenter needed).
-- External-content tables hold only the index; triggers keep them exact, deletes included.
CREATE VIRTUAL TABLE memory_fts USING fts5(
    text, content='memory_items', content_rowid='item_id', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE memory_fts_cjk USING fts5(
    text, content='memory_items', content_rowid='item_id', tokenize='trigram'
);
-- Most Chinese words are two characters, below the trigram index's reach: a third index holds the
-- text's CJK character pairs as words (cjk_bigrams() is registered on every connection by xaid).
CREATE VIRTUAL TABLE memory_fts_bigram USING fts5(
    text, content='', contentless_delete=1, tokenize='unicode61'
);
CREATE TRIGGER memory_items_ai AFTER INSERT ON memory_items BEGIN
    INSERT INTO memory_fts(rowid, text) VALUES (new.item_id, new.text);
    INSERT INTO memory_fts_cjk(rowid, text) VALUES (new.item_id, new.text);
    INSERT INTO memory_fts_bigram(rowid, text) VALUES (new.item_id, cjk_bigrams(new.text));
END;
CREATE TRIGGER memory_items_ad AFTER DELETE ON memory_items BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, text) VALUES ('delete', old.item_id, old.text);
    INSERT INTO memory_fts_cjk(memory_fts_cjk, rowid, text) VALUES ('delete', old.item_id, old.text);
    DELETE FROM memory_fts_bigram WHERE rowid = old.item_id;
END;
CREATE TRIGGER memory_items_au AFTER UPDATE OF text ON memory_items BEGIN
    INSERT INTO memory_fts(memory_fts, rowid, text) VALUES ('delete', old.item_id, old.text);
    INSERT INTO memory_fts_cjk(memory_fts_cjk, rowid, text) VALUES ('delete', old.item_id, old.text);
    DELETE FROM memory_fts_bigram WHERE rowid = old.item_id;
    INSERT INTO memory_fts(rowid, text) VALUES (new.item_id, new.text);
    INSERT INTO memory_fts_cjk(rowid, text) VALUES (new.item_id, new.text);
    INSERT INTO memory_fts_bigram(rowid, text) VALUES (new.item_id, cjk_bigrams(new.text));
END;

-- L3: the persona, rewritten (never deleted); earlier versions kept.
CREATE TABLE persona (
    persona_id   INTEGER PRIMARY KEY,
    agent_id     TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    text         TEXT NOT NULL,
    version      INTEGER NOT NULL,
    episodes_seen INTEGER NOT NULL,    -- episodes the agent had when this version was written
    decided_by   TEXT NOT NULL,
    created_ms   INTEGER NOT NULL,
    UNIQUE (agent_id, version)
) STRICT;

-- Layer A: folded stretches of a long session ("Earlier: ..."), stable once written.
CREATE TABLE compressions (
    session_id      TEXT NOT NULL REFERENCES sessions(session_id) ON DELETE CASCADE,
    upto_message_id INTEGER NOT NULL,
    text            TEXT NOT NULL,
    PRIMARY KEY (session_id, upto_message_id)
) STRICT, WITHOUT ROWID;

-- Persisted background work: consolidation survives a crash and runs exactly once per session.
CREATE TABLE jobs (
    job_id     INTEGER PRIMARY KEY,
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
CREATE INDEX jobs_pending ON jobs(state, job_id);

-- Small key/value facts about the store itself (e.g. which embedding model made the vectors).
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT, WITHOUT ROWID;
