-- Turns sent live (session.send), apart from history a client ingested: the scheduler may speak
-- at the first live turn of a session even when the session began with ingested history.
-- Sessions from before count every user message they hold, so none of them looks new.
ALTER TABLE sessions ADD COLUMN live_turns INTEGER NOT NULL DEFAULT 0;
UPDATE sessions SET live_turns = (SELECT count(*) FROM messages m WHERE m.session_id = sessions.session_id
                                  AND m.role = 'user');
