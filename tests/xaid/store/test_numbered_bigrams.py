"""A date in digits is searchable in the bigram index (migration 015) on a database migrated from
version 14 with memories in it, as on a new one; real SQLite. Before, "3月22号" was in no keyword
index (the pairs stop at a digit, the Latin index reads "3月22号我弟结婚" as one word)."""

from __future__ import annotations

from pathlib import Path

import apsw
import sqlite_vec

from xaid.memory import index
from xaid.store import db as store_db
from xaid.store.migrate import migrate, migrations
from xaid.text import cjk

TEXTS = ("3月22号我弟结婚，我当伴郎", "march 22nd: Tom's wedding", "今天好累")


def _version_14(path: Path) -> apsw.Connection:
    conn = apsw.Connection(str(path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    for name, fn in (
        ("cjk_bigrams", store_db.cjk_bigrams),
        ("cjk_runs", store_db.cjk_runs),
        ("casefold", store_db.casefold),
    ):
        conn.create_scalar_function(name, fn, 1, deterministic=True)  # type: ignore[arg-type]  # as in store.db
    for number, _name, sql in migrations()[:14]:
        with conn:
            conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {number}")
    return conn


def _pairs_only(text: str | None) -> str:
    """Version 14's cjk_bigrams: the Chinese pairs, without the numbers."""
    return " ".join(
        p for p in store_db.cjk_bigrams(text).split() if p not in cjk.numbered(text or "")
    )


def _terms(conn: apsw.Connection) -> set[str]:
    return {t for (t,) in conn.execute("SELECT term FROM memory_fts_bigram_terms")}


def test_migration_015_indexes_the_numbers_of_memories_already_stored(tmp_path: Path) -> None:
    conn = _version_14(tmp_path / "old.db")
    with conn:
        conn.execute(
            "INSERT INTO agents (agent_id, name, persona_init, config, created_ms, updated_ms) "
            "VALUES ('mia', 'Mia', '', '{}', 0, 0)"
        )
    # the rows as version 14's trigger stored them: pairs only
    conn.create_scalar_function("cjk_bigrams", _pairs_only, 1)  # type: ignore[arg-type]
    with conn:
        for n, text in enumerate(TEXTS, 1):
            conn.execute(
                "INSERT INTO memory_items (agent_id, kind, source_id, text, ts_ms) "
                "VALUES ('mia', 'fact', ?, ?, ?)",
                (n, text, n * 1000),
            )
    assert "22号" not in _terms(conn)
    conn.create_scalar_function("cjk_bigrams", store_db.cjk_bigrams, 1, deterministic=True)  # type: ignore[arg-type]
    migrate(conn)
    assert {"3月", "22号"} <= _terms(conn)
    found = [i for i, _ in index.keyword(conn, "mia", "3月22号眼看就到了", 5)]
    assert found[:1] == [1]
    # every row is indexed once: the English and the plain Chinese memories are still found
    assert [i for i, _ in index.keyword(conn, "mia", "今天好累", 5)][:1] == [3]
    assert conn.execute("SELECT count(*) FROM memory_fts_bigram").get == 3
    conn.close()


def test_a_new_database_indexes_the_numbers_as_they_are_stored(tmp_path: Path) -> None:
    conn = store_db.connect(tmp_path / "new.db")
    with conn:
        conn.execute(
            "INSERT INTO agents (agent_id, name, persona_init, config, created_ms, updated_ms) "
            "VALUES ('mia', 'Mia', '', '{}', 0, 0)"
        )
        conn.execute(
            "INSERT INTO memory_items (agent_id, kind, source_id, text, ts_ms) "
            "VALUES ('mia', 'fact', 1, ?, 0)",
            (TEXTS[0],),
        )
    assert {"3月", "22号"} <= _terms(conn)
    conn.close()
