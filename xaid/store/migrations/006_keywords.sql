-- The trigram index held every text, Latin words included, although only Chinese is searched
-- through it (Latin words go through unicode61): it now holds only each text's Chinese runs,
-- contentless like the bigram index (cjk_runs() is registered on every connection by xaid).
DROP TRIGGER memory_items_ai;
DROP TRIGGER memory_items_ad;
DROP TRIGGER memory_items_au;
DROP TABLE memory_fts_cjk;
CREATE VIRTUAL TABLE memory_fts_cjk USING fts5(
    text, content='', contentless_delete=1, tokenize='trigram'
);
INSERT INTO memory_fts_cjk(rowid, text) SELECT item_id, cjk_runs(text) FROM memory_items WHERE cjk_runs(text) != '';

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

-- How many memories hold each term: a search leaves out words too common to rank by
-- (xaid.memory.index.COMMON_DOCS), which would otherwise have every one of them scored.
CREATE VIRTUAL TABLE memory_fts_terms USING fts5vocab(memory_fts, row);
CREATE VIRTUAL TABLE memory_fts_cjk_terms USING fts5vocab(memory_fts_cjk, row);
CREATE VIRTUAL TABLE memory_fts_bigram_terms USING fts5vocab(memory_fts_bigram, row);
