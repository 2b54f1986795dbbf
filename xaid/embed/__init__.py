"""Text embeddings for recall by meaning, computed on-device.

One :class:`OnnxEmbedder` (a small sentence-transformer in onnxruntime) sits behind one
:class:`EmbedWorker`, so every task in the daemon can ask for vectors concurrently while the
model runs one batch at a time (a turn's message skips the queue but not that limit). Vectors
are unit-length float32; memory stores them as int8 (xaid.memory.vectors), tagged with
:attr:`OnnxEmbedder.name`. :func:`to_blob` / :func:`from_blob` are the float32 byte layout.
"""

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

__all__ = [
    "INSTALL_HINT",
    "EmbedError",
    "EmbedStats",
    "EmbedWorker",
    "Embedder",
    "OnnxEmbedder",
    "cosine",
    "from_blob",
    "locate_default_model",
    "to_blob",
]
