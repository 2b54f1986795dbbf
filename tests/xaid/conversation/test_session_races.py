"""A closed session is read-only, and a deleted agent's session is gone, whatever a send in flight
had read: the write re-checks (xaid.store.sessions.require_open). A real daemon; two clients race."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from xaiclient import Client, XaiError

from testkit.inproc import InProcessDaemon

T0 = 1_770_000_000_000
ROUNDS = 40


def _send(c: Client, sid: str, text: str, ts: int, out: dict[str, Any]) -> None:
    try:
        out["result"] = c.session_send(sid, text, ts=ts).finish()
    except XaiError as exc:
        out["error"] = exc.code


def test_send_racing_close_is_refused_or_lands_before_the_close(tmp_path: Path) -> None:
    stored_after = 0
    with InProcessDaemon(tmp_path / "d") as d, d.client() as sender, d.client() as closer:
        closer.agent_create("mia")
        for i in range(ROUNDS):
            sid = closer.session_open("mia", ts=T0)["session_id"]
            out: dict[str, Any] = {}
            text = "Tomorrow I move to Lyon." if i % 2 else "明天我搬去杭州。"
            t = threading.Thread(target=_send, args=(sender, sid, text, T0 + 10_000, out))
            t.start()
            try:
                closed_ms = closer.session_close(sid, ts=T0 + 5_000)["closed_ms"]
            except XaiError as exc:
                assert (
                    exc.code == "busy"
                )  # the turn was running: it finishes, then the close may come
                t.join()
                closed_ms = closer.session_close(sid, ts=T0 + 5_000)["closed_ms"]
            t.join()
            assert out.get("error") in (None, "conflict"), out
            messages = closer.session_history(sid)["messages"]
            # a message written after the close would carry a time past the close's (ts 5 s < 10 s)
            stored_after += sum(m["ts"] > closed_ms for m in messages)
            if "error" in out:
                assert messages == []
    assert stored_after == 0


def test_send_racing_agent_delete_is_not_found(tmp_path: Path) -> None:
    with InProcessDaemon(tmp_path / "d") as d, d.client() as sender, d.client() as deleter:
        for i in range(ROUNDS):
            deleter.agent_create(f"mia{i}")
            sid = deleter.session_open(f"mia{i}")["session_id"]
            out: dict[str, Any] = {}
            t = threading.Thread(target=_send, args=(sender, sid, "I sing in a choir.", T0, out))
            t.start()
            try:
                deleter.agent_delete(f"mia{i}")
            except XaiError as exc:
                assert exc.code == "busy"
            t.join()
            assert out.get("error") in (None, "not_found"), out
