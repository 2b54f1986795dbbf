"""The scratch database most memory tests start from: two agents, "a" and "b", so that a test can
show that one agent's lines never turn up for the other."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from xaid.store import agents
from xaid.store.agents import Agent
from xaid.store.db import Database


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    db = Database(tmp_path / "memory.db")
    db.call(agents.insert, Agent("a", "a", "", {}, 0, 0))
    db.call(agents.insert, Agent("b", "b", "", {}, 0, 0))
    yield db
    db.close()
