"""Transcript retention: the raw messages of a consolidated session go after
``memory.keep_transcripts_days``; what memory made of them stays.

Real SQLite throughout: in-process on ``xaid.store.db.Database`` for which sessions qualify, and
through a real daemon (real consolidation, real embeddings, the clock replayed with
``memory.maintain``'s ``ts``) for what the user sees afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import apsw
import pytest
import sqlite_vec
from xaiclient import Client

from testkit import xaictl
from testkit.inproc import InProcessDaemon
from xaid import config
from xaid.config import ConfigError, MemoryConfig
from xaid.memory import forget
from xaid.store import agents, sessions
from xaid.store import memory as memory_sql
from xaid.store.agents import Agent
from xaid.store.db import Database
from xaid.store.sessions import Message

DAY = 86_400_000
MIN = 60_000
T0 = 1_770_000_000_000  # Mon 2026-02-02, 02:40 UTC
NOW = T0 + 120 * DAY
KEEP = MemoryConfig(keep_transcripts_days=90, highlight_days=10_000, forget_days=10_000)

EN = ["My sister Anna lives in Kyoto.", "I'm so tired today, I'm exhausted."]
ZH = ["我妹妹在杭州开了一家咖啡店。", "最近项目搞崩了，很累。"]


# --- in-process: which sessions lose their messages ----------------------------------------------


def _session(
    conn: apsw.Connection,
    sid: str,
    start: int,
    lines: list[str],
    *,
    close: bool = True,
    job: str | None = "done",
) -> list[int]:
    """A session as the daemon leaves it: messages, a mood change per message, a fold, provenance,
    closed at its last message, and its consolidation job in ``job`` (None: no job)."""
    sessions.insert_session(conn, sid, "mia", start)
    ids = []
    for i, line in enumerate(lines):
        msg = sessions.insert_message(
            conn, Message(sid, "mia", "user", line, start + i * MIN, ref=f"{sid}-{i}")
        )
        assert msg.message_id is not None
        ids.append(msg.message_id)
        conn.execute(
            "INSERT INTO mood_history (agent_id, ts_ms, kind, valence, arousal, fatigue, confidence, "
            "half_life_ms, intensity, cues, message_id) VALUES ('mia', ?, 'observe', -0.4, 0.3, 0.6, 0.7, "
            "3600000, 0.7, '[]', ?)",
            (start + i * MIN, msg.message_id),
        )
        conn.execute(
            "INSERT INTO sources (kind, item_id, agent_id, message_id, ref) VALUES ('fact', 1, 'mia', ?, ?)",
            (msg.message_id, f"{sid}-{i}"),
        )
    conn.execute(
        "INSERT INTO compressions (session_id, upto_message_id, text) VALUES (?, ?, ?)",
        (sid, ids[0], f'Earlier: the user said "{lines[0]}".'),
    )
    if close:
        sessions.close_session(conn, sid, start + len(lines) * MIN)
    if job is not None:
        memory_sql.enqueue_job(conn, "mia", sid, start)
        if job != "pending":
            conn.execute("UPDATE jobs SET state = ? WHERE session_id = ?", (job, sid))
    return ids


def _count(conn: apsw.Connection, sql: str, *args: Any) -> int:
    return int(conn.execute(sql, args).get)


def _clean(conn: apsw.Connection) -> None:
    assert conn.execute("PRAGMA foreign_key_check").fetchall() == []
    assert conn.execute("PRAGMA integrity_check").get == "ok"


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("mia", "Mia", "", {}, 0, 0))
    yield db
    db.close()


def test_only_consolidated_sessions_past_the_limit_lose_their_messages(db: Database) -> None:
    def fill(conn: apsw.Connection) -> dict[str, list[int]]:
        return {
            "en": _session(conn, "s_en", T0, EN),
            "zh": _session(conn, "s_zh", T0 + DAY, ZH),
            "pending": _session(conn, "s_pending", T0, EN, job="pending"),  # what the job will read
            "failed": _session(conn, "s_failed", T0, ZH, job="failed"),  # retried at the next start
            "no_job": _session(
                conn, "s_no_job", T0, EN, job=None
            ),  # the start-up sweep will queue it
            "open": _session(conn, "s_open", T0, ZH, close=False, job=None),
            "recent": _session(conn, "s_recent", NOW - 89 * DAY, EN),
        }

    ids = db.call(fill)
    mood_before = db.call(_count, "SELECT count(*) FROM mood_history")
    sources_before = db.call(
        lambda c: c.execute("SELECT kind, item_id, ref FROM sources ORDER BY ref").fetchall()
    )

    result = db.call(forget.apply_curve, NOW, KEEP)

    assert result == {
        "episodes_deleted": 0,
        "episodes_pruned": 0,
        "highlights_deleted": 0,
        "messages_deleted": len(EN) + len(ZH),
        "utterances_deleted": 0,
    }
    conn = db.conn
    for name, mids in ids.items():
        gone = name in ("en", "zh")
        sid = f"s_{name}"
        assert _count(conn, "SELECT count(*) FROM messages WHERE session_id = ?", sid) == (
            0 if gone else len(mids)
        )
        assert _count(conn, "SELECT count(*) FROM compressions WHERE session_id = ?", sid) == (
            0 if gone else 1
        )
        assert sessions.transcript_pruned_ms(conn, sid) == (NOW if gone else None)
        assert (
            sessions.get_session(conn, sid) is not None
        )  # the row stays: session.list still shows it
        # every mood change stays; those of deleted messages lose only the link
        linked = _count(
            conn,
            f"SELECT count(*) FROM mood_history WHERE message_id IN ({','.join('?' * len(mids))})",
            *mids,
        )
        assert linked == (0 if gone else len(mids))
    assert _count(conn, "SELECT count(*) FROM mood_history") == mood_before
    assert _count(conn, "SELECT count(*) FROM mood_history WHERE message_id IS NULL") == len(
        EN
    ) + len(ZH)
    # provenance keeps every ref, pointing at nothing now for the deleted ones
    assert (
        conn.execute("SELECT kind, item_id, ref FROM sources ORDER BY ref").fetchall()
        == sources_before
    )
    dangling = _count(
        conn,
        "SELECT count(*) FROM sources s WHERE NOT EXISTS "
        "(SELECT 1 FROM messages m WHERE m.message_id = s.message_id)",
    )
    assert dangling == len(EN) + len(ZH)
    _clean(conn)

    again = db.call(forget.apply_curve, NOW + DAY, KEEP)
    assert again["messages_deleted"] == 0
    assert sessions.transcript_pruned_ms(conn, "s_en") == NOW  # when it happened, not the last run


@pytest.mark.parametrize(
    ("closed_days_ago", "pruned"), [(91, True), (90.5, True), (89.5, False), (1, False)]
)
def test_the_limit_counts_from_the_close(
    db: Database, closed_days_ago: float, pruned: bool
) -> None:
    closed = NOW - int(closed_days_ago * DAY)
    db.call(_session, "s_x", closed - len(EN) * MIN, EN)
    assert db.call(forget.apply_curve, NOW, KEEP)["messages_deleted"] == (len(EN) if pruned else 0)


def test_a_late_close_keeps_old_messages_until_the_limit_after_it(db: Database) -> None:
    """Messages replayed from long ago into a session closed now: the close time counts."""
    db.call(lambda c: _session(c, "s_late", T0, ZH, close=False))
    db.call(sessions.close_session, "s_late", NOW - DAY)
    assert db.call(forget.apply_curve, NOW, KEEP)["messages_deleted"] == 0
    assert db.call(forget.apply_curve, NOW + 90 * DAY, KEEP)["messages_deleted"] == len(ZH)


def test_a_backlog_goes_in_batches_each_its_own_transaction(db: Database) -> None:
    """The first maintenance after an upgrade may find years of transcripts: one transaction takes
    at most a batch of sessions, and transcripts_due tells the daemon to come back for the rest."""
    db.call(lambda c: [_session(c, f"s_{i}", T0 + i * MIN, EN if i % 2 else ZH) for i in range(5)])
    assert db.call(forget.transcripts_due, NOW, 90)
    assert db.call(forget.prune_transcripts, NOW, 90, 2) == 4  # two sessions of two messages
    assert db.call(forget.prune_transcripts, NOW, 90, 2) == 4
    assert db.call(forget.transcripts_due, NOW, 90)
    assert db.call(forget.prune_transcripts, NOW, 90, 2) == 2
    assert not db.call(forget.transcripts_due, NOW, 90)
    assert db.call(_count, "SELECT count(*) FROM messages") == 0
    assert not db.call(forget.transcripts_due, NOW, 0)  # 0 keeps everything


def test_zero_keeps_every_transcript(db: Database) -> None:
    db.call(_session, "s_en", T0, EN)
    db.call(_session, "s_zh", T0, ZH)
    forever = MemoryConfig(keep_transcripts_days=0)
    assert db.call(forget.apply_curve, NOW + 10_000 * DAY, forever)["messages_deleted"] == 0
    assert db.call(_count, "SELECT count(*) FROM messages") == len(EN) + len(ZH)
    assert db.call(sessions.transcript_pruned_ms, "s_en") is None


def test_the_key_defaults_to_90_days_and_refuses_negatives(tmp_path: Path) -> None:
    empty = tmp_path / "empty.toml"
    empty.write_text("", encoding="utf-8")
    assert config.load(empty, env={}).memory.keep_transcripts_days == 90
    path = tmp_path / "x.toml"
    path.write_text("[memory]\nkeep_transcripts_days = 0\n", encoding="utf-8")
    assert config.load(path, env={}).memory.keep_transcripts_days == 0
    path.write_text("[memory]\nkeep_transcripts_days = -1\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"memory\.keep_transcripts_days"):
        config.load(path, env={})
    with pytest.raises(ConfigError, match="XAID_MEMORY_KEEP_TRANSCRIPTS_DAYS"):
        config.load(empty, env={"XAID_MEMORY_KEEP_TRANSCRIPTS_DAYS": "x"})
    with pytest.raises(ConfigError, match=r"memory\.keep_transcripts_days"):
        config.load(empty, env={"XAID_MEMORY_KEEP_TRANSCRIPTS_DAYS": "-7"})


# --- through the daemon: what the user sees afterwards ---------------------------------------------


def talk(c: Client, lines: list[str], ts: int, prefix: str, close: bool = True) -> str:
    sid = c.session_open("mia", ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * MIN, ref=f"{prefix}-{i}").finish()
    if close:
        c.session_close(sid, ts=ts + len(lines) * MIN, wait=True)
    return sid


def _open_db(path: Path) -> apsw.Connection:
    conn = apsw.Connection(str(path))
    conn.enable_load_extension(True)
    conn.load_extension(sqlite_vec.loadable_path())
    return conn


def test_old_transcripts_go_and_their_memories_stay(tmp_path: Path) -> None:
    env = {
        "XAID_MEMORY_COMPRESS_EVERY": "6",  # the English session folds: its "Earlier" goes too
        "XAID_MEMORY_HIGHLIGHT_DAYS": "1000",
    }  # keep the curve out of this test
    en_lines = [*EN, "I work at Globex in Springfield.", "ok", "sure"]
    with InProcessDaemon(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("mia")
        en = talk(c, en_lines, T0, "en")
        zh = talk(c, ZH, T0 + DAY, "zh")
        recent = talk(c, ["I adopted a cat called Miso."], T0 + 80 * DAY, "recent")
        still_open = talk(c, ["The bus was late again."], T0, "open", close=False)
        olds = (en, zh)
        before = {sid: c.session_history(sid) for sid in (en, zh, recent, still_open)}
        assert not any(h["transcript_pruned"] for h in before.values())
        episodes = c.call("memory.list", agent_id="mia", kind="episode")["items"]
        facts = c.call("memory.list", agent_id="mia", kind="fact", status="all")["items"]
        mood = c.mood_history("mia", limit=100)["items"]
        pruned_ids = {m["id"] for sid in olds for m in before[sid]["messages"]}
        assert len(episodes) == 3 and any(m["message_id"] in pruned_ids for m in mood)
        with _open_db(proc.db_path) as peek:
            assert _count(peek, "SELECT count(*) FROM compressions WHERE session_id = ?", en) > 0
            sources_before = peek.execute(
                "SELECT kind, item_id, ref FROM sources ORDER BY 1, 2, 3"
            ).fetchall()

        result = c.call("memory.maintain", ts=T0 + 100 * DAY)

        assert result["messages_deleted"] == sum(len(before[sid]["messages"]) for sid in olds) > 0
        assert result["episodes_deleted"] == result["highlights_deleted"] == 0
        for sid in olds:
            after = c.session_history(sid)
            assert after["messages"] == [] and after["transcript_pruned"] is True
            assert after["session"]["messages"] == 0 and after["session"]["closed_ms"] is not None
        shown = xaictl("session", "history", olds[0], socket=proc.socket).stdout
        assert (
            "transcript deleted" in shown and "xaictl memory list" in shown
        )  # xaictl says why it is empty
        for sid in (recent, still_open):
            assert c.session_history(sid) == before[sid]
        listed = {s["session_id"]: s for s in c.session_list("mia")["sessions"]}
        assert set(listed) == {en, zh, recent, still_open} and listed[en]["messages"] == 0
        # memory is untouched: episodes with their highlights and refs, facts with theirs
        assert c.call("memory.list", agent_id="mia", kind="episode")["items"] == episodes
        assert c.call("memory.list", agent_id="mia", kind="fact", status="all")["items"] == facts
        by_session = {e["session_id"]: e for e in episodes}
        assert by_session[en]["highlights"] and set(by_session[en]["refs"]) >= {"en-0", "en-1"}
        assert any("咖啡店" in h for h in by_session[zh]["highlights"])
        anna = [f for f in facts if "Anna" in f["text"]]
        assert anna and c.call("memory.get", agent_id="mia", id=f"fact:{anna[0]['fact_id']}")[
            "refs"
        ] == ["en-0"]
        # and search still finds it all, in both languages
        for query, needle in (
            ("Where does Anna live?", "Kyoto"),
            ("Globex", "Globex"),
            ("咖啡店", "咖啡店"),
        ):
            hits = c.call("memory.search", agent_id="mia", query=query, ts=T0 + 100 * DAY)["items"]
            assert any(needle in h["text"] for h in hits), (query, hits)
        # the mood history keeps every change; the deleted messages' links are null
        mood_after = c.mood_history("mia", limit=100)["items"]
        assert [m["id"] for m in mood_after] == [m["id"] for m in mood]
        assert [m["message_id"] for m in mood_after] == [
            None if m["message_id"] in pruned_ids else m["message_id"] for m in mood
        ]
        assert c.call("memory.maintain", ts=T0 + 101 * DAY)["messages_deleted"] == 0
    with _open_db(proc.db_path) as conn:
        _clean(conn)
        marks = ",".join("?" * len(olds))
        assert (
            _count(conn, f"SELECT count(*) FROM messages WHERE session_id IN ({marks})", *olds) == 0
        )
        assert (
            _count(conn, f"SELECT count(*) FROM compressions WHERE session_id IN ({marks})", *olds)
            == 0
        )
        assert (
            _count(
                conn,
                "SELECT count(*) FROM messages WHERE text LIKE '%exhausted%' OR text LIKE '%很累%'",
            )
            == 0
        )
        assert (
            conn.execute("SELECT kind, item_id, ref FROM sources ORDER BY 1, 2, 3").fetchall()
            == sources_before
        )
        pruned_at = {
            sid: ms
            for sid, ms in conn.execute("SELECT session_id, transcript_pruned_ms FROM sessions")
        }
        assert pruned_at == {en: T0 + 100 * DAY, zh: T0 + 100 * DAY, recent: None, still_open: None}


def test_deleted_message_ids_are_never_given_out_again(tmp_path: Path) -> None:
    """Provenance may still name a deleted message (sources.message_id, a default ref "17"): once the
    newest messages are gone, SQLite alone would reuse their ids."""
    from xaid.memory import forget
    from xaid.store import agents, sessions
    from xaid.store.agents import Agent
    from xaid.store.db import Database
    from xaid.store.sessions import Message

    db = Database(tmp_path / "ids.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    db.call(sessions.insert_session, "s1", "a", 0)
    first = [
        db.call(
            sessions.insert_message, Message("s1", "a", "user", f"我说了第{i}句话", i)
        ).message_id
        for i in range(3)
    ]
    assert db.call(forget.delete_messages_matching, "a", "我说了") == 3
    again = db.call(
        sessions.insert_message, Message("s1", "a", "user", "a new message", 10)
    ).message_id
    assert again is not None and again > max(i or 0 for i in first)
