"""A turn's slot of memories from the time its first word may take (memory.first_word_ms).

The slot holds what that time leaves at the provider's recent prompt-read rate after the turn's
directive and message; the rest of the turn's memories is held back and shown after the reply
(read while the user reads it). First with the scripted provider standing in for llama.cpp and
reporting a read rate (what llama_cpp's completions report), so the rate is exact; then through the
real runner (SmolLM2-135M), where the behaviour is the tokens the model reads, not a time.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon
from xaid.conversation import slot
from xaid.memory import retrieve
from xaid.providers.base import Completion, GenerateRequest
from xaid.providers.head_cache import agent_dir_name
from xaid.providers.scripted import ScriptedProvider
from xaid.text import tokens

T0 = 1_764_579_600_000  # a morning, 09:00 UTC
MINUTE = 60_000
DAY = 24 * 60 * MINUTE

HISTORY = [
    ("user", "My sister Lin is getting married in June and I still have no idea what to give her."),
    ("assistant", "A wedding! Does she like anything in particular, books or cooking?"),
    ("user", "She loves old film cameras and hiking in the mountains near Hangzhou."),
    ("user", "我最近项目搞崩了，客户周四要开会，压力好大。"),
    ("assistant", "听起来真的很累，周四的会你准备得怎么样了？"),
    ("user", "预算的幻灯片还没做完，老板又加了任务。"),
    ("user", "Also my cat Mochi has been sick, the vet said it's a kidney thing."),
    ("user", "我妹妹林的婚礼在六月，我想送她一台旧胶片相机。"),
    ("user", "The client meeting moved to Friday, at least I get one more day for the slides."),
    ("user", "周末想去海边游泳，不过天气预报说会下雨。"),
]
FIRST = {
    "en": "hey, what should I get Lin for the wedding?? camera or hiking stuff",
    "zh": "早～林的婚礼礼物我还没想好，相机还是登山装备？",
}


def _slot_tokens(context: dict[str, Any]) -> int:
    lines = [m["text"] for m in context["memories_new"]]
    if not lines:
        return 0
    return retrieve.header_tokens(context["lang"], True) + sum(
        tokens.count(t) + retrieve.LINE_TOKENS for t in lines
    )


def _ingest(c: Any, agent: str) -> None:
    for day in (3, 2):
        start = T0 - day * DAY
        sid = c.session_open(agent, ts=start)["session_id"]
        c.session_ingest(
            sid,
            [
                {"role": role, "text": text, "ts": start + i * MINUTE}
                for i, (role, text) in enumerate(HISTORY)
            ],
        )
        c.session_close(sid, ts=start + len(HISTORY) * MINUTE, wait=True)


def _first_turn(
    tmp: Path, monkeypatch: pytest.MonkeyPatch, lang: str, rate: float, env: dict[str, str]
) -> dict[str, Any]:
    """A session's first turn on the history, after a turn of another agent told the read rate."""
    real = ScriptedProvider.generate

    def generate(self: ScriptedProvider, request: GenerateRequest, emit: Any, c: Any) -> Completion:
        out = real(self, request, emit, c)
        out.prompt_eval_tokens = 100
        out.prompt_eval_ms = 100 / rate * 1000
        return out

    monkeypatch.setattr(ScriptedProvider, "generate", generate)
    with InProcessDaemon(tmp, env=env) as proc, proc.client() as c:
        c.agent_create("mia", name="Mia", persona_init="Warm, curious, a little teasing.")
        c.agent_create("bo", name="Bo")
        _ingest(c, "mia")
        other = c.session_open("bo", ts=T0 - MINUTE)["session_id"]
        c.session_send(other, "Hi Bo!", ts=T0 - MINUTE).finish()
        sid = c.session_open("mia", ts=T0)["session_id"]
        context: dict[str, Any] = c.session_send(sid, FIRST[lang], ts=T0, explain=True).finish()[
            "context"
        ]
        return context


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_at_a_slow_read_rate_the_slot_holds_what_the_time_leaves_and_the_rest_waits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    # 100 tokens/s and a second: the directive and the message leave less than the floor
    slow = _first_turn(tmp_path / "slow", monkeypatch, lang, 100.0, {})
    assert slow["memories_new"], slow  # the best line's sentence nearest the message ...
    assert 0 < _slot_tokens(slow) <= slot.FLOOR + 1
    assert slow["memories_held"]  # ... and the rest shown after the reply, not dropped
    # the clipped line keeps its speaker, and the line's "(when)" dates it: no bracketed date
    assert not slow["memories_new"][0]["text"].startswith("[")
    # main's way (memory.first_word_ms 0): the whole block before the first word
    whole = _first_turn(
        tmp_path / "off", monkeypatch, lang, 100.0, {"XAID_MEMORY_FIRST_WORD_MS": "0"}
    )
    assert _slot_tokens(whole) > 3 * slot.FLOOR and not whole["memories_held"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_machine_that_reads_fast_shows_the_whole_block_at_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    fast = _first_turn(tmp_path / "fast", monkeypatch, lang, 5000.0, {})
    assert _slot_tokens(fast) > 3 * slot.FLOOR and not fast["memories_held"]


def test_a_provider_that_tells_no_rate_is_not_capped(tmp_path: Path) -> None:
    """The scripted provider as it is (no read figures): nothing to budget with, main's way."""
    with InProcessDaemon(tmp_path, env={}) as proc, proc.client() as c:
        c.agent_create("mia", name="Mia")
        _ingest(c, "mia")
        sid = c.session_open("mia", ts=T0)["session_id"]
        context = c.session_send(sid, FIRST["en"], ts=T0, explain=True).finish()["context"]
    assert _slot_tokens(context) > 3 * slot.FLOOR and not context["memories_held"]


# --- through the real runner (SmolLM2-135M) ----------------------------------------------------

LLM_ENV = {
    "XAID_LLM_PROVIDER": "llama_cpp",
    "XAID_LLM_MODEL": "smollm2-135m",
    "XAID_LLM_N_CTX": "2048",
    "XAID_LLM_SEED": "7",
    "OMP_WAIT_POLICY": "PASSIVE",
}


def _head_files(proc: DaemonProcess, agent_id: str) -> list[Path]:
    return sorted((proc.state_dir / "head_cache" / agent_dir_name(agent_id)).glob("*.kv"))


def _real_first_turn(root: Path, lang: str, first_word_ms: str) -> tuple[int, int, bool]:
    """(prompt tokens read, prompt tokens, the head file gone after a forget) of a session's first
    turn on the history, its head read ahead after the history's consolidation."""
    proc = DaemonProcess(root, env={**LLM_ENV, "XAID_MEMORY_FIRST_WORD_MS": first_word_ms})
    with proc, proc.client(timeout=300) as c:
        deadline = time.monotonic() + 120
        while c.status()["model"]["state"] != "ready":
            assert time.monotonic() < deadline, c.status()["model"]
            time.sleep(0.05)
        c.agent_create("mia", name="Mia", config={"max_tokens": 4})
        c.agent_create("bo", name="Bo", config={"max_tokens": 4})
        _ingest(c, "mia")
        other = c.session_open("bo", ts=T0 - MINUTE)["session_id"]
        c.session_send(other, "Hi Bo, long day. 今天好累。", ts=T0 - MINUTE).finish()
        deadline = time.monotonic() + 120
        while not _head_files(proc, "mia"):  # the head after the last consolidation, read ahead
            assert time.monotonic() < deadline, "the runner never wrote the prewarmed head"
            time.sleep(0.05)
        sid = c.session_open("mia", ts=T0)["session_id"]
        usage = c.session_send(sid, FIRST[lang], ts=T0).finish()["usage"]
        assert c.memory_forget("mia", all=True)["deleted"] >= 1
        gone = _head_files(proc, "mia") == []
        return int(usage["prompt_read_tokens"]), int(usage["prompt_tokens"]), gone


@pytest.mark.llm
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_first_turn_after_the_read_ahead_reads_only_its_slot_directive_and_message(
    tmp_path: Path, lang: str
) -> None:
    # memory.first_word_ms 1: whatever the rate, the slot is the floor
    short, prompt_short, gone = _real_first_turn(tmp_path / "short", lang, "1")
    whole, prompt_whole, _ = _real_first_turn(tmp_path / "whole", lang, "0")
    assert whole - short > slot.FLOOR, (short, whole)  # the held-back memories were not read
    assert prompt_whole - prompt_short > slot.FLOOR  # because they were not in the prompt
    assert short < prompt_short / 2  # the head came from the read-ahead
    assert gone  # a forget drops the agent's cached head
