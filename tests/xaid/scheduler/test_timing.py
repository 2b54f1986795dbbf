"""Follow-ups at the right time (issue 12 item 4), end to end through the daemon.

The scripted provider stands in for the LLM; what is checked is the first turn's ``explain``
context: whether a suggestion is there and what it is about.
"""

from __future__ import annotations

import pytest
from xaiclient import Client

HOUR = 3_600_000
DAY = 24 * HOUR
SUNDAY_NIGHT = 1_764_536_400_000  # 2025-11-30 21:00 UTC, a Sunday


def session(c: Client, agent: str, lines: list[str], ts: int) -> None:
    sid = c.session_open(agent, ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * 60_000).finish()
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)


def first_turn(c: Client, agent: str, text: str, ts: int) -> dict:
    sid = c.session_open(agent, ts=ts)["session_id"]
    context = c.session_send(sid, text, ts=ts, explain=True).finish()["context"]
    c.session_close(sid, ts=ts + 60_000, wait=True)
    return context


@pytest.mark.parametrize(
    ("said", "before", "after", "key"),
    [
        ("Tomorrow night is my first gig with the band, a bit scared.", 20, 35, "gig"),
        ("明天晚上公司年会，我要上台表演。", 20, 35, "年会"),
        ("The day after tomorrow I have the final round interviews at the bank.", 30, 60, "bank"),
        ("大后天我姐姐结婚，我是伴娘。", 40, 84, "结婚"),
        ("In four days I give the keynote at the conference.", 50, 108, "keynote"),
        ("下周末要带孩子去露营。", 5 * 24, 14 * 24, "露营"),
    ],
)
def test_a_near_relative_time_is_asked_about_after_it_happened(
    client: Client, said: str, before: int, after: int, key: str
) -> None:
    client.agent_create("mia")
    session(client, "mia", [said], SUNDAY_NIGHT)
    armed = client.call("scheduler.list", agent_id="mia")["items"]
    assert [i["scene"] for i in armed if i["scene"] in {"plan", "worry"}], armed
    # before it: asked how they feel about it, never how it went (issue 25: "good luck for Thursday")
    ahead = first_turn(client, "mia", "hi", SUNDAY_NIGHT + before * HOUR)["suggestion"]
    assert ahead is None or ("not happened yet" in ahead or "还没到" in ahead), ahead
    context = first_turn(client, "mia", "hello", SUNDAY_NIGHT + after * HOUR)
    assert context["suggestion"] and key in context["suggestion"]
    assert "how it went" in context["suggestion"] or "后来怎么样了" in context["suggestion"]


@pytest.mark.parametrize(
    ("plan", "grief", "key"),
    [
        (
            "On Wednesday I have the dentist appointment for my wisdom tooth.",
            ["My grandfather passed away tonight.", "I can't stop crying."],
            "dentist",
        ),
        (
            "周三下午要去面试一家游戏公司。",
            ["我奶奶今天去世了。", "一直在哭，心里空空的。"],
            "面试",
        ),
    ],
)
def test_after_a_bereavement_an_older_matter_waits_until_the_mood_recovers(
    client: Client, plan: str, grief: list[str], key: str
) -> None:
    client.agent_create("mia")
    client.call("scheduler.config", agent_id="mia", min_gap_hours=0)
    session(client, "mia", [plan], SUNDAY_NIGHT)  # the matter: Wednesday, due from Thursday 00:00
    session(client, "mia", grief, SUNDAY_NIGHT + DAY)  # Monday night: a death
    thursday = SUNDAY_NIGHT + 3 * DAY + 11 * HOUR
    seen = [
        first_turn(client, "mia", text, thursday + n * HOUR)
        for n, text in enumerate(["hi", "hey", "hello"])
    ]
    assert not any(c["suggestion"] and key in c["suggestion"] for c in seen)
    assert any("grieving" in c["suggestion_reason"] for c in seen)
    recovered = first_turn(client, "mia", "hi again", SUNDAY_NIGHT + 9 * DAY)
    assert recovered["suggestion"] and key in recovered["suggestion"]


@pytest.mark.parametrize(
    ("older", "fresher", "key"),
    [
        (
            "Dentist appointment on Monday, just a cleaning.",
            "Job interview at the studio on Thursday.",
            "interview",
        ),
        ("周一去体检。", "周四有个面试。", "面试"),
    ],
)
def test_of_several_passed_matters_the_fresher_one_is_the_one_suggestion(
    client: Client, older: str, fresher: str, key: str
) -> None:
    client.agent_create("mia")
    session(client, "mia", [older], SUNDAY_NIGHT - 2 * HOUR)
    session(client, "mia", [fresher], SUNDAY_NIGHT)
    friday = SUNDAY_NIGHT + 5 * DAY - 2 * HOUR  # Friday 19:00: both have passed
    context = first_turn(client, "mia", "hey", friday)
    assert context["suggestion"] and key in context["suggestion"]
    again = first_turn(client, "mia", "me again", friday + 2 * HOUR)
    assert again["suggestion"] is None


@pytest.mark.parametrize(
    ("plans", "news"),
    [
        (
            [
                "On Wednesday I have the job interview at the bakery.",
                "Also on Wednesday: my driving test, scary.",
            ],
            "It went well, I think!",
        ),
        (["周三上午要去面试一家书店。", "周三下午还有驾照考试，好紧张。"], "挺顺利的！"),
    ],
)
def test_news_that_names_no_matter_answers_the_question_asked_not_every_due_matter(
    client: Client, plans: list[str], news: str
) -> None:
    client.agent_create("mia")
    client.call("scheduler.config", agent_id="mia", min_gap_hours=0)
    session(client, "mia", plans, SUNDAY_NIGHT)
    items = client.call("scheduler.list", agent_id="mia")["items"]
    # the plans asked about after Wednesday (their twins asked before it have expired by Thursday)
    armed = {i["item_id"] for i in items if i["scene"] != "ahead"}
    assert len(armed) >= 2, armed
    thursday = SUNDAY_NIGHT + 3 * DAY + 12 * HOUR
    sid = client.session_open("mia", ts=thursday)["session_id"]
    asked = client.session_send(sid, "hey", ts=thursday, explain=True).finish()["context"][
        "suggestion"
    ]
    client.session_send(sid, news, ts=thursday + 60_000).finish()
    client.session_close(sid, ts=thursday + 120_000, wait=True)
    every = ["pending", "pushed", "expired", "resolved", "cancelled"]
    after = {
        i["item_id"]: i["state"]
        for i in client.call("scheduler.list", agent_id="mia", states=every)["items"]
    }
    # the news answers the question asked; the other matter is still to be asked about
    assert asked and sorted(after[k] for k in armed) == ["pending", "pushed"], after
