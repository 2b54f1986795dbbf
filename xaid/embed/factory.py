"""One place that turns ``[memory]`` settings into an embedder and its thresholds.

The daemon, the benchmarks and the tests all need "the model the config selects" together with
the cuts calibrated for it; building both here keeps them from ever being paired wrongly.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from ..config import MemoryConfig
from .onnx import Embedder, OnnxEmbedder
from .profiles import EmbedProfile, profile_for
from .use import UseEmbedder

# What loads the embedder for a config: ``load`` itself, or a stand-in that shares one loaded model
# (the tests' in-process daemons).
Loader = Callable[[MemoryConfig], tuple[Embedder, EmbedProfile]]


def load(cfg: MemoryConfig) -> tuple[Embedder, EmbedProfile]:
    """(embedder, profile) for ``cfg``: ``embed_model`` (an ONNX file) when set, else ``embedder``
    ("minilm" or "use"). Blocking, it loads the model: call it from a thread. Raises
    :class:`~xaid.config.ConfigError` for an unknown name and :class:`~xaid.embed.EmbedError`
    (with an install hint) when the model is missing."""
    profile = profile_for(cfg)  # first: an unknown name is a config error, not a missing model
    threads = min(cfg.embed_threads, os.cpu_count() or 1)
    if not cfg.embed_model and cfg.embedder == "use":
        return UseEmbedder(threads=threads), profile
    model = Path(cfg.embed_model) if cfg.embed_model else None
    tokenizer = Path(cfg.embed_tokenizer) if cfg.embed_tokenizer else None
    return OnnxEmbedder(model, tokenizer, threads=threads), profile


__all__ = ["load"]
