"""xaictl scheduler, backup and stats --prometheus as a user runs them: subprocesses against a real daemon
(scripted provider, real SQLite)."""

from __future__ import annotations

from pathlib import Path

import apsw

from testkit import one_line_error, xaictl
from testkit import xaictl_json as as_json
from testkit import xaictl_ok as ok
from testkit.inproc import InProcessDaemon


def test_arm_list_config_cancel(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    ok("agent", "create", "mia", socket=sock)
    item = as_json(
        "scheduler",
        "arm",
        "mia",
        "the dentist appointment",
        "--not-before",
        "2030-01-07T09:00",
        "--not-after",
        "2030-01-10",
        "--priority",
        "0.9",
        socket=sock,
    )
    assert item["state"] == "pending" and item["scene"] == "manual" and item["priority"] == 0.9
    assert item["not_after"] - item["not_before"] == (3 * 24 - 9) * 3_600_000  # both local times
    assert "dentist" in item["keywords"]
    listed = ok("scheduler", "list", "mia", socket=sock)
    assert (
        f"#{item['item_id']}" in listed
        and "the dentist appointment" in listed
        and "pending" in listed
    )
    assert [i["item_id"] for i in as_json("scheduler", "list", "mia", socket=sock)] == [
        item["item_id"]
    ]

    assert "recall for mia: off;" in ok("scheduler", "config", "mia", "--off", socket=sock)
    assert "recall for mia: on;" in ok("scheduler", "config", "mia", "--on", socket=sock)
    quiet = ok("scheduler", "config", "mia", "--quiet", socket=sock)
    assert "quiet on" in quiet and "at least 48 h" in quiet and "every scene and topic" in quiet
    settings = as_json(
        "scheduler",
        "config",
        "mia",
        "--min-gap-hours",
        "12",
        "--allow",
        "plan",
        "dentist",
        socket=sock,
    )
    assert settings == {
        "enabled": True,
        "quiet": True,
        "min_gap_hours": 12.0,
        "allow": ["plan", "dentist"],
        "avoid": [],
    }
    assert "allowed: plan, dentist" in ok("scheduler", "config", "mia", socket=sock)  # read only
    cleared = as_json("scheduler", "config", "mia", "--no-quiet", "--allow-all", socket=sock)
    assert cleared["quiet"] is False and cleared["allow"] == [] and cleared["min_gap_hours"] == 12.0
    avoided = ok("scheduler", "config", "mia", "--avoid", "dentist", "前任", socket=sock)
    assert "never brought up: dentist, 前任" in avoided
    assert as_json("scheduler", "config", "mia", "--avoid-none", socket=sock)["avoid"] == []

    cancelled = ok("scheduler", "cancel", "mia", str(item["item_id"]), socket=sock)
    assert cancelled.strip() == f"cancelled #{item['item_id']}"
    assert "nothing pending" in ok("scheduler", "list", "mia", socket=sock)
    every = as_json("scheduler", "list", "mia", "--all", socket=sock)
    assert [(i["item_id"], i["state"]) for i in every] == [(item["item_id"], "cancelled")]
    assert "cancelled by the client" in ok("scheduler", "list", "mia", "--all", socket=sock)


def test_errors_are_one_line(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    ok("agent", "create", "mia", socket=sock)
    item = as_json("scheduler", "arm", "mia", "the marathon", socket=sock)
    never_pushed = one_line_error(
        xaictl("scheduler", "feedback", "mia", str(item["item_id"]), "welcome", socket=sock)
    )
    assert never_pushed.startswith("xaictl: not_found:")
    assert "not_found" in one_line_error(xaictl("scheduler", "cancel", "mia", "999", socket=sock))
    assert "not_found" in one_line_error(xaictl("scheduler", "list", "ghost", socket=sock))
    bad_date = one_line_error(
        xaictl("scheduler", "arm", "mia", "x", "--not-before", "next week", socket=sock)
    )
    assert bad_date.startswith("xaictl: bad_params: --not-before 'next week'")
    backwards = xaictl(
        "scheduler",
        "arm",
        "mia",
        "x",
        "--not-before",
        "2030-01-02",
        "--not-after",
        "2030-01-01",
        socket=sock,
    )
    assert "not_after" in one_line_error(backwards)
    assert "bad_params" in one_line_error(
        xaictl("scheduler", "arm", "mia", "x", "--priority", "2", socket=sock)
    )


def test_backup_writes_a_sqlite_file_and_refuses_to_overwrite(
    daemon: InProcessDaemon, tmp_path: Path
) -> None:
    sock = daemon.socket
    ok("agent", "create", "mia", socket=sock)
    target = tmp_path / "backup.db"
    out = ok("backup", str(target), socket=sock)
    size = target.stat().st_size
    assert out.strip() == f"backed up {size} bytes to {target}"
    assert target.read_bytes()[:16] == b"SQLite format 3\0"
    assert target.stat().st_mode & 0o077 == 0  # it holds every conversation
    conn = apsw.Connection(str(target), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        assert conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'agents'"
        ).fetchone()
        assert conn.execute("SELECT agent_id FROM agents").fetchall() == [("mia",)]
    finally:
        conn.close()

    ok("agent", "create", "kai", socket=sock)
    refused = one_line_error(xaictl("backup", str(target), socket=sock))
    assert "--force" in refused and target.stat().st_size == size
    again = as_json("backup", str(target), "--force", socket=sock)
    assert again == {"file": str(target), "bytes": target.stat().st_size}
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "backup.db",
        "d",
    ]  # no FILE.tmp left behind
    conn = apsw.Connection(str(target), flags=apsw.SQLITE_OPEN_READONLY)
    try:
        assert conn.execute("SELECT agent_id FROM agents ORDER BY agent_id").fetchall() == [
            ("kai",),
            ("mia",),
        ]
    finally:
        conn.close()


def test_stats_prometheus_and_scheduler_line(daemon: InProcessDaemon) -> None:
    sock = daemon.socket
    ok("agent", "create", "mia", socket=sock)
    ok("scheduler", "arm", "mia", "the dentist", socket=sock)
    text = ok("stats", "--prometheus", socket=sock)
    samples = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert samples and all(line.startswith("xaid_") for line in samples)
    assert 'xaid_requests_total{method="scheduler.arm"} 1' in samples
    assert "xaid_recall_pushes_total 0" in samples
    human = ok("stats", socket=sock)
    assert "scheduler: 0 suggestion(s), 0 engaged, 0 welcome, 0 annoying, 1 pending" in human
