"""What the start-up warming tests of retrieve and pack share: days of turns given to an agent just
before today, a week-later ``memory.search``, the agent's stored items, and the memos and vectors
the daemon's open connections hold for it (xaid.memory.shown, xaid.memory.vectors)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar

import apsw
import pytest

from xaid.memory import retrieve, shown, vectors
from xaid.memory.embeddings import Embeddings
from xaid.store.db import connect

_T = TypeVar("_T")
DAY = retrieve.DAY_MS
# Days just before today: the start-up maintenance's forgetting curve, which runs on the real clock,
# leaves these turns alone.
RECENT = (time.time_ns() // 1_000_000 // DAY - 8) * DAY + 20 * 3_600_000


def give_days(c: Any, agent: str, turns: list[tuple[str, str]], days: int) -> None:
    """One session a day from ``RECENT`` on, each the same turns marked with its day, consolidated."""
    for day in range(days):
        ts = RECENT + day * DAY
        sid = c.session_open(agent, ts=ts)["session_id"]
        lines = [
            {"role": r, "text": f"{t} ({day})", "ts": ts + i * 60_000}
            for i, (r, t) in enumerate(turns)
        ]
        c.session_ingest(sid, lines)
        c.session_close(sid, ts=ts + 3_600_000, wait=True)


def search(c: Any, agent: str, query: str) -> list[dict[str, Any]]:
    """The items ``memory.search`` returns a week after ``RECENT`` at 1,000 tokens (untouched)."""
    found = c.memory_search(
        agent, query, k=200, budget_tokens=1000, ts=RECENT + 7 * DAY, touch=False
    )
    return list(found["items"])


def items(db: Path, agent: str) -> list[tuple[int, str, str]]:
    """The agent's memory items as stored: (item id, kind, text)."""
    conn = connect(db)
    try:
        return [
            (int(i), str(k), str(t))
            for i, k, t in conn.execute(
                "SELECT item_id, kind, text FROM memory_items WHERE agent_id = ?", (agent,)
            )
        ]
    finally:
        conn.close()


def _held_open(caches: Mapping[apsw.Connection, Mapping[str, _T]], agent: str) -> list[_T]:
    """What ``caches`` (per connection, per agent) hold for ``agent`` on open connections (a stopped
    daemon's closed connection may linger until it is collected, its caches with it)."""
    out = []
    for conn, held in list(caches.items()):
        try:
            conn.filename  # noqa: B018 - raises once the connection is closed
        except apsw.ConnectionClosedError:
            continue
        except apsw.ThreadingViolationError:
            pass  # open, and busy on the daemon's database thread
        if agent in held:
            out.append(held[agent])
    return out


def open_memos(agent: str) -> list[shown.Memo]:
    """The agent's memos on open connections."""
    return _held_open(shown._MEMOS, agent)


def open_vectors(agent: str) -> list[vectors.AgentVectors]:
    """The agent's vectors held on open connections."""
    return _held_open(vectors._CACHES, agent)


@pytest.fixture(autouse=True)
def searches_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """For a test module that imports it: what searches remember, with nothing else filling the rows
    and the lines (the warm after each consolidation, ``Embeddings.warm_agent``, is left out; its
    own test is test_embeddings_warm.py)."""

    async def no_warm(self: Embeddings, agent_id: str) -> None:
        return None

    monkeypatch.setattr(Embeddings, "warm_agent", no_warm)
