-- One generation per agent of what a search reads about its candidates (xaid.memory.rows): the
-- items (kind, words, time), a turn's row (whose words, the turn before, value, status, ref), a fact's
-- value and status, an episode's tension, a highlight's intensity and the messages each memory came
-- from. Search remembers those rows between searches; any change to them, by any code path and any
-- connection, bumps the generation in the same transaction, and the remembered rows of an agent whose
-- generation moved are dropped. The generation lives in meta ('search_rows:<agent>'), beside the
-- forget epochs. It is a fresh random number at each change, not a count: a count rolled back with
-- its transaction would be counted again by the next change, and rows remembered inside the
-- rolled-back transaction would then look current. Reads that change nothing (a memory referenced:
-- ref_count, last_ref_ms) do not move it.

CREATE TRIGGER search_rows_memory_items_ai AFTER INSERT ON memory_items BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_memory_items_ad AFTER DELETE ON memory_items BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_memory_items_au AFTER UPDATE ON memory_items BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_utterances_ai AFTER INSERT ON utterances BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_utterances_ad AFTER DELETE ON utterances BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_utterances_au AFTER UPDATE OF agent_id, ts_ms, prev_id, value, status, role, speaker, ref ON utterances BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_facts_ai AFTER INSERT ON facts BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_facts_ad AFTER DELETE ON facts BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_facts_au AFTER UPDATE OF agent_id, value, status ON facts BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_episodes_ai AFTER INSERT ON episodes BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_episodes_ad AFTER DELETE ON episodes BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_episodes_au AFTER UPDATE OF agent_id, tension ON episodes BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_highlights_ai AFTER INSERT ON highlights BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_highlights_ad AFTER DELETE ON highlights BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_highlights_au AFTER UPDATE OF agent_id, intensity ON highlights BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_sources_ai AFTER INSERT ON sources BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_sources_ad AFTER DELETE ON sources BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;

CREATE TRIGGER search_rows_sources_au AFTER UPDATE ON sources BEGIN
    INSERT INTO meta (key, value) VALUES ('search_rows:' || old.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
    INSERT INTO meta (key, value) VALUES ('search_rows:' || new.agent_id, CAST(random() AS TEXT))
        ON CONFLICT(key) DO UPDATE SET value = excluded.value;
END;
