"""The frames between the daemon and its model runner: records survive the trip, whole frames
cross a real socketpair, and the end of the other side is a distinct error."""

from __future__ import annotations

import dataclasses
import socket

import pytest

from xaid.config import LLMConfig
from xaid.providers.base import ChatMessage, Completion, GenerateRequest, ToolCall, ToolSpec
from xaid.providers.runner_frames import (
    FrameChannel,
    RunnerGone,
    completion_from_map,
    completion_to_map,
    config_from_map,
    config_to_map,
    request_from_map,
    request_to_map,
)

REQUEST = GenerateRequest(
    messages=(
        ChatMessage("system", "You are Mia. 你是小林，一个温和的朋友。"),
        ChatMessage("user", "What's the weather in Oslo? 奥斯陆天气怎么样？"),
        ChatMessage("assistant", "", (ToolCall("call_1", "weather", {"city": "奥斯陆"}),)),
        ChatMessage("tool", "晴，12°C", tool_call_id="call_1"),
    ),
    tools=(ToolSpec("weather", "Weather in a city", {"type": "object", "properties": {}}),),
    max_tokens=64,
    temperature=0.2,
    session="s-1",
    stop=("\n\n",),
    repeat_penalty=1.1,
    no_copy="我今天很累",
    no_copy_tokens=4,
    choices=("yes", "是", "no"),
)


def test_a_request_and_a_completion_come_back_equal() -> None:
    assert request_from_map(request_to_map(REQUEST)) == REQUEST
    out = Completion(
        "晴天。Sunny.", [ToolCall("c", "weather", {"city": "Oslo"})], 40, 3, "tool_calls", 12, 3.5
    )
    assert completion_from_map(completion_to_map(out)) == out
    weighed = Completion(prompt_tokens=40, choice_logprobs=(-0.1, -2.5, -30.0))
    assert completion_from_map(completion_to_map(weighed)) == weighed
    cfg = dataclasses.replace(LLMConfig(), model="smollm2-135m", n_ctx=1024, extra_buffers="off")
    assert config_from_map(config_to_map(cfg)) == cfg
    assert config_from_map({**config_to_map(cfg), "from_a_newer_daemon": 1}) == cfg


def test_frames_cross_a_socketpair_whole_and_the_end_is_runner_gone() -> None:
    a, b = socket.socketpair()
    ours, theirs = FrameChannel(a), FrameChannel(b)
    assert theirs.receive(timeout=0.01) is None  # nothing yet
    big = "长" * 30_000  # 90 KB: more than one recv, less than the socket buffer
    ours.send({"op": "piece", "id": 1, "text": big})
    ours.send({"op": "done", "id": 1, "completion": completion_to_map(Completion("ok"))})
    assert theirs.receive() == {"op": "piece", "id": 1, "text": big}
    assert theirs.receive(timeout=1)["op"] == "done"  # type: ignore[index]
    ours.close()
    with pytest.raises(RunnerGone):
        theirs.receive()
    with pytest.raises(RunnerGone):
        theirs.send({"op": "cancel", "id": 1})
    theirs.close()
