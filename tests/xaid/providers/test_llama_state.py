"""Per-session llama.cpp state, on the real SmolLM2-135M in this process: two sessions take turns on
one model, and the one that comes back does not read its prompt again, and answers the same."""

from __future__ import annotations

import dataclasses
import os
import threading
from collections.abc import Iterator

import pytest

from xaid.config import LLMConfig
from xaid.providers.base import ChatMessage, Completion, GenerateRequest
from xaid.providers.llama_cpp import LlamaCppProvider, embedded_model_path

pytestmark = pytest.mark.llm
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

SYSTEM_A = (
    "You are Mia, a warm companion. "
    + "The user likes long walks by the river and strong tea. " * 12
)
SYSTEM_B = "你是小林，一个温和的朋友。" + "用户最近在准备考试，每天学习到很晚。" * 12


def provider(cache_mb: int) -> Iterator[LlamaCppProvider]:
    cfg = dataclasses.replace(
        LLMConfig(),
        model_path=str(embedded_model_path()),
        n_ctx=1024,
        n_threads=2,
        seed=3,
        state_cache_mb=cache_mb,
    )
    p = LlamaCppProvider(cfg)
    p.load()
    try:
        yield p
    finally:
        p.close()


@pytest.fixture(scope="module")
def cached() -> Iterator[LlamaCppProvider]:
    yield from provider(64)


@pytest.fixture(scope="module")
def uncached() -> Iterator[LlamaCppProvider]:
    yield from provider(0)


def turn(p: LlamaCppProvider, session: str, system: str, *said: str) -> Completion:
    messages = [ChatMessage("system", system)]
    for i, text in enumerate(said):
        messages.append(ChatMessage("user" if i % 2 == 0 else "assistant", text))
    request = GenerateRequest(tuple(messages), max_tokens=8, temperature=0.0, session=session)
    return p.generate(request, lambda _piece: None, threading.Event())


def conversation(p: LlamaCppProvider) -> tuple[Completion, Completion, Completion]:
    first = turn(p, "a", SYSTEM_A, "Morning.")
    other = turn(p, "b", SYSTEM_B, "早。")
    back = turn(p, "a", SYSTEM_A, "Morning.", first.text, "What should I do today?")
    return first, other, back


def test_a_session_coming_back_reads_only_its_new_turn(
    cached: LlamaCppProvider, uncached: LlamaCppProvider
) -> None:
    first, _other, back = conversation(cached)
    assert first.prompt_eval_tokens is not None and first.prompt_eval_tokens > 100
    counters = cached.states.counters
    assert (counters.saves, counters.restores) == (2, 1)  # a saved when b came, b when a came back
    # Only the new user turn (and the template around it) is read: a tenth of a's prompt, not all of it.
    assert (
        back.prompt_eval_tokens is not None
        and back.prompt_eval_tokens < first.prompt_eval_tokens / 5
    )
    _f, _o, back_again = conversation(uncached)
    assert (
        back_again.prompt_eval_tokens is not None
        and back_again.prompt_eval_tokens > first.prompt_eval_tokens
    )
    assert (
        back.text == back_again.text
    )  # greedy: the restored state gives the reply a fresh read gives


def test_the_cache_stays_within_its_capacity() -> None:
    for p in provider(1):  # 1 MiB: a's ~200 tokens of SmolLM2 state (~18 KB a token) do not fit
        conversation(p)
        assert p.states.used_bytes <= 2**20 and p.states.counters.restores == 0
        assert p.states.describe()["capacity_mb"] == 1.0


def test_the_least_recently_used_session_is_dropped_first() -> None:
    for p in provider(6):  # room for one saved session of ~200 tokens (~4.5 MiB), not two
        turn(p, "a", SYSTEM_A, "Morning.")
        turn(p, "b", "You are Tom, a calm friend. " + SYSTEM_A[31:], "Hello.")
        turn(
            p, "c", "You are Ada, a cheerful friend. " + SYSTEM_A[31:], "Hi!"
        )  # b is saved, a is dropped
        assert list(p.states.saved) == ["b"] and p.states.counters.evictions == 1
        assert p.states.used_bytes == len(p.states.saved["b"].data) <= 6 * 2**20
        back = turn(p, "a", SYSTEM_A, "Morning.")
        assert (
            p.states.counters.misses == 4 and p.states.counters.restores == 0
        )  # a, b, c new; a gone
        assert back.prompt_eval_tokens is not None and back.prompt_eval_tokens > 100


def test_a_closed_session_gives_its_saved_state_back() -> None:
    for p in provider(64):
        turn(p, "a", SYSTEM_A, "Morning.")
        turn(p, "b", SYSTEM_B, "早。")  # a is saved as b arrives
        assert list(p.states.saved) == ["a"] and p.states.used_bytes > 0
        p.session_closed("a")
        assert p.states.saved == {} and p.states.used_bytes == 0
        p.session_closed("b")  # b holds the live context: it is not saved when c arrives
        turn(p, "c", "You are Ada, a cheerful friend. " + SYSTEM_A[31:], "Hi!")
        assert p.states.saved == {} and p.states.counters.saves == 1
