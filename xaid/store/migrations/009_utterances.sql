-- Both sides of every conversation stay findable: one utterance per message of the user or the
-- companion, written at consolidation beside the episode, kept until the forgetting curve takes it by
-- value and age (xaid.memory.forget). Episodes, highlights and facts are layers on top of these, not a
-- replacement: a rule-picked subset of the user's lines lost what a search needed (docs/memory.md).
-- AUTOINCREMENT: an id is never handed out twice, so a stale "forget utterance:N" cannot hit a newer one.
CREATE TABLE utterances (
    utterance_id INTEGER PRIMARY KEY AUTOINCREMENT,
    agent_id     TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    session_id   TEXT,                 -- kept after the session's transcript is pruned
    episode_id   INTEGER REFERENCES episodes(episode_id) ON DELETE SET NULL,
    message_id   INTEGER,              -- the message it copies; the message may be pruned later
    ref          TEXT NOT NULL,        -- the client's id of that message: its provenance, kept here
                                       -- rather than in `sources` (one ref each, ~40 B a turn saved)
    role         TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    speaker      TEXT,                 -- its words are the memory_items row's text (one copy, not two)
    ts_ms        INTEGER NOT NULL,
    prev_id      INTEGER,              -- the turn before it in the session (the question it answers)
    value        REAL NOT NULL,        -- what the forgetting curve weighs: specifics, feeling, content
    status       TEXT NOT NULL DEFAULT 'current' CHECK (status IN ('current', 'superseded')),
    embedded     INTEGER NOT NULL DEFAULT 1,  -- 0: found by keywords only (small talk; an old turn)
    ref_count    INTEGER NOT NULL DEFAULT 0,
    last_ref_ms  INTEGER
) STRICT;
CREATE INDEX utterances_by_agent ON utterances(agent_id, ts_ms);

-- memory_items names the kinds it holds in a CHECK; SQLite cannot alter one, so it is rebuilt with
-- 'utterance' added, keeping every rowid (the FTS indexes and vectors key on item_id).
-- DROP TABLE fires no triggers, so the keyword indexes are untouched by the copy.
CREATE TABLE memory_items_new (
    item_id   INTEGER PRIMARY KEY,
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

-- English words are matched by their stems (Porter): "recommended" finds "recommend", "symbolizes"
-- finds "symbolize". The index is rebuilt from memory_items, its external content.
DROP TABLE memory_fts_terms;
DROP TABLE memory_fts;
CREATE VIRTUAL TABLE memory_fts USING fts5(
    text, content='memory_items', content_rowid='item_id', tokenize='porter unicode61 remove_diacritics 2'
);
INSERT INTO memory_fts(memory_fts) VALUES ('rebuild');
CREATE VIRTUAL TABLE memory_fts_terms USING fts5vocab(memory_fts, row);

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

-- Who takes part in an agent's conversations, by the names clients gave (`speaker`): in a query such a
-- name stands for "I" or "you" ("what did Caroline say about…"), a cue for whose words, not a topic.
CREATE TABLE participants (
    agent_id TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    speaker  TEXT NOT NULL,
    role     TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
    PRIMARY KEY (agent_id, speaker, role)
) STRICT, WITHOUT ROWID;
