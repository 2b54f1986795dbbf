"""Fair shares between agents (xaid.shares; issue 22 item 7): one agent that fills the model's
queue or the open sessions gets ``overloaded``, while another agent's turn and session.open still
succeed. A real daemon with the scripted provider, slowed down so turns wait for the model: the
test is about the daemon's admission, not about the model's words."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from xaiclient import Client, XaiError

from testkit.inproc import InProcessDaemon
from xaid import shares

T0 = 1_770_000_000_000


def test_a_share_divides_the_cap_among_the_agents_holding_it() -> None:
    alone = shares.of(16, {}, "mia")
    assert (alone.share, alone.admitted) == (16, True)
    full = shares.of(16, {"mia": 16}, "mia")
    assert not full.admitted and "share" in full.why_not("turns", "llm.max_queue")
    newcomer = shares.of(16, {"mia": 16}, "小雨")  # arrives at a full queue: still half of it
    assert (newcomer.share, newcomer.admitted) == (8, True)
    assert not shares.of(16, {"mia": 16, "小雨": 8}, "小雨").admitted
    assert shares.of(1, {"mia": 1}, "小雨").admitted  # never less than one place
    ceiling = shares.of(4, {"a": 4, "b": 2, "c": 1, "d": 1}, "e")
    assert not ceiling.admitted and "twice" in ceiling.why_not("turns", "llm.max_queue")


def _wait_for(c: Client, waiting: int) -> None:
    for _ in range(400):  # polls the daemon's own count; no duration is asserted
        queue = c.status()["queue"]
        if queue["running"] and queue["waiting"] == waiting:
            return
        time.sleep(0.025)
    raise AssertionError(f"the queue never held {waiting} waiting turns")


def test_one_agent_filling_its_share_does_not_deny_another(tmp_path: Path) -> None:
    env = {
        "XAID_LLM_MAX_QUEUE": "2",
        "XAID_LLM_SCRIPTED_DELAY_MS": "150",
        "XAID_SERVER_MAX_OPEN_SESSIONS": "4",
    }
    with InProcessDaemon(tmp_path / "d", env=env) as d, d.client() as c, d.client() as watch:
        c.agent_create("mia")
        c.agent_create("小雨")
        mia = [c.session_open("mia", ts=T0)["session_id"] for _ in range(4)]
        with pytest.raises(XaiError) as info:  # mia alone holds the whole cap: 4 of 4
            c.session_open("mia", ts=T0)
        assert info.value.code == "overloaded" and "share" in info.value.message
        yu = c.session_open("小雨", ts=T0)["session_id"]  # the old global cap refused this
        with pytest.raises(XaiError) as info:  # now mia's share is 2, and it holds 4
            c.session_open("mia", ts=T0)
        assert info.value.code == "overloaded"

        texts = [
            "I moved to Lyon last spring.",
            "我妹妹住在杭州。",
            "Tell me about tea.",
            "我喜欢爬山。",
        ]
        running = [c.stream("session.send", session_id=mia[0], text=texts[0])]
        _wait_for(watch, 0)
        running += [
            c.stream("session.send", session_id=sid, text=text)
            for sid, text in zip(mia[1:3], texts[1:3], strict=True)
        ]
        _wait_for(watch, 2)  # one turn with the model, mia's whole share (2) waiting
        with pytest.raises(XaiError) as info:
            c.session_send(mia[3], texts[3]).finish()
        assert info.value.code == "overloaded" and "share" in info.value.message
        reply = watch.session_send(yu, "今天下雨了，我有点累。").finish()  # the old cap: overloaded
        assert reply["text"]
        assert all(s.finish()["text"] for s in running)
        assert [
            m["role"] for m in c.session_history(mia[3])["messages"]
        ] == []  # refused: not stored
