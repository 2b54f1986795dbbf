-- Transcript retention (memory.keep_transcripts_days): the daily maintenance deletes the raw
-- messages of a session consolidated long enough ago and notes when here, so session.history can
-- say the transcript was removed rather than show an empty session. The row itself stays.
ALTER TABLE sessions ADD COLUMN transcript_pruned_ms INTEGER;
