"""A matter that came due while the user was away is asked about at the next meeting, past its
window (fire.missed), end to end through the daemon.

The scripted provider stands in for the LLM (arming's rules decide the plan; nothing the model says
is read); what is checked is the first turn's ``explain`` context and the items' states.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

from xaid.scheduler.fire import AWAY_DAYS

from .test_timing import DAY, HOUR, SUNDAY_NIGHT, first_turn, session

EVERY = ["pending", "pushed", "expired", "resolved", "cancelled"]

PLANS = [
    ("Flying out tomorrow for the pitch to the new client, first one on my own.", "pitch"),
    ("明天去见新客户，第一次自己一个人去谈方案。", "客户"),
]


def plan_item(c: Client, agent: str) -> dict:
    items = c.call("scheduler.list", agent_id=agent, states=EVERY)["items"]
    return next(i for i in items if i["scene"] in ("plan", "worry"))


@pytest.mark.parametrize(("said", "key"), PLANS)
def test_a_plan_due_while_they_were_away_is_asked_at_the_next_meeting(
    client: Client, said: str, key: str
) -> None:
    client.agent_create("mia")
    session(client, "mia", [said], SUNDAY_NIGHT)
    item = plan_item(client, "mia")
    back = item["not_after"] + 2 * DAY  # ten days or so: the week of asking is over
    context = first_turn(client, "mia", "Hey, I'm back." if key == "pitch" else "我回来啦", back)
    assert context["suggestion"] and key in context["suggestion"], context
    assert plan_item(client, "mia")["state"] == "pushed"


@pytest.mark.parametrize(("said", "key"), PLANS)
def test_a_meeting_since_it_came_due_lets_the_window_close(
    client: Client, said: str, key: str
) -> None:
    client.agent_create("mia")
    session(client, "mia", [said], SUNDAY_NIGHT)
    item = plan_item(client, "mia")
    # they talked after it came due (quiet mode: nothing suggested then), then went away
    client.call("scheduler.config", agent_id="mia", quiet=True)
    session(client, "mia", ["just a quick hello"], item["not_before"] + 2 * HOUR)
    client.call("scheduler.config", agent_id="mia", quiet=False)
    assert plan_item(client, "mia")["state"] == "pending"
    context = first_turn(client, "mia", "hi", item["not_after"] + 2 * DAY)
    assert not context["suggestion"] or key not in context["suggestion"], context
    assert plan_item(client, "mia")["state"] == "expired"


@pytest.mark.parametrize(("said", "key"), PLANS)
def test_away_too_long_the_matter_is_let_go(client: Client, said: str, key: str) -> None:
    client.agent_create("mia")
    session(client, "mia", [said], SUNDAY_NIGHT)
    item = plan_item(client, "mia")
    context = first_turn(client, "mia", "hi", item["not_before"] + (AWAY_DAYS + 1) * DAY)
    assert not context["suggestion"] or key not in context["suggestion"], context
    assert plan_item(client, "mia")["state"] == "expired"
