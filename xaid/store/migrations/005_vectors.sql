-- Vectors are stored as int8 (a scale per vector) in the vec0 table created by xaid.memory.index;
-- searches run on an in-memory copy per agent (xaid.memory.vectors). Each change to an agent's
-- vectors advances its generation here in the same transaction, so a copy that missed a change
-- (another connection, a rollback) knows to reload.
CREATE TABLE vector_generations (
    agent_id   TEXT PRIMARY KEY,
    generation INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
