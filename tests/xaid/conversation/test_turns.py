"""Conversations end to end through a real daemon: streaming, persistence, cancellation, tools.

The scripted provider stands in for the LLM (it echoes, calls tools on request, and can be
slowed down per token), so every expected text below follows from the input.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xaiclient import AsyncClient, Client, XaiError
from xaiclient.client import Stream

from testkit.inproc import InProcessDaemon

LONG = " ".join(f"word{i}" for i in range(60))
WEATHER = {
    "name": "weather",
    "description": "Current weather in a city",
    "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}},
        "required": ["city"],
    },
}


def open_session(c: Client, agent: str = "mia", **agent_kw: object) -> str:
    try:
        c.agent_get(agent)
    except XaiError:
        c.agent_create(agent, **agent_kw)  # type: ignore[arg-type]
    return str(c.session_open(agent)["session_id"])


def test_streamed_reply_is_persisted_in_order(client: Client) -> None:
    sid = open_session(client, persona_init="Warm and brief.")
    stream = client.session_send(
        sid, "I start at the new job on Monday, 我很紧张", ref="m-1", speaker="Ann"
    )
    deltas = [ev.data["delta"] for ev in stream if ev.event == "text"]
    assert len(deltas) > 3  # streamed piece by piece, not in one lump
    assert (
        "".join(deltas)
        == stream.result["text"]
        == "echo: I start at the new job on Monday, 我很紧张"
    )
    history = client.session_history(sid)["messages"]
    assert [(m["role"], m["text"]) for m in history] == [
        ("user", "I start at the new job on Monday, 我很紧张"),
        ("assistant", stream.result["text"]),
    ]
    assert history[0]["ref"] == "m-1" and history[0]["speaker"] == "Ann"
    assert history[1]["ref"] == str(
        history[1]["id"]
    )  # the daemon's own id when the client gave none
    assert stream.result["usage"]["completion_tokens"] == len(deltas)


def test_explain_returns_the_system_prompt(client: Client) -> None:
    sid = open_session(client, persona_init="Speaks like a lighthouse keeper.")
    result = client.session_send(sid, "hello", explain=True).finish()
    assert "Speaks like a lighthouse keeper." in result["context"]["system_prompt"]


def test_restart_keeps_the_conversation_and_the_open_session(daemon: InProcessDaemon) -> None:
    with daemon.client() as c:
        sid = open_session(c)
        c.session_send(sid, "first").finish()
    daemon.stop()
    daemon.start()
    with daemon.client() as c:
        assert c.session_list("mia", open_only=True)["sessions"][0]["session_id"] == sid
        c.session_send(sid, "second").finish()
        texts = [m["text"] for m in c.session_history(sid)["messages"]]
    assert texts == ["first", "echo: first", "second", "echo: second"]


@pytest.fixture
def slow_daemon(tmp_path: Path) -> Iterator[InProcessDaemon]:
    with InProcessDaemon(tmp_path / "d", env={"XAID_LLM_SCRIPTED_DELAY_MS": "40"}) as proc:
        yield proc


def _cancel_after(stream: Stream, n: int) -> list[str]:
    received = []
    with pytest.raises(XaiError) as info:
        for ev in stream:
            received.append(ev.data["delta"])
            if len(received) == n:
                stream.cancel()
    assert info.value.code == "cancelled"
    return received


def test_cancelled_turn_leaves_a_consistent_session(slow_daemon: InProcessDaemon) -> None:
    with slow_daemon.client() as c:
        sid = open_session(c)
        received = _cancel_after(c.session_send(sid, LONG), 3)
        history = c.session_history(sid)["messages"]
        assert [m["role"] for m in history] == ["user", "assistant"]
        partial = history[1]
        assert partial["status"] == "interrupted"
        assert partial["text"].startswith("".join(received))
        assert len(partial["text"]) < len("echo: " + LONG)
        # the session is usable again at once
        assert c.session_send(sid, "still there?").finish()["text"] == "echo: still there?"


def test_vanished_client_stops_its_generation(slow_daemon: InProcessDaemon) -> None:
    c = slow_daemon.client()
    sid = open_session(c)
    stream = c.session_send(sid, LONG)
    next(iter(stream))
    c.close()  # the client disappears mid-stream
    with slow_daemon.client() as other:
        for _ in range(200):
            if other.status()["active_turns"] == 0:
                break
            threading.Event().wait(0.05)
        assert other.status()["active_turns"] == 0
        history = other.session_history(sid)["messages"]
        assert history[-1]["status"] == "interrupted"
        assert len(history[-1]["text"]) < len("echo: " + LONG)
        assert other.session_send(sid, "back").finish()["text"] == "echo: back"


def test_second_turn_on_a_busy_session_is_refused(slow_daemon: InProcessDaemon) -> None:
    with slow_daemon.client() as c:
        sid = open_session(c)
        first = c.session_send(sid, "one two three four")
        with pytest.raises(XaiError) as info:
            c.session_send(sid, "again").finish()
        assert info.value.code == "busy"
        assert first.finish()["text"] == "echo: one two three four"


def test_tool_round_trip(client: Client) -> None:
    sid = open_session(client, "helper", config={"tools": [WEATHER]})
    stream = client.session_send(sid, 'what is it like outside? [[tool:weather {"city": "Oslo"}]]')
    calls = []
    for ev in stream:
        if ev.event == "tool_call":
            calls.append(ev.data)
            client.session_tool_result(sid, ev.data["call_id"], {"temp_c": -3, "sky": "snow"})
    assert calls == [
        {"call_id": calls[0]["call_id"], "name": "weather", "arguments": {"city": "Oslo"}}
    ]
    assert stream.result["text"] == 'tool weather returned: {"temp_c": -3, "sky": "snow"}'
    roles = [
        (m["role"], m.get("tool_calls", [{}])[0].get("name"))
        for m in client.session_history(sid)["messages"]
    ]
    assert roles == [("user", None), ("assistant", "weather"), ("tool", None), ("assistant", None)]


def test_tool_result_for_an_unknown_call(client: Client) -> None:
    sid = open_session(client)
    with pytest.raises(XaiError) as info:
        client.session_tool_result(sid, "call_404", "x")
    assert info.value.code == "not_found"


def test_unanswered_tool_call_times_out_and_the_history_stays_readable(tmp_path: Path) -> None:
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_LLM_TOOL_TIMEOUT": "0.3"}) as proc,
        proc.client() as c,
    ):
        sid = open_session(c, "helper", config={"tools": [WEATHER]})
        with pytest.raises(XaiError) as info:
            c.session_send(sid, "[[tool:weather {}]]").finish()
        assert info.value.code == "timeout"
        history = c.session_history(sid)["messages"]
        assert [m["role"] for m in history] == ["user", "assistant", "tool"]
        assert "did not answer" in history[-1]["text"]
        assert c.session_send(sid, "ok then").finish()["text"] == "echo: ok then"


def test_agent_config_is_validated(client: Client) -> None:
    config: dict[str, Any]
    for config in (
        {"tool": []},
        {"tools": [{"name": "bad name"}]},
        {"tools": [WEATHER, WEATHER]},
        {"max_tokens": 0},
    ):
        with pytest.raises(XaiError) as info:
            client.agent_create("x", config=config)
        assert info.value.code == "bad_params"
    assert client.agent_list()["agents"] == []


def test_agent_update_and_delete_cascade(client: Client) -> None:
    sid = open_session(client)
    client.session_send(sid, "remember this").finish()
    updated = client.agent_update("mia", name="Mia 2", config={"max_tokens": 3})
    assert (updated["name"], updated["config"]) == ("Mia 2", {"max_tokens": 3})
    assert client.session_send(sid, "a b c d e f").finish()["text"] == "echo: a b"
    with pytest.raises(XaiError) as info:
        client.agent_create("mia")
    assert info.value.code == "conflict"
    client.agent_delete("mia")
    for call in (lambda: client.agent_get("mia"), lambda: client.session_history(sid)):
        with pytest.raises(XaiError) as info:
            call()
        assert info.value.code == "not_found"


def test_closed_session_refuses_new_messages(client: Client) -> None:
    sid = open_session(client)
    closed = client.session_close(sid, ts=1_800_000_000_000)
    assert closed["closed_ms"] >= 1_800_000_000_000 - 1
    with pytest.raises(XaiError) as info:
        client.session_send(sid, "hello?").finish()
    assert info.value.code == "conflict"


def test_ingest_is_atomic_and_keeps_timestamps(client: Client) -> None:
    sid = open_session(client)
    msgs = [
        {
            "role": "user",
            "text": "I like Python",
            "ts": 1_700_000_000_000,
            "ref": "d1:1",
            "speaker": "Ann",
        },
        {"role": "assistant", "text": "Nice!", "ts": 1_700_000_001_000},
        {"role": "user", "text": "我喜欢猫", "ts": 1_700_000_002_000},
    ]
    assert client.session_ingest(sid, msgs)["count"] == 3
    with pytest.raises(XaiError) as info:
        client.session_ingest(
            sid, [{"role": "user", "text": "kept?"}, {"role": "robot", "text": "no"}]
        )
    assert info.value.code == "bad_params" and "messages[1]" in info.value.message
    history = client.session_history(sid)["messages"]
    assert [(m["text"], m["ts"], m["ref"]) for m in history] == [
        ("I like Python", 1_700_000_000_000, "d1:1"),
        ("Nice!", 1_700_000_001_000, str(history[1]["id"])),
        ("我喜欢猫", 1_700_000_002_000, str(history[2]["id"])),
    ]


def test_generation_queue_is_fair_across_agents(slow_daemon: InProcessDaemon) -> None:
    """Agent A queues three turns before agent B queues one: B must not wait behind all of A's.
    Memory and mood are off so that each turn goes straight to the queue: recall, and the mood's
    reading of the message by meaning (mood.turn_meaning), would embed each message first, one at a
    time behind the embedder's first load, and B's could reach the queue only after A's turns had
    run."""
    order: list[str] = []

    async def scenario() -> None:
        async with AsyncClient(slow_daemon.socket) as c:
            for agent in ("a", "b"):
                await c.agent_create(agent, config={"memory": False, "mood": False})
            a_sessions = [(await c.session_open("a"))["session_id"] for _ in range(3)]
            b_session = (await c.session_open("b"))["session_id"]

            async def turn(label: str, sid: str) -> None:
                await (await c.session_send(sid, "one two three")).finish()
                order.append(label)

            tasks = [asyncio.create_task(turn(f"a{i}", sid)) for i, sid in enumerate(a_sessions)]
            await asyncio.sleep(0.05)  # A's turns are queued first
            tasks.append(asyncio.create_task(turn("b", b_session)))
            await asyncio.gather(*tasks)

    asyncio.run(scenario())
    assert len(order) == 4
    assert order.index("b") < order.index("a2")


def test_async_client_many_calls_in_flight(daemon: InProcessDaemon) -> None:
    async def scenario() -> list[Any]:
        async with AsyncClient(daemon.socket) as c:
            await c.agent_create("many")
            sids = [(await c.session_open("many"))["session_id"] for _ in range(8)]
            replies = await asyncio.gather(
                *[(await c.session_send(sid, f"hello {i}")).finish() for i, sid in enumerate(sids)],
                *[c.ping() for _ in range(20)],
            )
            return list(replies)

    replies = asyncio.run(scenario())
    assert [r["text"] for r in replies[:8]] == [f"echo: hello {i}" for i in range(8)]
    assert replies[8:] == [{}] * 20
