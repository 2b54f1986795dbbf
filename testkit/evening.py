"""An evening a check-in is armed from: what the scheduler's and the lead's tests share."""

from __future__ import annotations

from collections.abc import Sequence

from xaiclient import Client

from xaid.clock import HOUR_MS


def said(client: Client, agent: str, line: str, at: int, name: str = "Mia") -> None:
    """A new agent ``agent`` that heard ``line`` in one session at ``at``, closed and consolidated
    an hour later (what a pending check-in is armed from)."""
    told(client, agent, [line], at, name)


def told(client: Client, agent: str, lines: Sequence[str], at: int, name: str = "Mia") -> None:
    """``said`` with several user lines, a minute apart."""
    client.agent_create(agent, name=name)
    sid = client.session_open(agent, ts=at)["session_id"]
    client.session_ingest(
        sid, [{"role": "user", "text": t, "ts": at + i * 60_000} for i, t in enumerate(lines)]
    )
    client.session_close(sid, ts=at + HOUR_MS, wait=True)
