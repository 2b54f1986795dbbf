"""Unsure fact candidates asked one at a time or one call per session, with a real model:
``python -m perf.unsure_batch --gguf MODEL.gguf`` (issue 28 item 5).

The candidates are what the fact rules (``xaid.memory.rules.extract``) find unsure (confidence
below 0.5) in the user's turns of each session of perf's companion set and, with
``$XAID_PERF_LOCOMO``, of LoCoMo (a consolidation also drops candidates below the promote
threshold first, so it asks about fewer). For every session with at least one, the model (llama.cpp,
temperature 0, the GGUF given; the daemon's default is Qwen2.5-Coder) is asked both ways through
consolidation's own code: ``episodes._confident`` per candidate, as before, and
``episodes._confirmed``, one numbered call per session with single questions only for what its
answer leaves out. Reported: calls per session that has candidates, both ways, and how many
candidates get the same verdict.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from xaid.embed import EmbedProfile
from xaid.embed.profiles import MINILM
from xaid.memory import episodes
from xaid.memory.rules import extract

from . import locomo


class Model:
    """episodes.Helpers around a llama.cpp model, counting its calls."""

    def __init__(self, gguf: Path) -> None:
        import llama_cpp

        self.llm: Any = llama_cpp.Llama(str(gguf), n_ctx=2048, n_threads=1, verbose=False)
        self.counters: Counter[str] = Counter()
        self.calls = 0

    @property
    def profile(self) -> EmbedProfile:
        return MINILM

    async def ask(self, prompt: str, max_tokens: int, agent_id: str) -> str | None:
        self.calls += 1
        out = self.llm.create_chat_completion(
            messages=[{"role": "user", "content": prompt}], max_tokens=max_tokens, temperature=0.0
        )
        return str(out["choices"][0]["message"]["content"] or "")

    async def embed_readable(self, texts: list[str]) -> list[np.ndarray | None]:
        return [None for _ in texts]


def sessions() -> list[list[extract.Candidate]]:
    files = [locomo.COMPANION]
    if os.environ.get("XAID_PERF_LOCOMO"):
        files.append(Path(os.environ["XAID_PERF_LOCOMO"]))
    out = []
    for path in files:
        for sample in locomo.load(path):
            for _, turns in sample.sessions:
                found = [
                    c
                    for t in turns
                    if t.role == "user"
                    for c in extract.candidates(t.text)
                    if c.confidence < episodes.UNSURE
                ]
                if found:
                    out.append(found)
    return out


async def compare(model: Model, groups: list[list[extract.Candidate]]) -> dict[str, float]:
    """A session with one unsure candidate is asked the same single question both ways (temperature
    0: the same verdict), so only sessions with two or more go to the model; the others count one
    call each way."""
    single_calls = batch_calls = same = total = 0
    for group in groups:
        if len(group) == 1:
            single_calls += 1
            batch_calls += 1
            same += 1
            total += 1
            continue
        before = model.calls
        one_by_one = [await episodes._confident(model, "a", c) for c in group]
        single_calls += model.calls - before
        before = model.calls
        batched = await episodes._confirmed(model, "a", group)
        batch_calls += model.calls - before
        same += sum(a == b for a, b in zip(one_by_one, batched, strict=True))
        total += len(group)
    return {
        "sessions": len(groups),
        "sessions_with_two_or_more": sum(1 for g in groups if len(g) > 1),
        "candidates": total,
        "calls_per_session_single": single_calls / max(1, len(groups)),
        "calls_per_session_batched": batch_calls / max(1, len(groups)),
        "same_verdicts": same / max(1, total),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m perf.unsure_batch", description=__doc__)
    parser.add_argument("--gguf", type=Path, required=True)
    args = parser.parse_args(argv)
    groups = sessions()
    result = asyncio.run(compare(Model(args.gguf), groups))
    for key, value in result.items():
        print(f"{key}: {value:.3f}" if isinstance(value, float) else f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
