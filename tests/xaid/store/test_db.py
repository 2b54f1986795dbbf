"""The real SQLite store (apsw), never mocked: migrations, WAL, cascades, errors."""

from __future__ import annotations

from pathlib import Path

import apsw
import pytest

from testkit import DaemonProcess
from xaid.server.dispatch import store_error
from xaid.store import agents, sessions
from xaid.store.agents import Agent
from xaid.store.db import Database, connect, storage_error
from xaid.store.errors import Conflict, NotFound, SchemaTooNew, StorageFailed, StorageFull
from xaid.store.migrate import current_version, migrations
from xaid.store.sessions import Message


def test_fresh_database_is_migrated_in_wal_mode(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.db")
    assert current_version(db.conn) == len(migrations()) >= 1
    assert db.conn.execute("PRAGMA journal_mode").get == "wal"
    assert db.conn.execute("PRAGMA foreign_keys").get == 1
    db.close()
    again = connect(tmp_path / "x.db")  # reopening applies nothing twice
    assert current_version(again) == len(migrations())
    again.close()


def test_a_database_from_a_newer_xaid_is_refused(tmp_path: Path) -> None:
    conn = apsw.Connection(str(tmp_path / "future.db"))
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(SchemaTooNew, match="newer than this xaid"):
        connect(tmp_path / "future.db")


def test_deleting_an_agent_deletes_its_sessions_and_messages(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.db")
    for agent_id in ("a", "b"):
        db.call(agents.insert, Agent(agent_id, agent_id, "", {}, 1, 1))
        db.call(sessions.insert_session, f"s-{agent_id}", agent_id, 1)
        db.call(
            sessions.insert_message,
            Message(f"s-{agent_id}", agent_id, "user", f"secret of {agent_id}", 2),
        )
    assert db.call(agents.delete, "a")
    rows = db.conn.execute("SELECT agent_id, text FROM messages").fetchall()
    assert rows == [("b", "secret of b")]
    assert db.call(sessions.get_session, "s-a") is None
    db.close()


def test_a_failed_transaction_writes_nothing(tmp_path: Path) -> None:
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 1, 1))
    db.call(sessions.insert_session, "s", "a", 1)

    def half(conn: apsw.Connection) -> None:
        sessions.insert_message(conn, Message("s", "a", "user", "first", 2))
        sessions.insert_message(conn, Message("s", "a", "robot", "violates the role check", 3))

    with pytest.raises(StorageFailed) as info:
        db.call(half)
    assert store_error(info.value).code == "storage_error"
    assert db.call(sessions.messages, "s") == []
    db.close()


def test_disk_full_is_reported_in_words() -> None:
    full = storage_error(apsw.FullError("database or disk is full"))
    err = store_error(full)
    assert (
        err.code == "storage_error"
        and "disk is full" in err.message
        and "nothing was written" in err.message
    )
    assert isinstance(full, StorageFull)


def test_a_write_to_a_gone_or_closed_session_says_so_in_the_store_and_on_the_wire(
    tmp_path: Path,
) -> None:
    """The store raises its own errors; dispatch.store_error gives them the codes, words and data
    the protocol always had for them (docs/protocol.md: not_found with what/id, conflict)."""
    db = Database(tmp_path / "x.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 1, 1))
    db.call(sessions.insert_session, "s", "a", 1)
    with pytest.raises(NotFound) as gone:
        db.call(sessions.require_open, "nope")
    wire = store_error(gone.value).to_wire()
    assert wire == {
        "code": "not_found",
        "message": "no session 'nope'",
        "data": {"what": "session", "id": "nope"},
    }
    db.call(sessions.close_session, "s", 5)
    with pytest.raises(Conflict) as closed:
        db.call(sessions.require_open, "s")
    assert store_error(closed.value).to_wire() == {
        "code": "conflict",
        "message": "session 's' is closed; open a new one",
    }
    db.close()


def test_the_store_speaks_no_protocol() -> None:
    """architecture.md debt 9: nothing under xaid/store imports the wire's vocabulary."""
    store = Path(__file__).resolve().parents[3] / "xaid" / "store"
    sources = {path.name: path.read_text(encoding="utf-8") for path in store.glob("*.py")}
    assert "db.py" in sources and "sessions.py" in sources
    assert [name for name, text in sources.items() if "xaiclient" in text] == []


def test_the_daemon_refuses_a_newer_database_in_one_line(tmp_path: Path) -> None:
    """SchemaTooNew is a StoreError, which `xaid` reports as "cannot open the database" and exit 1,
    with no traceback: the same answer it gave when the error was a bare RuntimeError."""
    proc = DaemonProcess(tmp_path)
    proc.state_dir.mkdir(parents=True, mode=0o700)
    conn = apsw.Connection(str(proc.db_path))
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(RuntimeError) as info:
        proc.start()
    said = str(info.value)
    assert "cannot open the database: database schema version 999 is newer" in said
    assert "Traceback" not in said and "exited with 1" in said
