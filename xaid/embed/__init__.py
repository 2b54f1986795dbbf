"""Text embeddings for recall by meaning, computed on-device.

One :class:`OnnxEmbedder` (a small sentence-transformer in onnxruntime) sits behind one
:class:`EmbedWorker`, so every task in the daemon can ask for vectors concurrently while the
CPU-bound work stays on a single thread and is batched. Vectors are unit-length float32 and
travel to SQLite as :func:`to_blob` bytes, tagged with :attr:`OnnxEmbedder.name`.
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
