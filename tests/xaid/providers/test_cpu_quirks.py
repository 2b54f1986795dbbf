"""The AMX probe: llama.cpp's extra buffer types are off on a CPU that reports AMX (where its AMX
matmul faults, llama.cpp issue 20824), on elsewhere, and ``llm.extra_buffers`` forces either way.
The last test loads the real SmolLM2 with them off and checks the parameter reached llama.cpp and
the model still answers."""

from __future__ import annotations

import dataclasses
import os
import threading
from pathlib import Path

import pytest

from xaid.config import ConfigError, LLMConfig, load
from xaid.providers import cpu_quirks
from xaid.providers.base import ChatMessage, GenerateRequest
from xaid.providers.llama_cpp import LlamaCppProvider, embedded_model_path

SAPPHIRE_RAPIDS = "fpu vme avx2 avx512f avx512_bf16 amx_bf16 avx512_fp16 amx_tile amx_int8"
EPYC = "fpu vme avx2 avx512f avx512_bf16 avx512_vnni"


def cpuinfo(tmp_path: Path, flags: str) -> Path:
    path = tmp_path / "cpuinfo"
    path.write_text(
        f"processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: {flags}\n\nprocessor\t: 1\n"
    )
    return path


@pytest.mark.parametrize(("flags", "enabled"), [(SAPPHIRE_RAPIDS, False), (EPYC, True), ("", True)])
def test_auto_turns_extra_buffers_off_only_where_the_cpu_reports_amx(
    tmp_path: Path, flags: str, enabled: bool
) -> None:
    decision = cpu_quirks.decide("auto", cpu_quirks.cpu_flags(cpuinfo(tmp_path, flags)))
    assert decision.enabled is enabled
    assert ("20824" in decision.reason) is not enabled


def test_the_setting_forces_either_way() -> None:
    amx = frozenset({"amx_tile"})
    assert (
        cpu_quirks.decide("on", amx).enabled and not cpu_quirks.decide("off", frozenset()).enabled
    )
    assert cpu_quirks.decide("off", frozenset()).describe() == "off (llm.extra_buffers = off)"


def test_no_cpuinfo_reads_as_no_flags(tmp_path: Path) -> None:
    assert cpu_quirks.cpu_flags(tmp_path / "missing") == frozenset()


def test_the_setting_is_checked_and_read_from_the_environment() -> None:
    assert load(None, env={"XAID_LLM_EXTRA_BUFFERS": "off"}).llm.extra_buffers == "off"
    with pytest.raises(ConfigError, match="extra_buffers"):
        load(None, env={"XAID_LLM_EXTRA_BUFFERS": "maybe"})


@pytest.mark.llm
def test_the_model_loads_and_answers_with_extra_buffers_off() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    cfg = dataclasses.replace(
        LLMConfig(),
        model_path=str(embedded_model_path()),
        n_ctx=512,
        n_threads=2,
        seed=3,
        extra_buffers="off",
    )
    p = LlamaCppProvider(cfg)
    p.load()
    try:
        assert p._llm.model_params.use_extra_bufts is False
        request = GenerateRequest((ChatMessage("user", "Hello!"),), max_tokens=6, temperature=0.0)
        out = p.generate(request, lambda _piece: None, threading.Event())
        assert out.text.strip() and out.completion_tokens > 0
        assert p.describe()["extra_buffers"].startswith("off")
    finally:
        p.close()
    import llama_cpp.llama_cpp as low

    assert low.llama_model_default_params().use_extra_bufts is True  # the defaults are put back
