"""The acceptance scene end to end through the daemon, and the scheduler's controls.

The scripted provider stands in for the LLM: what is checked is the first-turn context the model
would read (``explain``): yesterday's episode, the fatigue tone, and at most one suggestion.
"""

from __future__ import annotations

import pytest
from xaiclient import Client, XaiError

HOUR = 3_600_000
DAY = 24 * HOUR
NIGHT = 1_764_536_400_000  # day 0, 21:00 UTC
MORNING = NIGHT + 11 * HOUR


def day0(c: Client, agent: str, lines: list[str], **agent_kw: object) -> None:
    c.agent_create(agent, **agent_kw)  # type: ignore[arg-type]
    sid = c.session_open(agent, ts=NIGHT)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=NIGHT + i * 60_000).finish()
    c.session_close(sid, ts=NIGHT + 10 * 60_000, wait=True)


def first_turn(c: Client, agent: str, text: str, ts: int) -> dict:
    sid = c.session_open(agent, ts=ts)["session_id"]
    return c.session_send(sid, text, ts=ts, explain=True).finish()["context"]


@pytest.mark.parametrize(
    ("said", "morning"),
    [
        (["The project crashed, I'm exhausted."], "Morning"),
        (["最近项目搞崩了，很累"], "早"),
    ],
)
def test_the_morning_scene(client: Client, said: list[str], morning: str) -> None:
    day0(client, "mia", said)
    armed = client.call("scheduler.list", agent_id="mia")["items"]
    assert len(armed) == 1 and armed[0]["scene"] == "emotion"
    context = first_turn(client, "mia", morning, MORNING)
    assert [m["when"] for m in context["memories"] if m["kind"] == "episode"] == ["yesterday"]
    english = morning.isascii()
    assert context["tone"] and ("tired" in context["tone"] if english else "累" in context["tone"])
    # a directive in the user's language, which a small model acts on (not "consider asking about")
    assert context["suggestion"] and context["suggestion"].startswith(
        "Greet them, then ask one caring question"
        if english
        else "先打招呼，再提起对方之前说的这件事"
    )
    assert context["suggestion"] in context["directive"]
    assert said[0][:8] in context["suggestion"]
    # a second session the same day: no second suggestion
    again = first_turn(client, "mia", morning, MORNING + 3 * HOUR)
    assert again["suggestion"] is None and again["suggestion_reason"] == "nothing is due"
    stats = client.call("stats", agent_id="mia")["scheduler"]
    assert stats["pushes"] == 1


def test_no_suggestion_when_the_user_is_very_low(client: Client) -> None:
    day0(client, "mia", ["I'm devastated. Everything is awful, I just want to cry 😭😭"])
    assert client.call("scheduler.list", agent_id="mia")["items"]
    context = first_turn(client, "mia", "I feel terrible, so sad and hopeless", MORNING)
    assert context["suggestion"] is None and "very low" in context["suggestion_reason"]


def test_no_suggestion_with_the_scheduler_off_or_quiet(client: Client) -> None:
    day0(client, "mia", ["The project crashed, I'm exhausted."])
    assert client.call("scheduler.config", agent_id="mia", enabled=False)["enabled"] is False
    assert first_turn(client, "mia", "Morning", MORNING)["suggestion"] is None
    client.call("scheduler.config", agent_id="mia", enabled=True, quiet=True)
    quiet = first_turn(client, "mia", "Morning", MORNING + HOUR)
    assert quiet["suggestion"] is None and quiet["suggestion_reason"] == "quiet mode"
    assert client.call("scheduler.list", agent_id="mia")["items"]  # still armed, only silent


def test_a_plan_is_asked_about_after_it_not_before(client: Client) -> None:
    day0(client, "mia", ["I'm meeting the client next Friday, a bit nervous."])
    items = client.call("scheduler.list", agent_id="mia")["items"]
    item = next(i for i in items if i["scene"] != "ahead")
    assert (
        item["scene"] in {"plan", "worry"} and item["not_before"] == NIGHT + 4 * DAY + 20 * HOUR
    )  # day 0 is a Sunday: from Friday's end of work (no hour said)
    before = first_turn(client, "mia", "hi", NIGHT + 2 * DAY)
    # before it, how they feel about it (issue 25), never how it went
    assert before["suggestion"] and "not happened yet" in before["suggestion"]
    after = first_turn(client, "mia", "hi there", item["not_before"] + HOUR)
    assert after["suggestion"] and "client" in after["suggestion"]
    assert "how it went" in after["suggestion"]


def test_a_topic_the_user_raises_is_not_suggested(client: Client) -> None:
    day0(client, "mia", ["下周五我要去上海见客户，有点紧张。"])
    item = client.call("scheduler.list", agent_id="mia")["items"][0]
    context = first_turn(client, "mia", "见客户的事情很顺利！", item["not_before"] + HOUR)
    assert context["suggestion"] is None
    states = client.call("scheduler.list", agent_id="mia", states=["resolved"])["items"]
    assert states and states[0]["closed_reason"] == "the user brought it up"


def test_manual_arm_cancel_feedback_and_outcomes(client: Client) -> None:
    client.agent_create("mia")
    item = client.call(
        "scheduler.arm",
        agent_id="mia",
        topic="the dentist appointment",
        ts=NIGHT,
        not_before=NIGHT + HOUR,
        priority=0.9,
    )
    assert item["keywords"] and item["scene"] == "manual"
    other = client.call(
        "scheduler.arm", agent_id="mia", topic="the marathon", ts=NIGHT, not_before=NIGHT + HOUR
    )
    client.call("scheduler.cancel", agent_id="mia", item_id=other["item_id"])
    sid = client.session_open("mia", ts=NIGHT + 2 * HOUR)["session_id"]
    ctx = client.session_send(sid, "hey", ts=NIGHT + 2 * HOUR, explain=True).finish()["context"]
    assert "dentist" in ctx["suggestion"] and ctx["suggestion_item"] == item["item_id"]
    client.session_send(sid, "oh the dentist went fine", ts=NIGHT + 2 * HOUR + 60_000).finish()
    client.session_close(sid, ts=NIGHT + 3 * HOUR, wait=True)
    client.call("scheduler.feedback", agent_id="mia", item_id=item["item_id"], feedback="welcome")
    pushed = client.call("scheduler.list", agent_id="mia", states=["pushed"])["items"]
    assert pushed[0]["engaged"] is True and pushed[0]["feedback"] == "welcome"
    stats = client.call("stats", agent_id="mia")["scheduler"]
    assert stats["engagement_rate"] == 1.0 and stats["annoyance_rate"] == 0.0
    with pytest.raises(XaiError) as info:
        client.call(
            "scheduler.feedback", agent_id="mia", item_id=other["item_id"], feedback="annoying"
        )
    assert info.value.code == "not_found"  # never pushed
    with pytest.raises(XaiError) as info:
        client.call("scheduler.config", agent_id="mia", allow="plans")
    assert info.value.code == "bad_params"


@pytest.mark.parametrize(
    ("said", "history", "expected"),
    [
        (
            "The project crashed, I'm exhausted.",
            ["hey", "just got home"],
            True,
        ),  # synced small talk
        (
            "The project crashed, I'm exhausted.",
            ["the project crashed again lol"],
            False,
        ),  # it came up already
        ("最近项目搞崩了，很累", ["在吗", "刚到家"], True),
        ("最近项目搞崩了，很累", ["项目搞崩的事情解决了"], False),
    ],
)
def test_a_session_that_begins_with_ingested_history(
    client: Client, said: str, history: list[str], expected: bool
) -> None:
    """A client may sync its chat log into a new session before the user's first live message: the
    scheduler speaks at the first turn sent live, and what the synced history says counts as said."""
    day0(client, "mia", [said])
    sid = client.session_open("mia", ts=MORNING)["session_id"]
    client.session_ingest(
        sid, [{"role": "user", "text": t, "ts": MORNING + i} for i, t in enumerate(history)]
    )
    context = client.session_send(sid, "Morning", ts=MORNING + 60_000, explain=True).finish()[
        "context"
    ]
    assert (context["suggestion"] is not None) is expected, context["suggestion_reason"]
    again = client.session_send(sid, "anyway", ts=MORNING + 120_000, explain=True).finish()[
        "context"
    ]
    assert (
        again["suggestion"] is None
        and again["suggestion_reason"] == "not the first user turn of the session"
    )
