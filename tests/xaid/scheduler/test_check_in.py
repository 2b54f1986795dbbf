"""scheduler.check_in: the first-turn suggestion for a conversation that opens outside session.send
(an MCP app), through a real daemon and database. The scripted provider is never asked: the day
before is consolidated by the rules."""

from __future__ import annotations

import pytest
from xaiclient import Client, NotFound

HOUR = 3_600_000
NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
MORNING = NIGHT + 11 * HOUR


def day0(c: Client, agent: str, line: str) -> None:
    c.agent_create(agent)
    sid = c.session_open(agent, ts=NIGHT)["session_id"]
    c.session_send(sid, line, ts=NIGHT).finish()
    c.session_close(sid, ts=NIGHT + 10 * 60_000, wait=True)


@pytest.mark.parametrize(
    ("said", "starts"),
    [
        ("The project crashed, I'm exhausted.", "Greet them, then ask one caring question"),
        ("最近项目搞崩了，很累", "先打招呼，再提起对方之前说的这件事"),
    ],
)
def test_the_morning_check_in(client: Client, said: str, starts: str) -> None:
    day0(client, "mia", said)
    peeked = client.call("scheduler.check_in", agent_id="mia", ts=MORNING, peek=True)
    assert peeked["reason"] == "all conditions hold" and peeked["suggestion"].startswith(starts)
    assert peeked["item"]["state"] == "pending"  # a peek records nothing
    assert client.call("scheduler.list", agent_id="mia")["items"][0]["pushed_ms"] is None

    got = client.call("scheduler.check_in", agent_id="mia", ts=MORNING)
    assert got["suggestion"] == peeked["suggestion"] and said[:6] in got["suggestion"]
    assert got["item"]["state"] == "pushed" and got["item"]["pushed_ms"] == MORNING
    assert got["item"]["pushed_session"] is None
    # the next opening does not ask the same again, nor does the next session's first turn
    again = client.call("scheduler.check_in", agent_id="mia", ts=MORNING + HOUR)
    assert again == {"suggestion": None, "item": None, "reason": "nothing is due"}
    sid = client.session_open("mia", ts=MORNING + 2 * HOUR)["session_id"]
    turn = client.session_send(sid, "hi", ts=MORNING + 2 * HOUR, explain=True).finish()
    assert turn["context"]["suggestion"] is None
    assert client.call("stats", agent_id="mia")["scheduler"]["pushes"] == 1


def test_the_same_conditions_as_a_first_turn(client: Client) -> None:
    day0(client, "mia", "The project crashed, I'm exhausted.")
    early = client.call("scheduler.check_in", agent_id="mia", ts=NIGHT + HOUR)
    assert early["suggestion"] is None and early["reason"] == "nothing is due"
    client.call("scheduler.config", agent_id="mia", quiet=True)
    quiet = client.call("scheduler.check_in", agent_id="mia", ts=MORNING)
    assert quiet == {"suggestion": None, "item": None, "reason": "quiet mode"}
    client.call("scheduler.config", agent_id="mia", quiet=False, enabled=False)
    off = client.call("scheduler.check_in", agent_id="mia", ts=MORNING)
    assert off["reason"] == "the scheduler is off for this agent"
    client.agent_update("mia", config={"memory": False})
    client.call("scheduler.config", agent_id="mia", enabled=True)
    assert client.call("scheduler.check_in", agent_id="mia", ts=MORNING)["reason"] == (
        "the scheduler is off"
    )
    assert client.call("scheduler.list", agent_id="mia")["items"][0]["state"] == "pending"


def test_a_very_low_mood_holds_it_back(client: Client) -> None:
    day0(client, "mia", "The project crashed, I'm exhausted.")
    sid = client.session_open("mia", ts=MORNING - HOUR)["session_id"]
    client.session_send(
        sid, "I feel terrible, so sad and hopeless 😭😭", ts=MORNING - HOUR
    ).finish()
    low = client.call("scheduler.check_in", agent_id="mia", ts=MORNING)
    assert low["suggestion"] is None
    assert low["reason"] == "the user is very low right now", client.mood_get("mia", ts=MORNING)


def test_unknown_agent(client: Client) -> None:
    with pytest.raises(NotFound):
        client.call("scheduler.check_in", agent_id="nobody")
