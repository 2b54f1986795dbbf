"""Where llama.cpp's CPU code is known to fault, and the model parameter that avoids it.

pip builds llama-cpp-python for the CPU it compiles on (GGML_NATIVE). On a CPU that reports Intel AMX
(Sapphire Rapids and newer: most cloud VMs since 2023) llama.cpp then repacks the weights into its AMX
buffer type, and the first matrix multiplication faults on ``ldtilecfg`` inside libggml-cpu
(``ggml_backend_amx_mul_mat``: a general protection fault that kills the whole process). Upstream:
ggml-org/llama.cpp issue 20824, fix proposed in PR 26954. Loading the model with the "extra buffer
types" off (``llama_model_params.use_extra_bufts = false``, what llama.cpp's ``--no-repack`` does)
keeps the weights in plain CPU buffers: measured on such a machine, the Qwen 1.5B then replies
normally. Elsewhere the extra buffers stay on, since repacking is what makes Q4 matmuls fast on AVX2
and AVX-512.

``llm.extra_buffers`` forces either way ("on" for a fixed llama.cpp, "off" for a CPU this probe does
not know about).

Tried and not kept (session 27): only the AMX buffer type faults, and llama.cpp's other one,
CPU_REPACK, can be had alone through ``tensor_buft_overrides`` (the weights' names matched to it).
On the AMX Xeon it read prompts slower than the plain buffers, whose Q4_K matmuls go through
llamafile's kernels there (the 1.5B, 256 tokens: 117 against 160 tokens/s; 32: 90 against 96;
decoding 12.2 against 10.4 tokens/s), and a tensor it cannot repack (an f32 norm) put in it killed
the process at load. The plain buffers stay.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CPUINFO = Path("/proc/cpuinfo")
# The flags Linux reports for AMX (arch/x86/include/asm/cpufeatures.h); any one means the AMX path.
AMX_FLAGS = frozenset({"amx_tile", "amx_int8", "amx_bf16", "amx_fp16", "amx_complex"})
UPSTREAM = "llama.cpp issue 20824"


@dataclass(frozen=True)
class ExtraBuffers:
    """Whether the model loads with llama.cpp's extra buffer types, and why."""

    enabled: bool
    reason: str

    def describe(self) -> str:
        return f"{'on' if self.enabled else 'off'} ({self.reason})"


def cpu_flags(cpuinfo: Path = CPUINFO) -> frozenset[str]:
    """The feature flags of the first CPU in /proc/cpuinfo; empty where there is no such file."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return frozenset()
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            return frozenset(value.split())
    return frozenset()


def decide(setting: str, flags: frozenset[str]) -> ExtraBuffers:
    """``llm.extra_buffers`` ("auto", "on", "off") against what the CPU reports."""
    if setting == "on":
        return ExtraBuffers(True, "llm.extra_buffers = on")
    if setting == "off":
        return ExtraBuffers(False, "llm.extra_buffers = off")
    if amx := sorted(flags & AMX_FLAGS):
        return ExtraBuffers(
            False, f"the CPU reports {amx[0]}: llama.cpp's AMX path faults, {UPSTREAM}"
        )
    return ExtraBuffers(True, "no AMX on this CPU")


_patch_lock = threading.Lock()


@contextlib.contextmanager
def model_params(extra: ExtraBuffers) -> Iterator[None]:
    """Load a ``llama_cpp.Llama`` inside this block to apply ``extra``.

    ``Llama.__init__`` takes no argument for ``use_extra_bufts``: it starts from
    ``llama_model_default_params()`` and loads the model before returning. So for the length of the
    block that function hands out defaults with the field set (a lock keeps two loads from crossing).
    A llama-cpp-python without the field (older than llama.cpp's extra buffers) is left as it is.
    """
    import llama_cpp.llama_cpp as low

    original = low.llama_model_default_params

    def patched() -> Any:
        params = original()
        if hasattr(params, "use_extra_bufts"):
            params.use_extra_bufts = extra.enabled
        return params

    with _patch_lock:
        low.llama_model_default_params = patched
        try:
            yield
        finally:
            low.llama_model_default_params = original
