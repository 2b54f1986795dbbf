"""A daemon with the memory page on loopback TCP (so the token and its cookie are in play), and a
companion that remembers something in English and Chinese: facts, an episode per session, mood
readings over several days, an armed matter and a suggestion already made. The provider is the
scripted one: these tests are about what the daemon keeps and shows, not about the model's words."""

from __future__ import annotations

import datetime as dt
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon

DAY_MS = 86_400_000
XSS = '<script>alert("xss")</script><img src=x onerror=alert(2)>'
EN_SESSION = [
    "My sister Anna lives in Kyoto.",
    "I have a job interview on {day} and I'm really nervous.",  # three days after it is said
    f"I typed {XSS} into a form today, funny.",
]
ZH_SESSION = ["我弟弟叫小明，他住在杭州。", "我今天很累，工作压力好大。"]


@dataclass
class Site:
    daemon: InProcessDaemon
    base: str
    token: str

    def client(self) -> Client:
        return self.daemon.client()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def seed(c: Client) -> None:
    """Two closed sessions days apart (episodes, facts, mood), a manual matter due now (then
    suggested through check_in) and the interview left armed for two days from now. The weekday is
    named from the session's own day: a fixed "Friday" said yesterday was already past on a
    Saturday, and nothing was left armed."""
    now = int(time.time() * 1000)
    c.agent_create("mia", name="Mia")
    for days_ago, said in ((6, ZH_SESSION), (1, EN_SESSION)):
        ts = now - days_ago * DAY_MS
        day = dt.datetime.fromtimestamp((ts + 3 * DAY_MS) / 1000, dt.UTC).strftime("%A")
        sid = c.session_open("mia", ts=ts)["session_id"]
        for i, text in enumerate(said):
            c.session_send(sid, text.format(day=day), ts=ts + i * 60_000).finish()
        c.session_close(sid, ts=ts + 3_600_000, wait=True)
    c.call("scheduler.arm", agent_id="mia", topic="the dentist appointment", not_before=now - 1000)
    c.call("scheduler.check_in", agent_id="mia")


def start(root: Path) -> Site:
    port = free_port()
    d = InProcessDaemon(root, env={"XAID_HTTP_LISTEN": f"unix:,tcp:127.0.0.1:{port}"}).start()
    token = (root / "state" / "http.token").read_text().strip()
    return Site(d, f"http://127.0.0.1:{port}", token)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    s = start(tmp_path / "d")
    try:
        with s.client() as c:
            seed(c)
        yield s
    finally:
        s.daemon.stop()
