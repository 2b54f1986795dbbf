"""A canary in every column of words, then forget: it is found nowhere, the db and -wal bytes
included (issue 22, "the class behind them").

The schema is walked (sqlite_master): every TEXT column of every table is either one that forget by
query searches (``forget.WORD_COLUMNS``) or named below as an identifier, a label or a setting,
with the reason; a new column in neither fails here, so it cannot be left out of forget unnoticed.
The daemon writes what it writes through its own methods (turns, a tool call, a speaker, the
scheduler, an import, a consolidation); what a short test cannot make it write (a profile, an
"Earlier" fold, a line of a fact's history, a job's error, a mood reading's cues) is written into
the same rows by SQL beside it. Real daemon, real SQLite; the scripted provider makes the tool call.
"""

from __future__ import annotations

import json
from pathlib import Path

import apsw
import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon
from xaid.memory.forget import WORD_COLUMNS

# TEXT columns that hold nobody's words, and why forget by query leaves them alone.
NOT_WORDS: dict[tuple[str, str], str] = {
    **{
        (table, "agent_id"): "the agent's id"
        for table in (
            "agents episodes fact_history facts hidden highlights jobs memory_items messages mood_history "
            "mood_state participants persona recall_items recall_settings sessions sources utterances "
            "vector_generations"
        ).split()
    },
    **{
        (table, "session_id"): "a session's id"
        for table in ("compressions", "episodes", "jobs", "messages", "sessions", "utterances")
    },
    ("agents", "name"): "the companion as the app set it up; agent.delete removes it",
    ("agents", "persona_init"): "the companion as the app set it up; agent.delete removes it",
    ("agents", "config"): "the companion as the app set it up; agent.delete removes it",
    ("episodes", "decided_by"): "who wrote it: rules, llm, import",
    ("fact_history", "action"): "ADD, UPDATE, DELETE, NOOP, SUPERSEDED",
    ("fact_history", "decided_by"): "who decided: fast, llm, rules, import",
    ("facts", "kind"): "the rule's category (person, work, health, …)",
    ("facts", "status"): "current, superseded, deleted",
    ("facts", "valid_from"): "an ISO date",
    ("facts", "valid_to"): "an ISO date",
    ("facts", "decided_by"): "who decided: fast, llm, rules, import",
    ("jobs", "kind"): "consolidate",
    ("jobs", "state"): "pending, done, failed",
    ("memory_items", "kind"): "episode, highlight, fact, utterance",
    ("messages", "role"): "system, user, assistant, tool",
    ("messages", "ref"): "the client's id of the message",
    ("messages", "status"): "complete, interrupted",
    ("messages", "tool_call_id"): "the model's id of a tool call",
    ("meta", "key"): "the store's own keys (fences, high-water marks, the embedding model)",
    ("meta", "value"): "counters and the embedding model's name",
    ("mood_history", "kind"): "observe, reset",
    ("participants", "role"): "user, assistant",
    ("persona", "decided_by"): "who wrote it: rules, llm",
    ("recall_items", "scene"): "plan, worry, emotion, manual",
    ("recall_items", "state"): "pending, pushed, expired, resolved, cancelled",
    ("recall_items", "pushed_session"): "a session's id",
    ("recall_items", "feedback"): "welcome, annoying",
    ("recall_items", "closed_reason"): "the scheduler's own reasons (past not_after, …)",
    (
        "recall_settings",
        "allow",
    ): "a setting the user made; forget {all} and agent.delete remove it",
    ("sources", "kind"): "episode, highlight, fact",
    ("sources", "ref"): "the client's id of a message",
    ("utterances", "ref"): "the client's id of a message",
    ("utterances", "role"): "user, assistant",
    ("utterances", "status"): "current, superseded",
    ("sqlite_sequence", "name"): "SQLite's: a table's name",
}
WEATHER = {"name": "weather", "description": "Weather in a city", "parameters": {"type": "object"}}


def text_columns(conn: apsw.Connection) -> dict[str, list[str]]:
    """Every TEXT column of every table that is not a virtual table or one's shadow (their content
    is binary index pages, which the byte check below covers)."""
    tables = list(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'"))
    virtual = [n for n, sql in tables if (sql or "").upper().startswith("CREATE VIRTUAL")]
    out: dict[str, list[str]] = {}
    for name, _sql in tables:
        if name in virtual or any(name.startswith(v + "_") for v in virtual):
            continue
        cols = [
            r[1]
            for r in conn.execute(f"PRAGMA table_info('{name}')")
            if "TEXT" in r[2].upper() or (name == "sqlite_sequence" and r[1] == "name")
        ]
        if cols:
            out[name] = cols
    return out


def holding(conn: apsw.Connection, word: str) -> set[tuple[str, str]]:
    """The (table, column) pairs where some row holds ``word``, ignoring case."""
    found = set()
    for table, cols in text_columns(conn).items():
        for col in cols:
            hit = conn.execute(
                f"SELECT 1 FROM {table} WHERE instr(lower({col}), lower(?)) > 0 LIMIT 1", (word,)
            ).fetchone()
            if hit:
                found.add((table, col))
    return found


def files_hold(daemon: InProcessDaemon, word: str) -> bool:
    needle = word.encode("utf-8")
    wal = Path(str(daemon.db_path) + "-wal")
    return needle in daemon.db_path.read_bytes() or (wal.exists() and needle in wal.read_bytes())


def populate(client: Client, word: str) -> str:
    """What the daemon writes of ``word`` through its own methods; the session id."""
    client.agent_create("mia", config={"tools": [WEATHER]})
    sid = client.session_open("mia")["session_id"]
    client.session_send(
        sid, f"My best friend {word} is getting married in Porto next month, I'm so happy!"
    ).finish()
    stream = client.session_send(sid, f'weather for {word}? [[tool:weather {{"city": "{word}"}}]]')
    for ev in stream:
        if ev.event == "tool_call":
            client.session_tool_result(sid, ev.data["call_id"], {"sky": "clear"})
    client.session_send(sid, "I'm exhausted and sad tonight.", speaker=word).finish()
    client.session_send(sid, "The dentist is on Friday at 9.").finish()
    client.session_close(sid, wait=True)
    client.call("scheduler.arm", agent_id="mia", topic="the wedding trip", keywords=[word, "porto"])
    client.call("scheduler.config", agent_id="mia", avoid=[f"the wedding of {word}", "the dentist"])
    client.memory_import(
        "mia",
        facts=[
            {"subject": f"friend.{word}", "kind": "person", "text": "Plays the cello."},
            {"subject": "user.friend", "kind": "person", "text": f"The user's friend is {word}."},
            {"subject": "user.diet", "kind": "health", "text": "The user is vegetarian."},
        ],
    )
    return str(sid)


def plant(daemon: InProcessDaemon, word: str, sid: str) -> None:
    """The word where a short test cannot make the daemon write it: beside the daemon's own rows,
    by SQL on a second connection (WAL lets it write while the daemon runs)."""
    conn = apsw.Connection(str(daemon.db_path))
    conn.set_busy_timeout(10_000)
    with conn:
        conn.execute(
            "INSERT INTO persona (agent_id, text, version, episodes_seen, decided_by, created_ms) "
            "VALUES ('mia', ?, 99, 1, 'rules', 1)",
            (f"What you know about the user: Their best friend is {word}. They live by the sea.",),
        )
        conn.execute(
            "INSERT INTO compressions (session_id, upto_message_id, text) VALUES (?, 1, ?)",
            (sid, f"Earlier: the user talked about {word} and the wedding."),
        )
        fact = conn.execute(
            "SELECT fact_id FROM facts WHERE agent_id = 'mia' AND instr(text, ?) = 0 LIMIT 1",
            (word,),
        ).fetchone()
        assert fact is not None, "the test needs a fact without the word"
        conn.execute(
            "INSERT INTO fact_history (fact_id, agent_id, ts_ms, action, text, decided_by) "
            "VALUES (?, 'mia', 1, 'UPDATE', ?, 'rules')",
            (fact[0], f"Once said of {word}."),
        )
        conn.execute(
            "UPDATE jobs SET error = ? WHERE job_id = (SELECT min(job_id) FROM jobs WHERE agent_id = 'mia')",
            (f"an earlier try failed on {word}",),
        )
        conn.execute(
            "UPDATE mood_history SET cues = json_insert(coalesce(cues, '[]'), '$[#]', ?) WHERE history_id = "
            "(SELECT min(history_id) FROM mood_history WHERE agent_id = 'mia')",
            (word,),
        )
    conn.close()


@pytest.mark.parametrize("word", ["Zorblax", "阿飞"])
def test_a_canary_in_every_column_of_words_is_found_nowhere_after_forget(
    daemon: InProcessDaemon, client: Client, word: str
) -> None:
    sid = populate(client, word)
    plant(daemon, word, sid)
    conn = apsw.Connection(str(daemon.db_path), flags=apsw.SQLITE_OPEN_READONLY)
    columns = text_columns(conn)
    unclassified = {
        (t, c)
        for t, cols in columns.items()
        for c in cols
        if c not in WORD_COLUMNS.get(t, ()) and (t, c) not in NOT_WORDS
    }
    assert not unclassified, f"TEXT columns forget does not know about: {sorted(unclassified)}"
    missing = {
        (t, c) for t, cols in WORD_COLUMNS.items() for c in cols if c not in columns.get(t, [])
    }
    assert not missing, f"WORD_COLUMNS names columns the schema lacks: {sorted(missing)}"
    planted = holding(conn, word)
    every = {(t, c) for t, cols in WORD_COLUMNS.items() for c in cols}
    assert every <= planted, f"the canary did not reach {sorted(every - planted)}"
    conn.close()

    assert client.memory_forget("mia", query=word)["deleted"] >= 5

    conn = apsw.Connection(str(daemon.db_path), flags=apsw.SQLITE_OPEN_READONLY)
    assert holding(conn, word) == set()
    conn.close()
    assert not files_hold(daemon, word)
    history = client.session_history(sid)["messages"]
    assert word not in json.dumps(history, ensure_ascii=False)
    assert word not in json.dumps(client.memory_export("mia"), ensure_ascii=False)
    assert "The dentist is on Friday at 9." in [m["text"] for m in history]  # the rest stays
    assert client.call("scheduler.config", agent_id="mia")["avoid"] == ["the dentist"]


@pytest.mark.parametrize("how", ["forget_all", "agent_delete"])
@pytest.mark.parametrize("word", ["Zorblax", "阿飞"])
def test_forget_all_and_agent_delete_leave_the_canary_nowhere(
    daemon: InProcessDaemon, client: Client, word: str, how: str
) -> None:
    sid = populate(client, word)
    plant(daemon, word, sid)
    client.call("scheduler.config", agent_id="mia", allow=[word])
    assert files_hold(daemon, word)
    if how == "forget_all":
        client.memory_forget("mia", all=True)
    else:
        client.agent_delete("mia")
    conn = apsw.Connection(str(daemon.db_path), flags=apsw.SQLITE_OPEN_READONLY)
    assert holding(conn, word) == set()
    conn.close()
    assert not files_hold(daemon, word)
