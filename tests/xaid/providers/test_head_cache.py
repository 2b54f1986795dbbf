"""The prompt heads on disk (xaid/providers/head_cache.py): the files on their own, then with the
real SmolLM2-135M in this process (a new process's first turn starts from the saved head).

The daemon's side (through the runner, erased with the agent) is tests/xaid/providers/
test_head_cache_runner.py."""

from __future__ import annotations

import dataclasses
import os
import stat
import threading
from pathlib import Path

import pytest

from xaid.config import LLMConfig
from xaid.providers.base import ChatMessage, Completion, GenerateRequest
from xaid.providers.head_cache import HeadCache, HeadState, agent_dir_name, model_identity
from xaid.providers.llama_cpp import LlamaCppProvider, embedded_model_path

HEAD_EN = "You are Mia, a warm companion.\n\nWhat you know about the user: they like strong tea."
HEAD_ZH = "你是小林，一个温和的朋友。\n\n你知道的关于用户的事：用户最近在准备考试。"
MODEL = "m" * 64
KIB = 1024


def state(n: int, fill: int = 7) -> HeadState:
    return HeadState(tuple(range(1, n + 1)), bytes([fill]) * (n * 16))


def cache(tmp_path: Path, capacity: int = 1 << 20, model: str = MODEL) -> HeadCache:
    return HeadCache(tmp_path / "head_cache", capacity, model)


@pytest.mark.parametrize("head", [HEAD_EN, HEAD_ZH])
def test_a_head_is_found_by_its_exact_text_and_model_and_its_file_is_private(
    tmp_path: Path, head: str
) -> None:
    heads = cache(tmp_path)
    saved = state(40)
    assert heads.store("mia", head, saved)
    path = heads.path("mia", head)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(heads.directory.stat().st_mode) == 0o700
    assert path.parent.name == agent_dir_name("mia") and "mia" not in str(path)
    assert heads.load("mia", head) == saved
    assert heads.load("mia", head + " ") is None  # one byte more is another head
    assert heads.load("bo", head) is None  # another agent
    assert cache(tmp_path, model="n" * 64).load("mia", head) is None  # another model


def test_a_new_head_replaces_the_agents_old_one_and_other_models_go_at_load(
    tmp_path: Path,
) -> None:
    heads = cache(tmp_path)
    heads.store("mia", HEAD_EN, state(10))
    heads.store("mia", HEAD_EN + " 用户换了工作。", state(12))  # the profile changed
    assert heads.load("mia", HEAD_EN) is None
    assert heads.describe()["files"] == 1
    heads.store("bo", HEAD_ZH, state(8))
    other = cache(tmp_path, model="n" * 64)
    other.drop_other_models()
    assert other.describe()["files"] == 0
    assert not list(other.directory.glob("*/*.kv"))


def test_the_least_recently_used_heads_go_beyond_the_capacity(tmp_path: Path) -> None:
    heads = cache(tmp_path)
    for i, agent in enumerate(["a", "b"]):
        heads.store(agent, HEAD_EN, state(40))
        os.utime(heads.path(agent, HEAD_EN), ns=(10**18 + i, 10**18 + i))
    heads.capacity = int(2.5 * heads.path("a", HEAD_EN).stat().st_size)  # room for two files
    assert heads.load("a", HEAD_EN) is not None  # "a" used now: "b" is the least recent
    heads.store("c", HEAD_ZH, state(40))
    assert heads.counters.evictions == 1
    assert heads.load("b", HEAD_EN) is None
    assert heads.load("a", HEAD_EN) is not None and heads.load("c", HEAD_ZH) is not None
    assert not heads.store("d", HEAD_EN, state(400))  # larger than the whole cache: not kept


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # truncated (a crash while writing, a full disk)
        lambda b: b[:-1] + bytes([b[-1] ^ 1]),  # one bit of the state flipped
        lambda b: b[:20] + bytes([b[20] ^ 1]) + b[21:],  # the key in the header changed
        lambda b: b"",  # empty
        lambda b: "not a head state at all, 不是".encode(),
    ],
    ids=["truncated", "bit-flip", "other-key", "empty", "garbage"],
)
def test_a_damaged_file_is_ignored_and_removed(tmp_path: Path, damage: object) -> None:
    heads = cache(tmp_path)
    heads.store("mia", HEAD_ZH, state(30))
    path = heads.path("mia", HEAD_ZH)
    path.write_bytes(damage(path.read_bytes()))  # type: ignore[operator]
    assert heads.load("mia", HEAD_ZH) is None
    assert not path.exists() and heads.counters.corrupt == 1
    assert heads.store("mia", HEAD_ZH, state(30)) and heads.load("mia", HEAD_ZH) == state(30)


def test_dropping_an_agent_removes_every_file_of_it_and_only_of_it(tmp_path: Path) -> None:
    heads = cache(tmp_path)
    heads.store("mia", HEAD_EN, state(10))
    cache(tmp_path, model="n" * 64).store("mia", HEAD_ZH, state(10))  # another model's file
    heads.store("bo", HEAD_ZH, state(10))
    HeadCache(heads.directory, 0).drop_agent("mia")  # the daemon's side: no model, no capacity
    assert not (heads.directory / agent_dir_name("mia")).exists()
    assert heads.load("bo", HEAD_ZH) is not None


def test_another_model_file_or_setting_is_another_identity(tmp_path: Path) -> None:
    gguf = tmp_path / "model.gguf"
    gguf.write_bytes(b"GGUF one")
    params = {"n_ctx": 1024, "n_batch": 512, "extra_buffers": True, "chat_format": ""}
    first = model_identity(gguf, params)
    assert model_identity(gguf, dict(params)) == first  # the same file and settings: the same
    assert model_identity(gguf, {**params, "n_ctx": 2048}) != first
    assert model_identity(gguf, {**params, "extra_buffers": False}) != first
    gguf.write_bytes(b"GGUF two, replaced")  # a new file at the same path (size and time differ)
    assert model_identity(gguf, params) != first


def test_off_means_no_file(tmp_path: Path) -> None:
    heads = cache(tmp_path, capacity=0)
    assert not heads.store("mia", HEAD_EN, state(10))
    assert not heads.directory.exists()


# --- with the model -------------------------------------------------------------------------------

SYSTEM_EN = (
    "You are Mia, a warm companion.\n\nWhat you know about the user: "
    + "The user likes long walks by the river and strong tea. " * 10
)
SYSTEM_ZH = (
    "你是小林，一个温和的朋友。\n\n你知道的关于用户的事："
    + "用户最近在准备考试，每天学习到很晚。" * 10
)


def provider(directory: Path | None, seed: int = 3) -> LlamaCppProvider:
    cfg = dataclasses.replace(
        LLMConfig(),
        model_path=str(embedded_model_path()),
        n_ctx=1024,
        n_threads=2,
        seed=seed,
    )
    p = LlamaCppProvider(cfg, None, directory)
    p.load()
    return p


def first_turn(p: LlamaCppProvider, session: str, system: str, said: str) -> Completion:
    messages = (ChatMessage("system", system), ChatMessage("user", said))
    request = GenerateRequest(messages, max_tokens=6, temperature=0.0, session=session, agent="mia")
    out = p.generate(request, lambda _piece: None, threading.Event())
    p.settle()  # what the runner does once the reply is sent
    return out


@pytest.mark.llm
@pytest.mark.parametrize(("system", "said"), [(SYSTEM_EN, "Morning!"), (SYSTEM_ZH, "早上好！")])
def test_a_new_process_begins_a_session_from_the_saved_head(
    tmp_path: Path, system: str, said: str
) -> None:
    """Two providers one after the other stand for two runs of the runner process."""
    before = provider(tmp_path)
    try:
        fresh = first_turn(before, "s1", system, said)
        assert before.heads.counters.saves == 1 and before.heads.counters.misses == 1
    finally:
        before.close()
    after = provider(tmp_path)
    try:
        restored = first_turn(after, "s2", system, said)
        assert after.heads.counters.restores == 1 and after.heads.counters.saves == 0
        again = first_turn(after, "s3", system, "And later?")  # the live context holds it already
        assert after.heads.counters.restores == 1 and again.prompt_eval_tokens is not None
    finally:
        after.close()
    assert fresh.prompt_eval_tokens is not None and restored.prompt_eval_tokens is not None
    assert fresh.prompt_eval_tokens > 100  # the head is most of a first turn's prompt ...
    assert restored.prompt_eval_tokens < fresh.prompt_eval_tokens / 4  # ... and is not read again
    assert restored.text == fresh.text  # greedy: the restored state answers as a fresh read does


@pytest.mark.llm
def test_a_truncated_head_file_is_read_afresh_and_written_again(tmp_path: Path) -> None:
    p = provider(tmp_path)
    try:
        fresh = first_turn(p, "s1", SYSTEM_EN, "Morning!")
    finally:
        p.close()
    (path,) = (tmp_path).glob("*/*.kv")
    path.write_bytes(path.read_bytes()[: path.stat().st_size - 100])
    p = provider(tmp_path)
    try:
        again = first_turn(p, "s2", SYSTEM_EN, "Morning!")
        counters = p.heads.counters
        assert (counters.corrupt, counters.restores, counters.saves) == (1, 0, 1)
    finally:
        p.close()
    assert again.prompt_eval_tokens == fresh.prompt_eval_tokens and again.text == fresh.text
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # written anew, whole
