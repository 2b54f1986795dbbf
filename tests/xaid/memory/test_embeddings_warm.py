"""What a search would work out about new memories, worked out after each consolidation, through a
real daemon (in-process, real socket, real database, the real embedder; the scripted provider
drafts the episodes). English and Chinese turns.

A daemon runs for months: what start-up warmed (every line) is soon a small part of an agent's
memories. Without warming after each job the first search that met a new line drew it."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from testkit.inproc import InProcessDaemon

from . import warmed
from .test_pack import TURNS


def test_new_memories_are_worked_out_after_each_consolidation_before_any_search(
    tmp_path: Path,
) -> None:
    agent = f"mia-{uuid.uuid4().hex[:8]}"
    with InProcessDaemon(tmp_path / "d") as daemon, daemon.client() as c:
        c.agent_create(agent)
        warmed.give_days(c, agent, TURNS, 4)  # no search at all
        stored = warmed.items(daemon.db_path, agent)
        assert sum(k == "utterance" for _, k, _ in stored) == len(TURNS) * 4
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and sum(
            m.lines() for m in warmed.open_memos(agent)
        ) < len(stored):
            time.sleep(0.05)
        # every turn's, episode's and fact's line, with no search asked
        assert sum(m.lines() for m in warmed.open_memos(agent)) == len(stored)
        # and every vector's hubness, and the rows as floats to rank (after the last job's warm)
        while time.monotonic() < deadline and not all(
            near._floats is not None and set(near.row) <= set(near.hubs)
            for near in warmed.open_vectors(agent)
        ):
            time.sleep(0.05)
        held = warmed.open_vectors(agent)
        assert held and all(len(near) > len(TURNS) for near in held)
        for near in held:
            assert set(near.row) <= set(near.hubs)
            assert near._floats is not None and len(near._floats[1]) == len(near)
        found = warmed.search(c, agent, "What happened to my wrist?")
        assert any("wrist" in i["text"] for i in found)
        found_zh = warmed.search(c, agent, "我的手腕怎么了？")
        assert any("手腕" in i["text"] for i in found_zh)
