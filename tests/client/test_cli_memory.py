"""xaictl memory, persona, stats and session close --wait as a user runs them: subprocesses against a
real daemon (scripted provider, real SQLite, real embeddings)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from testkit import one_line_error, xaictl
from testkit import xaictl_json as as_json
from testkit import xaictl_ok as ok
from testkit.inproc import InProcessDaemon


def converse(sock: Path, agent: str, lines: list[str]) -> str:
    """A session through ``xaictl send``, closed with --wait; its id."""
    ok("agent", "create", agent, "--name", agent.title(), socket=sock)
    for line in lines:
        assert ok("send", agent, line, socket=sock).strip() == f"echo: {line}"
    (session,) = as_json("session", "list", agent, socket=sock)
    closed = ok("session", "close", session["session_id"], "--wait", socket=sock)
    assert re.fullmatch(rf"closed {session['session_id']}; episode \d+\n", closed)
    return str(session["session_id"])


def test_remember_search_show_export_forget_import(daemon: InProcessDaemon, tmp_path: Path) -> None:
    sock = daemon.socket
    sid = converse(sock, "mia", ["My sister Anna lives in Kyoto.", "I work at Globex."])

    facts = as_json("memory", "list", "mia", socket=sock)
    assert any("Anna" in f["text"] for f in facts) and any("Globex" in f["text"] for f in facts)
    listed = ok("memory", "list", "mia", socket=sock)
    assert "Anna" in listed and "Globex" in listed and "fact:" in listed
    (episode,) = as_json("memory", "list", "mia", "--kind", "episode", socket=sock)
    assert episode["session_id"] == sid and "Kyoto" in episode["summary"]

    found = ok("memory", "search", "mia", "Kyoto", "-k", "3", socket=sock)
    assert "Kyoto" in found and "tokens)" in found
    hits = as_json("memory", "search", "mia", "Kyoto", "--budget", "400", socket=sock)["items"]
    assert hits and "Kyoto" in hits[0]["text"] and hits[0]["refs"]

    globex = next(f for f in facts if "Globex" in f["text"])
    shown = ok("memory", "show", "mia", f"fact:{globex['fact_id']}", socket=sock)
    assert "Globex" in shown and f"refs: {', '.join(globex['refs'])}" in shown and "ADD" in shown
    detail = as_json("memory", "show", "mia", f"fact:{globex['fact_id']}", socket=sock)
    assert detail["refs"] == globex["refs"] and [h["action"] for h in detail["history"]] == ["ADD"]
    assert "refs: " in ok("memory", "show", "mia", f"episode:{episode['episode_id']}", socket=sock)
    assert "not_found" in one_line_error(
        xaictl("memory", "show", "mia", "fact:999999", socket=sock)
    )
    assert "bad_params" in one_line_error(xaictl("memory", "show", "mia", "twelve", socket=sock))

    out = tmp_path / "export"
    assert "exported 1 episode file(s)" in ok(
        "memory", "export", "mia", "--out", str(out), socket=sock
    )
    (jsonl,) = out.rglob("*.jsonl")
    assert re.fullmatch(rf"mia/\d{{4}}-\d{{2}}/{sid}\.jsonl", jsonl.relative_to(out).as_posix())
    assert json.loads(jsonl.read_text(encoding="utf-8").splitlines()[0])["session_id"] == sid
    assert any(
        "Globex" in f["text"] for f in json.loads((out / "facts.json").read_text(encoding="utf-8"))
    )
    assert (out / "persona.txt").read_text(encoding="utf-8").strip()
    state = json.loads((out / "state.json").read_text(encoding="utf-8"))  # mood and follow-ups
    assert set(state) <= {"mood", "scheduler"} and "items" in state["scheduler"]
    printed = json.loads(ok("memory", "export", "mia", socket=sock))
    assert set(printed["files"]) == {jsonl.relative_to(out).as_posix()}

    persona = as_json("persona", "mia", socket=sock)
    assert persona["version"] >= 1 and "Globex" in persona["text"]
    assert "version" in ok("persona", "mia", socket=sock)

    refused = one_line_error(xaictl("memory", "forget", "mia", "--query", "Globex", socket=sock))
    assert "--yes" in refused
    assert any(
        "Globex" in h["text"]
        for h in as_json("memory", "search", "mia", "Globex", socket=sock)["items"]
    )
    assert re.fullmatch(
        r"forgot [1-9]\d* item\(s\)\n",
        ok("memory", "forget", "mia", "--query", "Globex", "--yes", socket=sock),
    )
    assert not [
        h
        for h in as_json("memory", "search", "mia", "Globex", socket=sock)["items"]
        if "Globex" in h["text"]
    ]
    assert "Globex" not in ok("memory", "search", "mia", "Globex", socket=sock)
    assert "Globex" not in (
        as_json("persona", "mia", socket=sock)["text"] or ""
    )  # forgetting reaches the profile

    ok("agent", "create", "kai", socket=sock)
    imported = ok("memory", "import", "kai", str(out), socket=sock)
    assert imported.startswith("imported 1 episode(s) and ")
    (copy,) = as_json("memory", "list", "kai", "--kind", "episode", socket=sock)
    assert copy["decided_by"] == "import" and "Kyoto" in copy["summary"]
    assert any(
        "Kyoto" in h["text"]
        for h in as_json("memory", "search", "kai", "Kyoto", socket=sock)["items"]
    )
    again = as_json("memory", "import", "kai", str(out), socket=sock)
    assert again["episodes"] == 0 and again["follow_ups"] == 0  # already there


def test_forget_all_needs_yes_and_erases_everything(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    converse(sock, "mia", ["My dog is called Rex."])
    assert "--yes" in one_line_error(xaictl("memory", "forget", "mia", "--all", socket=sock))
    assert as_json("memory", "list", "mia", "--kind", "episode", socket=sock)
    assert as_json("memory", "forget", "mia", "--all", "--yes", socket=sock)["deleted"] >= 2
    assert as_json("memory", "list", "mia", socket=sock) == []
    assert as_json("memory", "list", "mia", "--kind", "episode", "--json", socket=sock) == []
    assert as_json("session", "list", "mia", socket=sock) == []
    assert "(no facts)" in ok("memory", "list", "mia", "--status", "all", socket=sock)
    assert "(no persona yet" in ok("persona", "mia", socket=sock)


def test_stats_human_and_json(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    converse(sock, "mia", ["I like tea."])
    stats = json.loads(ok("stats", "--json", socket=sock))
    assert stats["memory"]["embedder"] == "ready" and stats["memory"]["episodes_rules"] == 1
    assert stats["methods"]["session.close"]["calls"] == 1
    human = ok("stats", socket=sock)
    assert re.search(r"^session\.send\s+1\s+0\s", human, re.M)
    assert "memory: embedder ready" in human and "episodes_rules 1" in human


def test_import_is_split_to_fit_the_frame_limit(tmp_path: Path) -> None:
    folder = tmp_path / "memories"
    for month in range(1, 7):
        line = {
            "session_id": f"s_{month:016x}",
            "started_ms": 1767225600000 + month * 2_678_400_000,
            "ended_ms": 1767229200000 + month * 2_678_400_000,
            "summary": f"Month {month}: the user talked about the garden. "
            + "Tomatoes and beans. " * 20,
        }
        path = folder / "mia" / f"2026-{month:02d}" / f"s_{month:016x}.jsonl"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    (folder / "facts.json").write_text(
        json.dumps([{"text": "The user grows tomatoes."}]), encoding="utf-8"
    )
    with InProcessDaemon(tmp_path / "d", env={"XAID_SERVER_MAX_FRAME_BYTES": "2048"}) as proc:
        sock = proc.socket
        ok("agent", "create", "mia", socket=sock)
        assert as_json("memory", "import", "mia", str(folder), socket=sock) == {
            "episodes": 6,
            "facts": 1,
        }
        (newest,) = as_json(
            "memory", "list", "mia", "--kind", "episode", "--limit", "1", socket=sock
        )
        assert newest["summary"].startswith("Month 6:")
        stats = as_json("stats", socket=sock)
        assert (
            stats["methods"]["memory.import"]["calls"] >= 3
            and stats["methods"]["memory.import"]["errors"] == 0
        )
        empty = tmp_path / "empty"
        empty.mkdir()
        assert "nothing to import" in one_line_error(
            xaictl("memory", "import", "mia", str(empty), socket=sock)
        )


def test_every_turn_of_both_sides_is_listed_and_shown(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    converse(sock, "mia", ["I started reading Dune yesterday."])
    listed = ok("memory", "list", "mia", "--kind", "utterance", socket=sock)
    assert "user: I started reading Dune yesterday." in listed
    assert (
        "companion: echo: I started reading Dune yesterday." in listed
    )  # the scripted reply, as stored
    turns = as_json("memory", "list", "mia", "--kind", "utterance", socket=sock)
    assert [t["role"] for t in turns] == ["user", "assistant"]
    shown = ok("memory", "show", "mia", f"utterance:{turns[1]['utterance_id']}", socket=sock)
    assert "companion: echo:" in shown and "refs: " in shown and "from episode:" in shown
