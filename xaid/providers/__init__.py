"""LLM providers: llama.cpp in a runner process, any OpenAI-compatible endpoint, and a scripted one
for tests (in-process: it is pure Python and cannot crash the daemon)."""

from __future__ import annotations

from pathlib import Path

from ..config import LLMConfig
from .base import Provider, ProviderError


def build(
    cfg: LLMConfig, models_dir: Path | None = None, head_cache_dir: Path | None = None
) -> Provider:
    """``models_dir`` is where llama_cpp joins a catalogued model split over several packages;
    ``head_cache_dir`` where its runner keeps the agents' prompt heads (head_cache.py)."""
    if cfg.provider == "scripted":
        from .scripted import ScriptedProvider

        return ScriptedProvider(cfg.scripted_delay_ms)
    if cfg.provider == "openai":
        from .openai_compat import OpenAICompatProvider

        return OpenAICompatProvider(cfg)
    # The daemon never loads llama.cpp itself: the model runs in a child it can restart
    # (runner_supervisor.py); the in-process class, llama_cpp.LlamaCppProvider, runs in that child.
    from .runner_supervisor import RunnerProvider

    return RunnerProvider(cfg, models_dir, head_cache_dir=head_cache_dir)


__all__ = ["Provider", "ProviderError", "build"]
