"""Updates replace (issue 12 item 1): a new value of an exclusive subject makes the old statement
history everywhere a turn looks — facts, episode sentences, the user's turn and the reply to it —
while it stays inspectable. Through a real daemon; the scripted provider stands in for the LLM
(its replies echo the user, which is what makes a stale reply a test: it restates the old value)."""

from __future__ import annotations

import pytest
from xaiclient import Client

DAY = 86_400_000
T0 = 1_764_619_200_000  # 2025-12-01 20:00 UTC


def session(c: Client, agent: str, lines: list[str], ts: int) -> None:
    sid = c.session_open(agent, ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * 60_000).finish()
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)


def probe(c: Client, agent: str, text: str, ts: int) -> list[str]:
    sid = c.session_open(agent, ts=ts)["session_id"]
    context = c.session_send(sid, text, ts=ts, explain=True).finish()["context"]
    return [m["text"] for m in context.get("memories") or []]


@pytest.mark.parametrize(
    ("before", "after", "question", "new", "old"),
    [
        (
            "I drive a Volvo estate, twelve years old.",
            "I sold the Volvo, now I drive a Tesla Model 3.",
            "What car do I drive?",
            "Tesla",
            "twelve years",
        ),
        (
            "我开的是一辆大众朗逸，开了十年。",
            "朗逸卖掉了，现在开一辆比亚迪。",
            "我现在开什么车？",
            "比亚迪",
            "十年",
        ),
        (
            "My girlfriend is called Ines, she's a dentist.",
            "Ines and I broke up. My girlfriend now is called Mara.",
            "What's my girlfriend called?",
            "Mara",
            "dentist",
        ),
        (
            "我女朋友叫小雪，她是护士。",
            "我和小雪分手了，我现在的女朋友叫阿雅。",
            "我女朋友叫什么？",
            "阿雅",
            "护士",
        ),
        (
            "I work as an accountant at a big firm.",
            "I retrained, I'm a firefighter now.",
            "What do I do for a living?",
            "firefighter",
            "accountant",
        ),
        (
            "我住在青岛，离海边不远。",
            "我上个月搬到昆明了，还在适应。",
            "我现在住在哪里？",
            "昆明",
            "青岛",
        ),
    ],
)
def test_a_new_value_makes_the_old_statement_history(
    client: Client, before: str, after: str, question: str, new: str, old: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", [before], T0)
    session(client, "mia", [after], T0 + 7 * DAY)
    texts = probe(client, "mia", question, T0 + 14 * DAY)
    assert any(new in t for t in texts), texts
    assert not any(old in t for t in texts), texts
    everything = client.memory_list("mia", kind="utterance", limit=100)["items"]
    assert any(old in u["text"] for u in everything), "history stays inspectable"


def test_the_reply_to_a_superseded_turn_is_history_too(client: Client) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", ["I live in Leeds, near the station."], T0)
    session(client, "mia", ["I moved to Bristol last month."], T0 + 7 * DAY)
    turns = client.memory_list("mia", kind="utterance", limit=100)["items"]
    leeds = [u for u in turns if "Leeds" in u["text"]]
    assert {u["role"] for u in leeds} == {"user", "assistant"}
    assert all(u["status"] == "superseded" for u in leeds), leeds


def test_the_zh_morning_question_after_a_language_change_does_not_get_the_old_line_first(
    client: Client,
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", ["我主要用Python写代码，写了五年了。"], T0)
    session(client, "mia", ["现在我主要用Rust写代码了。"], T0 + 6 * DAY)
    texts = probe(client, "mia", "我现在主要用什么语言写代码？", T0 + 7 * DAY + 12 * 3_600_000)
    assert texts and "Python" not in texts[0] and any("Rust" in t for t in texts), texts
    assert not any("Python" in t for t in texts), texts
