"""Text embeddings for recall by meaning, computed on-device.

:func:`load` builds the embedder ``[memory]`` selects with its :class:`EmbedProfile` (the cosine
thresholds calibrated for that model): :class:`OnnxEmbedder`, a small sentence-transformer in
onnxruntime (English-only MiniLM by default), or :class:`UseEmbedder`, USE-multilingual-v3 in
numpy, which reads Chinese and English in one space. Either sits behind one
:class:`EmbedWorker`, so every task in the daemon can ask for vectors concurrently while the
model runs one batch at a time (a turn's message skips the queue but not that limit). Vectors
are unit-length float32; memory stores them as int8 (xaid.memory.vectors), tagged with
the embedder's ``name``. :func:`to_blob` / :func:`from_blob` are the float32 byte layout.
"""

from .factory import Loader, load
from .onnx import (
    INSTALL_HINT,
    Embedder,
    EmbedError,
    EmbedStats,
    EmbedWorker,
    OnnxEmbedder,
    cosine,
    from_blob,
    locate_default_model,
    to_blob,
)
from .profiles import PROFILES, EmbedProfile, profile_for
from .use import USE_INSTALL_HINT, UseEmbedder

__all__ = [
    "INSTALL_HINT",
    "PROFILES",
    "USE_INSTALL_HINT",
    "EmbedError",
    "EmbedProfile",
    "EmbedStats",
    "EmbedWorker",
    "Embedder",
    "Loader",
    "OnnxEmbedder",
    "UseEmbedder",
    "cosine",
    "from_blob",
    "load",
    "locate_default_model",
    "profile_for",
    "to_blob",
]
