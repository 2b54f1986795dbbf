"""Ids of facts, episodes, highlights and memory items never repeat after a forget (migration 010:
AUTOINCREMENT), so a stale "forget fact:1" cannot delete a newer memory. Real daemon and SQLite."""

from __future__ import annotations

import json
import time
from pathlib import Path

import apsw
import pytest
import sqlite_vec
from xaiclient import Client, XaiError

from xaid.store import db as store_db
from xaid.store.migrate import migrations

NOW = int(time.time() * 1000)


def _episode(n: int, summary: str) -> dict[str, str]:
    line = {
        "session_id": f"s_{n}",
        "started_ms": NOW - 60_000,
        "ended_ms": NOW,
        "summary": summary,
        "highlights": [{"text": summary}],
    }
    return {f"a/2026-12/s_{n}.jsonl": json.dumps(line, ensure_ascii=False) + "\n"}


def test_a_forgotten_id_is_never_given_again(client: Client) -> None:
    client.agent_create("mia")
    client.memory_import("mia", facts=[{"text": "The user keeps bees in Umbria."}])
    first = client.memory_list("mia", kind="fact")["items"][0]["fact_id"]
    client.memory_import("mia", files=_episode(1, "他们聊了杭州的茶园。"))
    episode = client.memory_list("mia", kind="episode")["items"][0]["episode_id"]
    client.memory_forget("mia", id=f"fact:{first}")
    client.memory_forget("mia", id=f"episode:{episode}")
    client.memory_import("mia", facts=[{"text": "用户的女儿叫小雨。"}])
    client.memory_import("mia", files=_episode(2, "They talked about the choir in Lyon."))
    fact = client.memory_list("mia", kind="fact")["items"][0]
    assert fact["fact_id"] > first
    assert client.memory_list("mia", kind="episode")["items"][0]["episode_id"] > episode
    with pytest.raises(XaiError) as info:  # the stale forget finds nothing, the new fact stays
        client.memory_forget("mia", id=f"fact:{first}")
    assert info.value.code == "not_found"
    assert client.memory_get("mia", f"fact:{fact['fact_id']}")["text"] == "用户的女儿叫小雨。"


def test_migration_010_keeps_every_id_and_the_keyword_index(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = apsw.Connection(str(path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    conn.create_scalar_function("cjk_bigrams", store_db.cjk_bigrams, 1, deterministic=True)  # type: ignore[arg-type]  # as in store.db: apsw types a function of any SQL values
    conn.create_scalar_function("cjk_runs", store_db.cjk_runs, 1, deterministic=True)  # type: ignore[arg-type]
    conn.execute("PRAGMA foreign_keys = ON")
    for number, _name, sql in migrations()[:9]:
        with conn:
            conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {number}")
    with conn:
        conn.execute(
            "INSERT INTO agents (agent_id, name, persona_init, config, created_ms, updated_ms) "
            "VALUES ('mia', 'Mia', '', '{}', 0, 0)"
        )
        conn.execute(
            "INSERT INTO episodes (episode_id, agent_id, session_id, started_ms, ended_ms, summary, "
            "decided_by) VALUES (7, 'mia', 'x_1', 0, 1, 'They talked of bees in Umbria.', 'import')"
        )
        conn.execute(
            "INSERT INTO highlights (highlight_id, episode_id, agent_id, text, ts_ms) "
            "VALUES (5, 7, 'mia', '我在云南养蜜蜂。', 1)"
        )
        conn.execute(
            "INSERT INTO memory_items (item_id, agent_id, kind, source_id, text, ts_ms) VALUES "
            "(9, 'mia', 'episode', 7, 'They talked of bees in Umbria.', 1), "
            "(11, 'mia', 'highlight', 5, '我在云南养蜜蜂。', 1)"
        )
    conn.close()
    db = store_db.connect(path)
    assert db.execute("SELECT highlight_id, episode_id FROM highlights").fetchall() == [(5, 7)]
    assert db.execute(
        "SELECT rowid FROM memory_fts WHERE memory_fts MATCH 'umbria'"
    ).fetchall() == [(9,)]
    assert db.execute(
        "SELECT rowid FROM memory_fts_bigram WHERE memory_fts_bigram MATCH '蜜蜂'"
    ).fetchall() == [(11,)]
    with db:
        db.execute("DELETE FROM memory_items WHERE item_id = 11")
        db.execute("DELETE FROM highlights WHERE highlight_id = 5")
        db.execute(
            "INSERT INTO highlights (episode_id, agent_id, text, ts_ms) VALUES (7, 'mia', 'x', 1)"
        )
        db.execute(
            "INSERT INTO memory_items (agent_id, kind, source_id, text, ts_ms) "
            "VALUES ('mia', 'highlight', 6, 'x', 1)"
        )
    assert db.execute("SELECT max(highlight_id) FROM highlights").get == 6
    assert db.execute("SELECT max(item_id) FROM memory_items").get == 12
    assert (
        db.execute(
            "SELECT rowid FROM memory_fts_bigram WHERE memory_fts_bigram MATCH '蜜蜂'"
        ).fetchall()
        == []
    )
    with db:  # the cascade from episodes to highlights holds again after the migration
        db.execute("DELETE FROM episodes WHERE episode_id = 7")
    assert db.execute("SELECT count(*) FROM highlights").get == 0
