"""Ids that become path parts of an export are safe (issue 14 item 18): an agent id is never ``.``,
``..`` or holds a control character; an imported session id is re-keyed; an agent stored by an
older xaid with such an id still exports. Real daemon; xaictl writes the files."""

from __future__ import annotations

import json
import time
from pathlib import Path, PurePosixPath

import apsw
import pytest
from xaiclient import Client, XaiError

from testkit import xaictl
from testkit.inproc import InProcessDaemon

NOW = int(time.time() * 1000) - 60_000


@pytest.mark.parametrize("bad", ["..", ".", "a\x00b", "tab\there", "zwölf\x07", "a/b", "新 朋友"])
def test_unsafe_agent_ids_are_bad_params(client: Client, bad: str) -> None:
    with pytest.raises(XaiError) as info:
        client.agent_create(bad)
    assert info.value.code == "bad_params"
    client.agent_create("新朋友")  # any printable id without spaces is fine, Chinese too


def _safe(paths: list[str]) -> bool:
    return all(
        "\x00" not in p
        and not any(part in ("", ".", "..") for part in PurePosixPath(p).parts)
        and not PurePosixPath(p).is_absolute()
        for p in paths
    )


@pytest.mark.parametrize("session_id", ["../../x", "/etc/passwd", "..", "杭州/西湖", "a\\b"])
def test_imported_session_ids_export_as_safe_files(
    tmp_path: Path, daemon: InProcessDaemon, client: Client, session_id: str
) -> None:
    client.agent_create("mia")
    line = {
        "session_id": session_id,
        "started_ms": NOW,
        "ended_ms": NOW + 1,
        "summary": "They talked of kites.",
        "utterances": [{"role": "user", "text": "我们放了风筝。", "ts": NOW}],
    }
    assert client.memory_import("mia", files={"a.jsonl": json.dumps(line) + "\n"})["episodes"] == 1
    assert _safe(list(client.memory_export("mia")["files"]))
    out = xaictl("memory", "export", "mia", "--out", str(tmp_path / "out"), socket=daemon.socket)
    assert out.returncode == 0, out.stderr
    assert [p.name for p in (tmp_path / "out").rglob("*.jsonl")]


def test_an_imported_session_id_with_nul_is_bad_params(client: Client) -> None:
    client.agent_create("mia")
    line = {
        "session_id": "a\x00b",
        "started_ms": NOW,
        "ended_ms": NOW + 1,
        "summary": "They talked of kites.",
    }
    with pytest.raises(XaiError) as info:
        client.memory_import("mia", files={"a.jsonl": json.dumps(line) + "\n"})
    assert info.value.code == "bad_params" and "NUL" in info.value.message


def test_an_agent_stored_as_dotdot_by_an_older_xaid_still_exports(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d") as d:
        with d.client() as c:
            c.agent_create("tmp")
            sid = c.session_open("tmp")["session_id"]
            c.session_send(sid, "My sister Anna lives in Kyoto.").finish()
            c.session_close(sid, wait=True)
        d.stop()
        db = apsw.Connection(str(d.db_path))
        db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA defer_foreign_keys = ON")
        with db:
            for table in (
                "agents",
                "sessions",
                "messages",
                "episodes",
                "highlights",
                "facts",
                "memory_items",
                "utterances",
                "sources",
                "fact_history",
                "persona",
                "jobs",
                "mood_state",
                "mood_history",
                "participants",
                "recall_items",
                "recall_settings",
            ):
                db.execute(f"UPDATE {table} SET agent_id = '..' WHERE agent_id = 'tmp'")
        db.close()
        d.start()
        exported = xaictl("memory", "export", "..", "--out", str(tmp_path / "out"), socket=d.socket)
        # xaictl itself takes the id as given; the daemon's export names no file outside the folder
        with d.client() as c:
            files = list(c.memory_export("..")["files"])
        assert files and _safe(files)
        assert exported.returncode == 0, exported.stderr
