-- What a "forget that" probably meant, hidden from recall while the companion asks back which matter
-- it was (xaid.memory.hide): a reversible fence, not an erasure. A row names either a turn the
-- question back was about (message_id: consolidation hides what it later makes of it) or a memory
-- that holds such a turn (item_id). `request_id` is the message whose question back hid them: its
-- "no" lifts exactly those. The rows go with what they name (a forget deletes it: the cascade) and
-- with the agent.
CREATE TABLE hidden (
    hidden_id  INTEGER PRIMARY KEY,
    agent_id   TEXT NOT NULL REFERENCES agents(agent_id) ON DELETE CASCADE,
    request_id INTEGER NOT NULL,
    message_id INTEGER REFERENCES messages(message_id) ON DELETE CASCADE,
    item_id    INTEGER REFERENCES memory_items(item_id) ON DELETE CASCADE,
    hidden_ms  INTEGER NOT NULL,
    CHECK ((message_id IS NULL) != (item_id IS NULL)),
    UNIQUE (agent_id, message_id),
    UNIQUE (agent_id, item_id)
) STRICT;
CREATE INDEX hidden_by_request ON hidden(agent_id, request_id);
