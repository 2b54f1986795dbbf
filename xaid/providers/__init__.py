"""LLM providers: llama.cpp in-process, any OpenAI-compatible endpoint, and a scripted one for tests."""

from __future__ import annotations

from pathlib import Path

from ..config import LLMConfig
from .base import Provider, ProviderError


def build(cfg: LLMConfig, models_dir: Path | None = None) -> Provider:
    """``models_dir`` is where llama_cpp joins a catalogued model split over several packages."""
    if cfg.provider == "scripted":
        from .scripted import ScriptedProvider

        return ScriptedProvider(cfg.scripted_delay_ms)
    if cfg.provider == "openai":
        from .openai_compat import OpenAICompatProvider

        return OpenAICompatProvider(cfg)
    from .llama_cpp import LlamaCppProvider

    return LlamaCppProvider(cfg, models_dir)


__all__ = ["Provider", "ProviderError", "build"]
