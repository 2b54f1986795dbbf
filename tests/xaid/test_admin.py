"""Operating the daemon: online backup while it serves, offline restore, limits, Prometheus."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from xaiclient import Client, XaiError

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon

T0 = (
    int(time.time() * 1000) - 86_400_000
)  # recent: the forgetting curve runs on the real clock at start


def test_backup_while_running_and_restore_gives_the_same_memories(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d").start()
    with proc.client() as c:
        c.agent_create("mia")
        sid = c.session_open("mia", ts=T0)["session_id"]
        c.session_send(sid, "My sister Anna lives in Kyoto.", ts=T0).finish()
        c.session_close(sid, ts=T0 + 60_000, wait=True)
        before = c.call("memory.search", agent_id="mia", query="Kyoto", ts=T0 + 86_400_000)["items"]
        stream = c.stream("admin.backup")
        data = b"".join(ev.data["data"] for ev in stream if ev.event == "chunk")
        assert stream.result["bytes"] == len(data) > 0
        c.agent_delete("mia")  # lose everything
    backup = tmp_path / "backup.db"
    backup.write_bytes(data)
    refused = subprocess.run(
        [sys.executable, "-m", "xaid", "--restore", str(backup)],
        env=proc.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert refused.returncode == 1 and "running" in refused.stderr
    proc.stop()
    done = subprocess.run(
        [sys.executable, "-m", "xaid", "--restore", str(backup)],
        env=proc.env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    proc.start()
    with proc.client() as c:
        after = c.call("memory.search", agent_id="mia", query="Kyoto", ts=T0 + 86_400_000)["items"]
    proc.stop()
    assert [(i["kind"], i["text"]) for i in after] == [
        (i["kind"], i["text"]) for i in before
    ] and after


def test_restore_refuses_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    bogus = tmp_path / "bogus.db"
    bogus.write_bytes(b"not sqlite at all" * 100)
    env = {
        "XAID_STORAGE_STATE_DIR": str(tmp_path / "state"),
        "XAID_SERVER_SOCKET": str(tmp_path / "x.sock"),
        "PATH": "/usr/bin:/bin",
    }
    out = subprocess.run(
        [sys.executable, "-m", "xaid", "--restore", str(bogus)],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 1 and "cannot restore" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "state" / "xaid.db").exists()


def test_database_size_limit_refuses_writes_and_keeps_reads(tmp_path: Path) -> None:
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_STORAGE_MAX_DB_MB": "1"}) as proc,
        proc.client() as c,
    ):
        c.agent_create("mia")
        sid = c.session_open("mia")["session_id"]
        big = "x" * 60_000
        stored = 0
        with pytest.raises(XaiError) as info:
            for _ in range(100):
                c.session_ingest(sid, [{"role": "user", "text": big}])
                stored += 1
        assert info.value.code == "storage_error" and "size limit" in info.value.message
        assert len(c.session_history(sid, limit=1000)["messages"]) == stored  # nothing half-written
        assert c.agent_get("mia")["agent_id"] == "mia"


def test_open_session_cap(tmp_path: Path) -> None:
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_SERVER_MAX_OPEN_SESSIONS": "2"}) as proc,
        proc.client() as c,
    ):
        c.agent_create("mia")
        first = c.session_open("mia")["session_id"]
        c.session_open("mia")
        with pytest.raises(XaiError) as info:
            c.session_open("mia")
        assert info.value.code == "overloaded"
        c.session_close(first)
        assert c.session_open("mia")["session_id"]


def test_prometheus_text(client) -> None:  # type: ignore[no-untyped-def]
    client.ping()
    text = client.call("stats", format="prometheus")["text"]
    assert "# TYPE xaid_requests_total counter" in text
    import re

    pings = re.search(r'^xaid_requests_total\{method="ping"\} (\d+)$', text, re.M)
    assert pings and int(pings.group(1)) >= 1
    assert 'xaid_request_latency_ms{method="ping",quantile="0.5"}' in text
    for line in text.splitlines():
        assert line.startswith("#") or line.split(" ")[0].startswith("xaid_")


def test_speed_of_turns_in_stats_and_prometheus(client) -> None:  # type: ignore[no-untyped-def]
    """The scripted provider stands in for the model: the figures are about the turns, not the words."""
    empty = client.stats()["llm_speed"]
    assert empty["first_token_ms"] == {"count": 0, "p50": None, "p95": None}
    assert "xaid_llm_first_token_ms{" not in client.call("stats", format="prometheus")["text"]
    client.agent_create("sp")
    sid = client.session_open("sp")["session_id"]
    for text in ("one two three", "four five six seven"):
        client.session_send(sid, text).finish()
    speed = client.stats()["llm_speed"]
    assert speed["first_token_ms"]["count"] == 2 and speed["first_token_ms"]["p50"] > 0
    assert (
        speed["generation_tokens_per_s"]["count"] >= 2
        and speed["generation_tokens_per_s"]["p50"] > 0
    )
    assert speed["prompt_tokens_per_s"]["count"] == 0  # the scripted provider reads no prompt
    assert client.status()["llm_speed"]["first_token_ms"]["count"] == 2
    text = client.call("stats", format="prometheus")["text"]
    assert 'xaid_llm_first_token_ms{quantile="0.5"}' in text
    assert 'xaid_llm_generation_tokens_per_second{quantile="0.95"}' in text


def _fill(c: Client, mb: int) -> None:
    """Enough conversation that a backup streams many chunks (and blocks on a reader that waits)."""
    c.agent_create("big")
    sid = c.session_open("big", ts=T0)["session_id"]
    line = "我们聊了很多关于旅行和音乐的事情。 We talked about trains, rivers and old songs. " * 20
    for batch in range(mb * 2):
        c.session_ingest(
            sid, [{"role": "user", "text": f"{batch}-{i} {line}", "ts": T0 + i} for i in range(200)]
        )


def test_one_backup_at_a_time_its_snapshot_is_0600_and_a_killed_ones_is_swept(
    tmp_path: Path,
) -> None:
    with DaemonProcess(tmp_path / "d") as proc:  # stopped however the test ends
        with proc.client() as c:
            _fill(c, 8)
        reader = proc.client()
        stream = reader.stream("admin.backup")
        first = next(
            iter(stream)
        )  # the snapshot is written; the stream now waits on this slow reader
        assert first.event == "chunk"
        snapshots = list(proc.state_dir.glob("backup-*.tmp"))
        assert len(snapshots) == 1 and snapshots[0].stat().st_mode & 0o777 == 0o600
        with proc.client() as other, pytest.raises(XaiError) as info:
            other.call("admin.backup")
        assert info.value.code == "busy"
        proc.kill()
        reader.close()
        assert list(proc.state_dir.glob("backup-*.tmp")) == snapshots  # left behind by the kill
        proc.start()
        assert list(proc.state_dir.glob("backup-*")) == []
        with proc.client() as c:
            stream = c.stream("admin.backup")
            assert (
                sum(len(ev.data["data"]) for ev in stream if ev.event == "chunk")
                == stream.result["bytes"]
            )
