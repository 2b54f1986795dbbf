"""The prompt's layout through the daemon: what stays put across a session's turns.

The scripted provider stands in for the LLM (llama.cpp and its KV cache): what is checked is the
context a model would read (``explain``), turn after turn, on a real daemon and database.
"""

from __future__ import annotations

from pathlib import Path

import apsw

from xaid.testing import DaemonProcess

T0 = 1_764_579_600_000  # some morning, 09:00 UTC
MINUTE = 60_000


def test_the_head_stays_byte_identical_when_the_mood_crosses_a_band(tmp_path: Path) -> None:
    """Regression: the tone used to be in the head, so this turn re-read the whole prompt."""
    with DaemonProcess(tmp_path / "d") as proc, proc.client() as c:
        c.agent_create("mia", name="Mia")
        sid = c.session_open("mia", ts=T0)["session_id"]
        texts = ["hi there", "I'm completely exhausted, worst day ever, so so tired", "thanks", "累死了，真的好累"]
        turns = [c.session_send(sid, t, ts=T0 + i * MINUTE, explain=True).finish()["context"]
                 for i, t in enumerate(texts)]
    assert turns[0]["tone"] is None and turns[1]["tone"] is not None
    assert len({t["system_prompt"] for t in turns}) == 1
    assert turns[1]["tone"] in turns[1]["directive"] and "Tone:" not in turns[1]["system_prompt"]
    assert turns[3]["lang"] == "zh" and turns[3]["directive"].startswith("你是Mia")
    assert turns[3]["tone"] and turns[3]["tone"].startswith("语气：")


def test_layer_a_folds_reach_the_prompt_only_when_the_context_is_full(tmp_path: Path) -> None:
    env = {"XAID_MEMORY_COMPRESS_EVERY": "6"}
    with DaemonProcess(tmp_path / "d", env=env) as proc:
        with proc.client() as c:
            c.agent_create("mia", name="Mia")
            sid = c.session_open("mia", ts=T0)["session_id"]
            earlier = [c.session_send(sid, f"my plant number {i} needs water", ts=T0 + i * MINUTE,
                                      explain=True).finish()["context"]["earlier"] for i in range(8)]
        proc.stop()
        conn = apsw.Connection(str(proc.db_path))
        chunks = conn.execute("SELECT count(*) FROM compressions WHERE session_id = ?", (sid,)).fetchone()[0]
        conn.close()
    assert chunks >= 2  # Layer A folded as before ...
    assert earlier == [[]] * 8  # ... but 16 short messages fit 4,096 tokens: the prompt kept them verbatim
