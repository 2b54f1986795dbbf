"""The one erase path (xaid.memory.erase), item by item of issue 22: each test failed on the code
before it. Real daemon, real socket, real SQLite files; the scripted provider stands in for the
model where a tool call is needed (it calls the tool the user's message names)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import anyio
import apsw
import pytest
from xaiclient import Client, XaiError

from testkit.inproc import InProcessDaemon
from xaid.app import App
from xaid.clock import ManualClock
from xaid.config import Config
from xaid.conversation.generation import GenerationQueue
from xaid.conversation.turns import ShownBlock
from xaid.memory import fence, forget
from xaid.providers.scripted import ScriptedProvider
from xaid.store import Database
from xaid.store import agents as agent_sql
from xaid.store import sessions as session_sql
from xaid.store.agents import Agent

WEATHER = {
    "name": "weather",
    "description": "Current weather in a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
}
NOW = int(time.time() * 1000) - 86_400_000  # recent: the forgetting curve leaves it alone
T0 = 1_780_000_000_000


def files_hold(daemon: InProcessDaemon, word: str) -> bool:
    needle = word.encode("utf-8")
    wal = Path(str(daemon.db_path) + "-wal")
    return needle in daemon.db_path.read_bytes() or (wal.exists() and needle in wal.read_bytes())


def imported_only(client: Client, agent: str, word: str) -> None:
    """Memories that came by import alone: no message exists anywhere in the database."""
    line = {
        "session_id": "s_elsewhere",
        "started_ms": NOW,
        "ended_ms": NOW + 60_000,
        "summary": f"They talked about {word} and the long winter.",
        "highlights": [{"text": f"I miss {word} so much."}],
    }
    client.memory_import(
        agent,
        files={"x/2026-01/a.jsonl": json.dumps(line, ensure_ascii=False) + "\n"},
        facts=[
            {"subject": "user.friend", "kind": "person", "text": f"The user's friend is {word}."}
        ],
    )


@pytest.mark.parametrize("word", ["Zhytomyr", "阿飞"])
def test_forget_all_works_on_a_database_without_messages(client: Client, word: str) -> None:
    """Item 1: ``max(message_id)`` over no messages was written into meta.value (NOT NULL)."""
    client.agent_create("mia")
    imported_only(client, "mia", word)
    assert client.memory_forget("mia", all=True)["deleted"] >= 2
    assert client.memory_list("mia", kind="fact")["items"] == []
    assert client.memory_list("mia", kind="episode")["items"] == []


@pytest.mark.parametrize(
    ("word", "line"),
    [
        ("Zhytomyr", 'what is it like in Zhytomyr? [[tool:weather {"city": "Zhytomyr"}]]'),
        ("日托米尔", '日托米尔今天天气怎么样？[[tool:weather {"city": "日托米尔"}]]'),
    ],
)
def test_forget_by_query_takes_the_tool_call_that_quoted_it(
    daemon: InProcessDaemon, client: Client, word: str, line: str
) -> None:
    """Item 3: the assistant message's ``tool_calls`` kept the word after forget {query}. The call
    goes with its answer, so the history left is still one a chat template reads."""
    client.agent_create("mia", config={"tools": [WEATHER]})
    sid = client.session_open("mia")["session_id"]
    stream = client.session_send(sid, line)
    for ev in stream:
        if ev.event == "tool_call":
            client.session_tool_result(sid, ev.data["call_id"], {"sky": "clear"})
    client.session_send(sid, "thanks, and how are you?").finish()
    assert word in json.dumps(client.session_history(sid), ensure_ascii=False)
    assert client.memory_forget("mia", query=word)["deleted"] >= 1
    history = client.session_history(sid)["messages"]
    assert word not in json.dumps(history, ensure_ascii=False)
    # the reply after the tool's answer, then the other turn whole; no call or answer left alone
    assert [m["role"] for m in history] == ["assistant", "user", "assistant"]
    assert not any(m.get("tool_calls") for m in history)
    assert not files_hold(daemon, word)


@pytest.mark.parametrize("word", ["Zhytomyr", "阿飞"])
def test_agent_delete_leaves_nothing_in_the_wal_file(
    daemon: InProcessDaemon, client: Client, word: str
) -> None:
    """Item 8: after agent.delete the words stayed in the -wal file until a later checkpoint."""
    client.agent_create("mia")
    sid = client.session_open("mia")["session_id"]
    client.session_send(sid, f"My friend {word} moved away last spring.").finish()
    client.session_close(sid, wait=True)
    assert files_hold(daemon, word)
    client.agent_delete("mia")
    assert not files_hold(daemon, word)
    with pytest.raises(XaiError) as info:
        client.agent_get("mia")
    assert info.value.code == "not_found"


@pytest.mark.parametrize(
    ("word", "topic"), [("Zhytomyr", "the trip next week"), ("阿飞", "下周的旅行")]
)
def test_forget_by_query_takes_scheduler_keywords(
    daemon: InProcessDaemon, client: Client, word: str, topic: str
) -> None:
    """Item 9: a follow-up whose keywords hold the word (its topic does not) survived forget {query}."""
    client.agent_create("mia")
    client.call(
        "scheduler.arm", agent_id="mia", topic=topic, keywords=[word.lower(), "trip", "旅行"]
    )
    client.call("scheduler.arm", agent_id="mia", topic="the dentist", keywords=["dentist"])
    assert client.memory_forget("mia", query=word)["deleted"] == 0  # follow-ups are not memories
    left = client.call("scheduler.list", agent_id="mia", states=["pending"])["items"]
    assert [i["topic"] for i in left] == ["the dentist"]
    assert not files_hold(daemon, word.lower())


@pytest.mark.parametrize("word", ["Zhytomyr", "阿飞"])
def test_forget_by_query_takes_an_imported_fact_history_and_subject(
    daemon: InProcessDaemon, client: Client, word: str
) -> None:
    """A fact whose subject names the word (an import may give any subject) goes with it."""
    client.agent_create("mia")
    client.memory_import(
        "mia", facts=[{"subject": f"friend.{word}", "kind": "person", "text": "Plays the cello."}]
    )
    assert client.memory_forget("mia", query=word)["deleted"] == 1
    assert client.memory_list("mia", kind="fact", status="all")["items"] == []
    assert not files_hold(daemon, word)


def test_every_forget_delete_and_maintain_path_on_an_empty_database(client: Client) -> None:
    """Nothing stored at all, not even another agent's message: every path answers, none fails."""
    maintained = client.call("memory.maintain")  # no agent at all yet
    assert maintained["episodes_deleted"] == 0 and maintained["messages_deleted"] == 0
    client.agent_create("mia")
    assert client.memory_forget("mia", all=True) == {"deleted": 0}
    assert client.memory_forget("mia", query="Zhytomyr") == {"deleted": 0}
    assert client.memory_forget("mia", query="阿飞") == {"deleted": 0}
    with pytest.raises(XaiError) as info:
        client.memory_forget("mia", id="fact:1")
    assert info.value.code == "not_found"
    maintained = client.call("memory.maintain")
    assert maintained["episodes_deleted"] == 0 and maintained["messages_deleted"] == 0
    sid = client.session_open("mia")["session_id"]
    client.session_send(sid, "forget that").finish()  # "that" with no message before it
    client.session_send(sid, "把刚才那句话删掉").finish()
    client.session_send(sid, "忘掉关于阿飞的事吧").finish()  # the in-chat forget, nothing to find
    client.session_send(sid, "forget what I told you about Zhytomyr").finish()
    client.session_close(sid, wait=True)
    assert client.memory_forget("mia", all=True)["deleted"] >= 0
    assert client.agent_delete("mia") == {"deleted": "mia"}
    assert client.call("memory.maintain")["episodes_deleted"] == 0
    with pytest.raises(XaiError) as info:
        client.agent_delete("mia")
    assert info.value.code == "not_found"


class ClosedSessions(ScriptedProvider):
    """The scripted provider, noting the sessions whose saved state it is told to drop, and the
    agents whose prompt heads (llama_cpp's head cache on disk) it is told to drop."""

    def __init__(self) -> None:
        super().__init__()
        self.closed: list[str] = []
        self.erased: list[str] = []

    def session_closed(self, session_id: str) -> None:
        self.closed.append(session_id)

    def agent_erased(self, agent_id: str) -> None:
        self.erased.append(agent_id)


@pytest.mark.parametrize("word", ["Zorblax", "阿飞"])
def test_an_erase_drops_the_copies_held_in_memory(tmp_path: Path, word: str) -> None:
    """The erase path, without a socket: the profile snapshots of the agent's open sessions go, the
    memories shown in them go when they held the word (and only those), llama.cpp's saved states of
    those sessions go; another agent's session keeps all of it."""
    provider = ClosedSessions()
    app = App.assemble(
        Config(), Database(tmp_path / "xaid.db"), GenerationQueue(provider, 4), ManualClock(T0)
    )

    def setup(conn: apsw.Connection) -> None:
        for agent, sid in (("mia", "s_mia"), ("kai", "s_kai")):
            agent_sql.insert(conn, Agent(agent, agent, "", {}, T0, T0))
            session_sql.insert_session(conn, sid, agent, T0)

    app.db.call(setup)
    turns = app.turns
    for agent, sid in (("mia", "s_mia"), ("kai", "s_kai")):
        turns.profiles[sid] = (agent, f"What you know about the user: a friend, {word}.")
        turns.shown[sid] = [
            ShownBlock(1, f"- the user's friend is {word}", frozenset()),
            ShownBlock(2, "- the user likes tea", frozenset()),
        ]
    folded = word.casefold()
    deleted = anyio.run(
        lambda: app.eraser.erase(
            "mia",
            lambda conn: forget.forget_text(conn, "mia", word),
            lambda text: folded in text.casefold(),
        )
    )
    assert deleted == 0
    assert "s_mia" not in turns.profiles and provider.closed == ["s_mia"]
    assert provider.erased == ["mia"]  # its heads on disk hold its profile
    assert [b.text for b in turns.shown["s_mia"]] == ["- the user likes tea"]
    assert "s_kai" in turns.profiles and len(turns.shown["s_kai"]) == 2
    assert app.db.call(fence.epoch, "mia") == 1 and app.db.call(fence.epoch, "kai") == 0
    app.close()
