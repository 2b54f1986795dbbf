"""A turn stops what the model reads ahead in the middle of a chunk (xaid/providers/llama_interrupt.py),
with the real SmolLM2-135M in this process, and the runner's reader rings for turns only.

What must hold: a read stopped mid-chunk leaves whole chunks in the context, agreeing with what
llama-cpp-python counts, and the session's turn then answers as a cold read does; a ring while
nothing is read ahead never touches a turn.
"""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import pytest

from xaid.providers.base import ChatMessage
from xaid.providers.llama_cpp import PREWARM_CHUNK, LlamaCppProvider
from xaid.providers.runner import Inbox
from xaid.providers.runner_frames import FrameChannel

from .test_llama_prewarm import _answer, provider

HEADS = {
    "en": "You are Mia, a warm companion. The user likes long walks by the river. " * 8,
    "zh": "你是小林，一个温和的朋友。用户最近在准备考试，每天学习到很晚。" * 8,
}
SAID = {"en": "Morning! Any plans?", "zh": "早，今天有什么打算？"}


def first_token(p: LlamaCppProvider, lang: str, session: str) -> tuple[str, int]:
    """The greedy first piece of the session's turn and how many of its prompt tokens it found
    in the context (the prompt's length less what llama.cpp read)."""
    messages = (ChatMessage("system", HEADS[lang]), ChatMessage("user", SAID[lang]))
    out = _answer(p, messages, session, agent="a", tokens=1)
    assert out.prompt_eval_tokens is not None
    return out.text, out.prompt_tokens - out.prompt_eval_tokens


def kv_positions(p: LlamaCppProvider) -> int:
    """How many positions of sequence 0 llama.cpp's KV cache holds."""
    from llama_cpp import llama_cpp as low

    return int(low.llama_memory_seq_pos_max(low.llama_get_memory(p._llm.ctx), 0)) + 1


@pytest.mark.llm
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_turn_stops_a_read_ahead_mid_chunk_and_the_turn_answers_as_a_cold_read(
    tmp_path: Path, lang: str
) -> None:
    cold = provider(tmp_path / "cold")
    try:
        answer, _ = first_token(cold, lang, "s")
    finally:
        cold.close()
    p = provider(tmp_path / "p")
    try:
        asked = 0

        def a_turn_came_just_after_the_check() -> bool:
            """Rings after the first chunk, as the reader thread does when a turn's frame lands
            while the next chunk is being read; says nothing waits, so only the ring stops it."""
            nonlocal asked
            asked += 1
            if asked == 2:
                p.interrupt_reading()
            return False

        assert p.describe()["read_ahead_interruptible"]
        ahead = [{"role": "system", "content": HEADS[lang]}]
        assert p.read_ahead("s", ahead, a_turn_came_just_after_the_check) == "yielded"
        assert p.read_aheads["interrupted"] == 1
        # the aborted chunk left nothing behind: one whole chunk, as llama-cpp-python counts it
        assert p._llm.n_tokens == PREWARM_CHUNK
        assert kv_positions(p) == PREWARM_CHUNK
        warm, found = first_token(p, lang, "s")
    finally:
        p.close()
    # the turn went on from the chunk read ahead (llama.cpp's prompt-eval counter may book one
    # token of the aborted decode to it: measured 31 or 32 found)
    assert PREWARM_CHUNK - 1 <= found <= PREWARM_CHUNK
    assert warm == answer


@pytest.mark.llm
def test_a_ring_with_nothing_read_ahead_leaves_the_turn_alone(tmp_path: Path) -> None:
    cold = provider(tmp_path / "cold")
    try:
        answer, _ = first_token(cold, "zh", "s")
    finally:
        cold.close()
    p = provider(tmp_path / "p")
    try:
        p.interrupt_reading()  # before any read
        assert p.read_ahead("t", [{"role": "system", "content": HEADS["en"]}]) == "done"
        p.interrupt_reading()  # after a read that finished
        assert first_token(p, "zh", "s")[0] == answer
        assert p.read_aheads["interrupted"] == 0
    finally:
        p.close()


def test_the_runners_reader_rings_for_a_turn_and_for_nothing_else() -> None:
    """A turn is a ``generate`` of an agent's conversation; consolidation's calls (no agent) come
    a few milliseconds apart and would leave reading ahead no progress, so they do not ring."""
    ours, daemons = socket.socketpair()
    rings: list[int] = []
    inbox = Inbox(FrameChannel(ours), lambda: rings.append(inbox.requests.qsize()))
    reader = threading.Thread(target=inbox.read, daemon=True)
    reader.start()
    daemon = FrameChannel(daemons)
    try:
        daemon.send({"op": "prewarm", "agent": "a", "head": "You are Mia."})
        daemon.send({"op": "read_ahead", "session": "s", "agent": "a", "messages": []})
        daemon.send({"op": "generate", "id": 1, "request": {"agent": "", "session": ""}})
        daemon.send({"op": "generate", "id": 2, "request": {"agent": "a", "session": "s"}})
        daemon.send({"op": "cancel", "id": 2})
        daemon.send({"op": "forget", "session": "s"})
        deadline = time.monotonic() + 10
        while inbox.requests.qsize() < 5:  # every frame read before any is taken
            assert time.monotonic() < deadline
            time.sleep(0.01)
        ops = [inbox.requests.get(timeout=10)["op"] for _ in range(5)]  # type: ignore[index]
    finally:
        daemons.close()
        reader.join(timeout=10)
        ours.close()
    assert ops == ["prewarm", "read_ahead", "generate", "generate", "forget"]
    assert rings == [4]  # once, for the turn, with its frame already queued
