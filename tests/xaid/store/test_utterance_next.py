"""The turn after a turn is found by index (migration 012), on a new database and on one migrated
from version 10 with turns in it; real SQLite. Search asks for it on every query (the answer after a
matched question), and a scan of every turn grew with the years of conversation."""

from __future__ import annotations

from pathlib import Path

import apsw
import sqlite_vec

from xaid.store import db as store_db
from xaid.store import utterances as utterance_sql
from xaid.store.migrate import migrate, migrations

NEXT_OF = "SELECT utterance_id, prev_id FROM utterances WHERE prev_id IN (?, ?)"  # as next_of asks


def _plan(conn: apsw.Connection) -> str:
    return " ".join(str(r[3]) for r in conn.execute(f"EXPLAIN QUERY PLAN {NEXT_OF}", (1, 2)))


def _version_11(path: Path) -> apsw.Connection:
    conn = apsw.Connection(str(path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.create_scalar_function("cjk_bigrams", store_db.cjk_bigrams, 1, deterministic=True)  # type: ignore[arg-type]  # as in store.db
    conn.create_scalar_function("cjk_runs", store_db.cjk_runs, 1, deterministic=True)  # type: ignore[arg-type]
    conn.create_scalar_function("casefold", store_db.casefold, 1, deterministic=True)  # type: ignore[arg-type]
    for number, _name, sql in migrations()[:11]:
        with conn:
            conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {number}")
    return conn


def test_a_new_database_finds_the_next_turn_by_index(tmp_path: Path) -> None:
    conn = store_db.connect(tmp_path / "new.db")
    assert "utterances_by_prev" in _plan(conn)
    conn.close()


def test_migration_012_indexes_the_turns_already_stored(tmp_path: Path) -> None:
    conn = _version_11(tmp_path / "old.db")
    assert "utterances_by_prev" not in _plan(conn)  # version 11 scanned every turn
    with conn:
        conn.execute(
            "INSERT INTO agents (agent_id, name, persona_init, config, created_ms, updated_ms) "
            "VALUES ('mia', 'Mia', '', '{}', 0, 0)"
        )
        for uid, prev, text in (
            (1, None, "What should I read?"),
            (2, 1, "试试《活着》。"),
            (3, 2, "Thanks!"),
        ):
            conn.execute(
                "INSERT INTO utterances (utterance_id, agent_id, ref, role, ts_ms, prev_id, value) "
                "VALUES (?, 'mia', ?, 'user', ?, ?, 0.5)",
                (uid, f"r{uid}", uid * 1000, prev),
            )
            conn.execute(
                "INSERT INTO memory_items (agent_id, kind, source_id, text, ts_ms) "
                "VALUES ('mia', 'utterance', ?, ?, ?)",
                (uid, text, uid * 1000),
            )
    migrate(conn)
    assert "utterances_by_prev" in _plan(conn)
    assert utterance_sql.next_of(conn, [1, 2, 3]) == {2: 1, 3: 2}
    conn.close()
