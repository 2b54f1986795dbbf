"""What the forget tests share: a conversation lived through ``session.send``, and everything an app
can read back of an agent, so a test can check that forgotten words are nowhere."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xaiclient import Client

MONDAY = 1_764_547_200_000  # 2025-12-01 00:00 UTC, the first day of the forget tests' histories


def talk(c: Client, agent: str, lines: list[str], ts: int) -> str:
    """One session: each line sent a minute apart, then closed and consolidated; its session id."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * 60_000).finish()
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)
    return sid


def everything(c: Client, agent: str, sessions: list[str], query: str, ts: int) -> str:
    """All an app can read back of the agent's memory and conversations, as one text."""
    parts = [c.call("memory.search", agent_id=agent, query=query, ts=ts)["items"]]
    parts += [
        c.call("memory.list", agent_id=agent, kind=kind)["items"]
        for kind in ("utterance", "episode", "fact")
    ]
    parts += [c.session_history(sid)["messages"] for sid in sessions]
    return repr(parts)


def ask(c: Client, agent: str, text: str, ts: int) -> tuple[str, dict[str, Any]]:
    """``text`` as the first turn of a new session (left open); the session and explain's forgotten."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    forgotten = c.session_send(sid, text, ts=ts, explain=True).finish()["context"]["forgotten"]
    return sid, dict(forgotten or {})


def found(c: Client, agent: str, query: str, ts: int) -> str:
    """What ``memory.search`` recalls for ``query`` at ``ts``, as one text: what a turn could show."""
    items = c.call("memory.search", agent_id=agent, query=query, ts=ts)["items"]
    return repr([i["text"] for i in items])


@dataclass(frozen=True)
class Asked:
    """A request said after two matters were told, each in its own session: the sessions' ids and
    explain's ``forgotten`` of the request turn."""

    meant: str
    other: str
    request: str
    forgotten: dict[str, Any]


def two_matters_then_ask(
    c: Client,
    agent: str,
    meant: tuple[list[str], int],
    other: tuple[list[str], int],
    request: str,
    ts: int,
) -> Asked:
    """The shape the forget end-to-end tests share: the matter meant and another matter told in two
    sessions (lines, start), lived in the order of their times, then ``request`` said as the first
    turn of a new session at ``ts`` (left open, so a question back can be answered in it)."""
    sids: dict[int, str] = {}
    for i, (lines, start) in sorted(enumerate((meant, other)), key=lambda e: e[1][1]):
        sids[i] = talk(c, agent, lines, start)
    sid, forgotten = ask(c, agent, request, ts)
    return Asked(sids[0], sids[1], sid, forgotten)
