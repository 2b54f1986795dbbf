"""Forget by query takes what matched, not what sat beside it (issue 15 item 5): the sentence of a
summary, the fact, the turn; the profile is rewritten, not dropped; the words leave the -wal file.
Through a real daemon and its SQLite files; the scripted provider stands in for the LLM."""

from __future__ import annotations

from pathlib import Path

import pytest
from xaiclient import Client

from testkit.inproc import InProcessDaemon

T0 = 1_764_619_200_000  # 2025-12-01 20:00 UTC
HOUR = 3_600_000


def session(c: Client, agent: str, lines: list[str], ts: int) -> None:
    sid = c.session_open(agent, ts=ts)["session_id"]
    for i, line in enumerate(lines):
        c.session_send(sid, line, ts=ts + i * 60_000).finish()
    c.session_close(sid, ts=ts + len(lines) * 60_000, wait=True)


CASES = [
    (
        [
            "我是程序员，天天写代码。",
            "我妹妹叫小美，下个月在杭州结婚。",
            "最近加班太多，累死了，整个人都被掏空了。",
        ],
        "程序员",
        "小美",
        "累",
    ),
    (
        [
            "I'm a programmer at a small agency.",
            "My sister is called Ana, she is getting married in Porto next month.",
            "Work has been brutal lately, I'm completely exhausted.",
        ],
        "programmer",
        "Ana",
        "exhausted",
    ),
]


@pytest.mark.parametrize(("lines", "forgotten", "sister", "tired"), CASES)
def test_forgetting_one_thing_keeps_the_rest_of_the_summary_and_the_follow_up(
    client: Client, lines: list[str], forgotten: str, sister: str, tired: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", lines, T0)
    [before] = client.memory_list("mia", kind="episode")["items"]
    assert forgotten in before["summary"] and sister in before["summary"]
    follow_ups = client.call("scheduler.list", agent_id="mia")["items"]
    assert follow_ups
    assert client.memory_forget("mia", query=forgotten)["deleted"] >= 1
    [after] = client.memory_list("mia", kind="episode")["items"]
    assert after["episode_id"] == before["episode_id"]
    assert forgotten.casefold() not in after["summary"].casefold()
    assert sister in after["summary"] and tired in after["summary"]
    assert [i["item_id"] for i in client.call("scheduler.list", agent_id="mia")["items"]] == [
        i["item_id"] for i in follow_ups
    ]
    found = client.memory_search("mia", forgotten, ts=T0 + HOUR, touch=False)["items"]
    assert not any(forgotten.casefold() in i["text"].casefold() for i in found)
    assert any(
        sister in i["text"]
        for i in client.memory_search("mia", sister, ts=T0 + HOUR, touch=False)["items"]
    )


@pytest.mark.parametrize(("lines", "forgotten", "sister", "tired"), CASES)
def test_the_profile_is_rewritten_without_the_forgotten_part(
    client: Client, lines: list[str], forgotten: str, sister: str, tired: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", lines, T0)
    sid = client.session_open("mia", ts=T0 + 12 * HOUR)["session_id"]
    head = client.session_send(sid, "hi", ts=T0 + 12 * HOUR, explain=True).finish()["context"][
        "system_prompt"
    ]
    assert "What you know about the user" in head and forgotten in head and sister in head
    client.memory_forget("mia", query=forgotten)
    sid = client.session_open("mia", ts=T0 + 13 * HOUR)["session_id"]
    head = client.session_send(sid, "hello", ts=T0 + 13 * HOUR, explain=True).finish()["context"][
        "system_prompt"
    ]
    assert "What you know about the user" in head and sister in head
    assert forgotten.casefold() not in head.casefold()


@pytest.mark.parametrize(
    ("word", "line"),
    [
        ("Zanzibar", "I secretly applied for a job in Zanzibar."),
        ("桂林", "我偷偷报名了桂林的一份工作。"),
    ],
)
def test_forgotten_words_leave_the_wal_file(
    daemon: InProcessDaemon, client: Client, word: str, line: str
) -> None:
    client.agent_create("mia", name="Kai")
    session(client, "mia", [line, "anyway, how are you?"], T0)
    wal = Path(str(daemon.db_path) + "-wal")
    needle = word.encode("utf-8")
    assert needle in wal.read_bytes() or needle in daemon.db_path.read_bytes()
    client.memory_forget("mia", query=word)
    assert needle not in (wal.read_bytes() if wal.exists() else b"")
    assert needle not in daemon.db_path.read_bytes()
