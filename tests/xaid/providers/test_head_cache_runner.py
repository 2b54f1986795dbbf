"""The agents' prompt heads on disk, through the daemon: a real daemon (``python -m xaid``) on a real
socket, the real SmolLM2-135M in its runner process, which owns xaid/providers/head_cache.py.

A session's first turn after the daemon (and so the runner) started again reads only what follows
the agent's head; forgetting an agent's memory, or deleting the agent, leaves no file of it."""

from __future__ import annotations

import stat
import time
from pathlib import Path
from typing import Any

import pytest
from xaiclient import Client

from testkit import DaemonProcess
from xaid.providers.head_cache import agent_dir_name

pytestmark = pytest.mark.llm
ENV = {
    "XAID_LLM_PROVIDER": "llama_cpp",
    "XAID_LLM_MODEL": "smollm2-135m",
    "XAID_LLM_N_CTX": "1024",
    "XAID_LLM_SEED": "7",
    "OMP_WAIT_POLICY": "PASSIVE",
}
T0 = 1_770_000_000_000
HOUR = 3_600_000
# memory off: the head is then the persona alone, and stays the same from one session to the next
# (with memory on, the profile a closed session updates would make it another head, rightly).
AGENTS = {
    "mia": (
        "A warm friend who loves long walks by the river, strong black tea and old film cameras. "
        * 4,
        "Morning! Slept well?",
    ),
    "lin": (
        "一个温和的朋友，喜欢在河边散步，喝浓茶，收集旧胶片相机，说话简短亲切。" * 4,
        "早上好！睡得好吗？",
    ),
}


def head_cache(c: Client) -> dict[str, Any]:
    model = c.status()["model"]
    assert model["state"] == "ready", model
    cache: dict[str, Any] = model["head_cache"]
    return cache


def wait_ready(c: Client, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while c.status()["model"]["state"] != "ready":
        assert time.monotonic() < deadline, c.status()["model"]
        time.sleep(0.05)


def agent_files(proc: DaemonProcess, agent_id: str, pattern: str = "*") -> list[Path]:
    """The agent's files; by default any at all (a half-written one included)."""
    return sorted((proc.state_dir / "head_cache" / agent_dir_name(agent_id)).glob(pattern))


def wait_files(proc: DaemonProcess, agent_id: str, timeout: float = 60) -> list[Path]:
    """The runner writes a head once the reply is sent: a moment after the client has it."""
    deadline = time.monotonic() + timeout
    while not (files := agent_files(proc, agent_id, "*.kv")):
        assert time.monotonic() < deadline, f"no head file of {agent_id}"
        time.sleep(0.05)
    return files


def first_turn(c: Client, agent_id: str, ts: int) -> int:
    """A new session's first turn; how many prompt tokens the model read."""
    sid = c.session_open(agent_id, ts=ts)["session_id"]
    result = c.session_send(sid, AGENTS[agent_id][1], ts=ts).finish()
    c.session_close(sid, ts=ts + 60_000, wait=True)
    read: int = result["usage"]["prompt_read_tokens"]
    assert 0 < read <= result["usage"]["prompt_tokens"]
    return read


def test_a_sessions_first_turn_after_a_restart_reads_only_what_follows_the_head(
    tmp_path: Path,
) -> None:
    proc = DaemonProcess(tmp_path / "d", env=ENV)
    with proc, proc.client(timeout=300) as c:
        wait_ready(c)
        for agent_id, (persona, _) in AGENTS.items():
            c.agent_create(
                agent_id,
                name=agent_id.title(),
                persona_init=persona,
                config={"memory": False, "max_tokens": 4},
            )
        fresh = {agent_id: first_turn(c, agent_id, T0) for agent_id in AGENTS}
        files = {agent_id: wait_files(proc, agent_id) for agent_id in AGENTS}
        assert head_cache(c)["misses"] == 2
    for (path,) in files.values():
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
        assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    with proc, proc.client(timeout=300) as c:  # a new daemon, so a new runner: nothing in RAM
        wait_ready(c)
        restored = {agent_id: first_turn(c, agent_id, T0 + 24 * HOUR) for agent_id in AGENTS}
        cache = head_cache(c)
    assert (cache["restores"], cache["corrupt"]) == (2, 0)
    # nothing written but what the start-up prewarm read after a head: its opening, kept with it
    assert cache["saves"] <= len(AGENTS)
    for agent_id in AGENTS:
        assert fresh[agent_id] > 100, fresh  # the head is most of a first turn's prompt ...
        assert restored[agent_id] < fresh[agent_id] / 4, (fresh, restored)  # ... and not read again


def test_forgetting_or_deleting_an_agent_leaves_no_head_file_of_it(tmp_path: Path) -> None:
    proc = DaemonProcess(tmp_path / "d", env=ENV)
    with proc, proc.client(timeout=300) as c:
        wait_ready(c)
        for agent_id, (persona, _) in AGENTS.items():
            c.agent_create(
                agent_id, name=agent_id.title(), persona_init=persona, config={"max_tokens": 4}
            )
            first_turn(c, agent_id, T0)
            wait_files(proc, agent_id)
        c.memory_forget("mia", all=True)
        assert agent_files(proc, "mia") == []
        assert agent_files(proc, "lin") != []  # another agent's head stays
        c.agent_delete("lin")
        assert agent_files(proc, "lin") == []
        time.sleep(0.5)  # whatever the runner was still doing for them is done by now ...
        assert (
            agent_files(proc, "mia") == [] and agent_files(proc, "lin") == []
        )  # ... and wrote none
