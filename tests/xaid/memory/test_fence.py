"""Forget wins over a consolidation in flight (xaid.memory.fence).

A real daemon: the scripted provider (standing in for the LLM) streams with a delay, so a session
whose rules are unsure waits for the model's summary between reading its messages and writing its
episode. A forget in that window must not be undone by the write.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon

T0 = 1_770_000_000_000
# Plain small talk (the rules find nothing that stands out, so the job asks the model for a summary),
# every line naming the word the user will forget.
LINES = [
    "the quillwort thing was ok",
    "yeah quillwort again",
    "hmm the quillwort",
    "so quillwort then",
    "ok quillwort",
    "the quillwort, fine",
]
LINES_ZH = ["那个蓝莓酱还行", "嗯蓝莓酱", "又是蓝莓酱", "蓝莓酱吧", "好吧蓝莓酱", "蓝莓酱嘛"]


def _waiting_for_the_model(c: Client) -> None:
    deadline = time.monotonic() + 60
    while c.stats()["memory"].get("llm_calls", 0) < 1:
        assert time.monotonic() < deadline, "the consolidation never asked the model"
        time.sleep(0.02)


def _start(c: Client, lines: list[str]) -> str:
    sid = c.session_open("mia", ts=T0)["session_id"]
    c.session_ingest(
        sid, [{"role": "user", "text": t, "ts": T0 + i * 60_000} for i, t in enumerate(lines)]
    )
    c.session_close(sid, wait=False)
    _waiting_for_the_model(c)
    return sid


@pytest.mark.parametrize(("lines", "word"), [(LINES, "quillwort"), (LINES_ZH, "蓝莓酱")])
def test_forget_by_query_during_consolidation_is_not_undone(
    tmp_path: Path, lines: list[str], word: str
) -> None:
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_LLM_SCRIPTED_DELAY_MS": "40"}) as d,
        d.client() as c,
    ):
        c.agent_create("mia")
        sid = _start(c, lines)
        assert c.memory_forget("mia", query=word)["deleted"] >= len(lines)
        c.session_close(sid, wait=True)  # the job has finished
        assert c.memory_search("mia", word)["items"] == []
        assert not any(word in e["summary"] for e in c.memory_list("mia", kind="episode")["items"])
        assert c.memory_list("mia", kind="utterance")["items"] == []
        assert c.stats()["memory"].get("consolidations_fenced", 0) >= 1


def test_forget_all_during_consolidation_leaves_nothing(tmp_path: Path) -> None:
    """And a session closed meanwhile is still consolidated: the job in flight finishes by its id,
    which a job queued after the forget must never have (job ids never repeat, migration 010)."""
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_LLM_SCRIPTED_DELAY_MS": "40"}) as d,
        d.client() as c,
    ):
        c.agent_create("mia")
        c.agent_create("kai")
        _start(c, LINES)
        c.memory_forget("mia", all=True)
        # queued while mia's job still waits for the model
        sid = c.session_open("kai", ts=T0)["session_id"]
        c.session_ingest(
            sid,
            [
                {"role": "user", "text": "My sister Anna moved to Kyoto last spring.", "ts": T0},
                {"role": "user", "text": "我妹妹去年春天搬到了京都。", "ts": T0 + 1},
            ],
        )
        with d.client(
            timeout=60
        ) as waiting:  # a job marked done by another's id never wakes this wait
            episode = waiting.session_close(sid, wait=True)["episode_id"]
        assert (
            episode is not None and "Anna" in c.memory_get("kai", f"episode:{episode}")["summary"]
        )
        deadline = time.monotonic() + 60
        while c.stats()["memory"].get("consolidations_fenced", 0) < 1:
            assert time.monotonic() < deadline, "the job in flight never met the fence"
            time.sleep(0.05)
        assert c.memory_list("mia", kind="episode")["items"] == []
        assert c.memory_list("mia", kind="utterance")["items"] == []
        assert c.memory_search("mia", "quillwort")["items"] == []
