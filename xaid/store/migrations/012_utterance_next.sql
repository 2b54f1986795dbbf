-- The turn after a turn, by index: search brings the answer after a matched question
-- (xaid.store.utterances.next_of: WHERE prev_id IN (...)), and deleting a turn unlinks the one after
-- it (WHERE prev_id = ?). Without an index both read every turn of every agent: at two years of daily
-- conversation (8,650 turns) that scan was a tenth of a search's time, and it grows with the years.
CREATE INDEX utterances_by_prev ON utterances(prev_id);
