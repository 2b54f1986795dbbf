"""Values from clients end in the error code that names them (``bad_params``, ``busy``), never
``internal`` or ``storage_error``; stored data a read cannot handle never fails the read. A real
daemon over its socket; raw CBOR frames where the client library would not send the value."""

from __future__ import annotations

import struct
from pathlib import Path

import apsw
import cbor2
import pytest
from xaiclient import Client, XaiError
from xaiclient.wire import FrameDecoder, decode_payload

from testkit.inproc import InProcessDaemon
from xaid.clock import MAX_TS

WEATHER = {
    "name": "weather",
    "description": "the weather",
    "parameters": {"type": "object", "properties": {}},
}


def _code(fn: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(XaiError) as info:
        fn(*args, **kwargs)  # type: ignore[operator]
    return info.value.code


def test_a_huge_min_gap_and_a_huge_protocol_are_bad_params(client: Client) -> None:
    client.agent_create("mia")
    assert (
        _code(client.call, "scheduler.config", agent_id="mia", min_gap_hours=10**400)
        == "bad_params"
    )
    assert (
        _code(client.call, "scheduler.config", agent_id="mia", min_gap_hours=float("nan"))
        == "bad_params"
    )
    assert _code(client.call, "hello", protocol=[10**5001]) == "bad_params"
    assert _code(client.call, "hello", protocol=10**5001) == "bad_params"
    assert client.call("hello", protocol=[1])["protocol"] == 1


def _raw_call(path: Path, payload: bytes) -> dict[str, object]:
    import socket

    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(10)
    sock.connect(str(path))
    sock.sendall(struct.pack(">I", len(payload)) + payload)
    dec = FrameDecoder()
    try:
        while (body := dec.next_payload()) is None:
            dec.feed(sock.recv(65536))
        return decode_payload(body)
    finally:
        sock.close()


def test_a_tool_result_that_cannot_be_stored_is_bad_params_and_the_turn_goes_on(
    daemon: InProcessDaemon, client: Client
) -> None:
    client.agent_create("helper", config={"tools": [WEATHER]})
    sid = client.session_open("helper")["session_id"]
    stream = client.session_send(sid, "[[tool:weather {}]]")
    cyclic: list[object] = []
    cyclic.append(cyclic)
    for ev in stream:
        if ev.event != "tool_call":
            continue
        call_id = ev.data["call_id"]
        assert _code(client.session_tool_result, sid, call_id, {"temp": 10**5000}) == "bad_params"
        frame = cbor2.dumps(
            {
                "v": 1,
                "id": 77,
                "method": "session.tool_result",
                "params": {"session_id": sid, "call_id": call_id, "result": cyclic},
            },
            value_sharing=True,
        )
        reply = _raw_call(daemon.socket, frame)
        assert reply["ok"] is False and reply["error"]["code"] == "bad_params"  # type: ignore[index]
        client.session_tool_result(sid, call_id, {"temp_c": 4})
    assert stream.result["text"] == 'tool weather returned: {"temp_c": 4}'
    assert "did not answer" not in client.session_history(sid)["messages"][2]["text"]


def test_forget_all_during_a_live_turn_is_busy(tmp_path: Path) -> None:
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_LLM_SCRIPTED_DELAY_MS": "50"}) as d,
        d.client() as c,
        d.client() as other,
    ):
        c.agent_create("mia")
        sid = c.session_open("mia")["session_id"]
        stream = c.session_send(
            sid, "one two three four five six seven eight nine ten eleven twelve"
        )
        events = iter(stream)
        next(events)  # the reply is streaming
        assert _code(other.memory_forget, "mia", all=True) == "busy"
        for _ in events:
            pass
        assert stream.result["text"].startswith("echo: one two")
        assert other.memory_forget("mia", all=True)["deleted"] >= 2


@pytest.mark.parametrize(
    "text", ["one two three four five six seven eight", "我今天特别累，想早点睡觉了"]
)
def test_only_the_agent_that_is_replying_is_busy(tmp_path: Path, text: str) -> None:
    """agent.delete and memory.forget ask one question, LiveSessions.replying: the agent whose turn
    runs is busy, another agent is not."""
    with (
        InProcessDaemon(tmp_path / "d", env={"XAID_LLM_SCRIPTED_DELAY_MS": "50"}) as d,
        d.client() as c,
        d.client() as other,
    ):
        c.agent_create("mia")
        other.agent_create("leo")
        stream = c.session_send(c.session_open("mia")["session_id"], text)
        events = iter(stream)
        next(events)  # mia's reply is streaming
        assert _code(other.agent_delete, "mia") == "busy"
        assert _code(other.memory_forget, "mia", all=True) == "busy"
        assert other.memory_forget("leo", all=True)["deleted"] == 0
        assert other.agent_delete("leo") == {"deleted": "leo"}
        for _ in events:
            pass
        assert other.agent_delete("mia") == {"deleted": "mia"}


@pytest.mark.parametrize("zone", ["Asia/Shanghai", "Pacific/Kiritimati"])
def test_times_at_the_end_of_year_9999_east_of_utc(tmp_path: Path, zone: str) -> None:
    with InProcessDaemon(tmp_path / "d", env={"XAID_MEMORY_TIMEZONE": zone}) as d, d.client() as c:
        c.agent_create("mia")
        assert _code(c.session_open, "mia", ts=MAX_TS + 1) == "bad_params"
        sid = c.session_open("mia", ts=MAX_TS - 1000)["session_id"]
        said = [
            "My sister Anna arrives tomorrow, next week we fly to Kyoto.",
            "明天我妹妹来，下周我们去杭州。",
        ]
        for text in said:
            assert c.session_send(sid, text, ts=MAX_TS - 1000).finish()["text"].startswith("echo:")
        assert c.session_close(sid, wait=True)["episode_id"] is not None
        assert c.memory_search("mia", "Anna Kyoto", ts=MAX_TS)["items"]
        assert c.memory_search("mia", "杭州", ts=MAX_TS)["items"]


def test_stored_times_no_calendar_holds_do_not_fail_a_read(tmp_path: Path) -> None:
    """Rows written by an older xaid or by hand: the read shows the nearest day, never fails."""
    with InProcessDaemon(tmp_path / "d") as d:
        with d.client() as c:
            c.agent_create("mia")
            c.memory_import(
                "mia",
                facts=[{"text": "The user keeps bees in Umbria."}, {"text": "用户在云南养蜜蜂。"}],
            )
        d.stop()
        db = apsw.Connection(str(d.db_path))
        db.execute(
            "UPDATE facts SET created_ms = -70000000000000, updated_ms = 2 * 253402300799999"
        )
        db.execute("UPDATE memory_items SET ts_ms = -70000000000000")
        db.close()
        d.start()
        with d.client() as c:
            assert c.memory_search("mia", "bees Umbria")["items"]
            assert c.memory_search("mia", "云南蜜蜂")["items"]
            assert len(c.memory_list("mia", kind="fact")["items"]) == 2
