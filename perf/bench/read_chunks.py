"""How fast the runner reads ahead by the size of its chunks (xaid/providers/llama_cpp.py,
``PREWARM_CHUNK``): the same 512 tokens of a mixed English and Chinese text read from an empty
context in chunks of 16 to 256, one ``Llama.eval`` per chunk as the runner does, the sizes
interleaved round by round so that a busy moment falls on all of them.

Why it is measured: a small batch streams every weight once, as a decode step does, so the chunk
size sets how fast the idle model gets through a head or a session's next start; and, before a turn
could stop the chunk under way (xaid/providers/llama_interrupt.py), how long that turn waited for
it. Each size is reported as tokens per second with its ratio to 32 (the chunk before the
interrupt) and the time of one chunk.
"""

from __future__ import annotations

import os
import time

from ..kit import DEFAULT_MODEL, MODELS, Row, Section, median, progress, ratio

SIZES = (16, 32, 64, 128, 256)
BASE = 32
TOKENS = 512
ROUNDS, QUICK_ROUNDS = int(os.environ.get("XAID_PERF_CHUNK_ROUNDS", "3")), 1
TEXT = (
    "The quick brown fox jumps over the lazy dog near the river bank. "
    "今天天气很好，我们去公园散步吧。"
) * 40


def run(quick: bool) -> Section:
    import llama_cpp

    from xaid.config import LLMConfig
    from xaid.providers.llama_cpp import LlamaCppProvider, passive_openmp

    passive_openmp()
    model = os.environ.get("XAID_PERF_CHUNK_MODEL", DEFAULT_MODEL)
    cfg = LLMConfig(model_path=MODELS[model], n_ctx=2048, head_cache_mb=0)
    provider = LlamaCppProvider(cfg)  # its load applies this CPU's quirks (cpu_quirks.py)
    provider.load()
    llm = provider._llm
    tokens = llm.tokenize(TEXT.encode())[:TOKENS]
    memory = llama_cpp.llama_get_memory(llm.ctx)
    seconds: dict[int, list[float]] = {n: [] for n in SIZES}
    loads: list[float] = []
    try:
        for r in range(QUICK_ROUNDS if quick else ROUNDS):
            for n in SIZES if r % 2 == 0 else SIZES[::-1]:
                llama_cpp.llama_memory_seq_rm(memory, 0, 0, -1)
                llm.n_tokens = 0
                start = time.perf_counter()
                while llm.n_tokens < len(tokens):
                    llm.eval(tokens[llm.n_tokens : llm.n_tokens + n])
                llama_cpp.llama_synchronize(llm.ctx)
                seconds[n].append(time.perf_counter() - start)
                loads.append(os.getloadavg()[0])
            progress(
                f"read chunks round {r + 1}: "
                + ", ".join(f"{n}: {len(tokens) / seconds[n][-1]:.0f} tok/s" for n in SIZES)
            )
    finally:
        provider.close()
    rate = {n: len(tokens) / median(seconds[n]) for n in SIZES}
    rows = [
        Row(
            f"{model}: reading ahead in chunks of {n} tokens",
            rate[n],
            "tokens/s",
            None,
            ratio(rate[n], rate[BASE]) if n != BASE else None,
            f"chunks of {BASE}" if n != BASE else "",
            note=f"one chunk {1000 * n / rate[n]:.0f} ms; {len(seconds[n])} reads of "
            f"{len(tokens)} tokens: " + ", ".join(f"{len(tokens) / s:.0f}" for s in seconds[n]),
        )
        for n in SIZES
    ]
    notes = [
        f"llama-cpp-python through LlamaCppProvider's load (n_ctx 2048, llm.n_threads at its "
        f"default, extra buffers as cpu_quirks decides here: "
        f"{provider.extra_buffers.describe()}); {len(tokens)} tokens from an empty context, one "
        f"`Llama.eval` per chunk, sizes interleaved, the order reversed every other round. Load "
        f"average (1 min) during the reads ≈ {median(loads):.1f} on 2 cores: compare the ratios."
    ]
    return Section("Reading ahead: throughput by chunk size (issue 28 item 3)", rows, notes)
