"""Where a session's first token goes on a long history, in-process on a real model file: the fixed
costs (the head's state from disk and into llama.cpp, the chat template and tokenising) apart from
the prompt read, and the read time against the tokens read (issue 28 item 1).

``python -m perf.bench.ttft_split TURN.json [MODEL.gguf]`` with TURN.json holding a turn's
``head``, ``directive``, ``q`` and memory ``lines`` (as ``session.send`` with ``explain`` shows
them). For 0, 1, 2 and all lines: another session's prompt first (so the head is restored from
disk, as a session's first turn after another agent spoke), then the turn with ``max_tokens`` 1;
the median of three. Prints the milliseconds of each step and a fit of first-token time against the
tokens read: the intercept is what no cap on reading can remove. Wall time on a shared machine:
compare within a run, give ``uptime``.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

from xaid.config import LLMConfig
from xaid.providers import llama_prefix, llama_state
from xaid.providers.base import ChatMessage, GenerateRequest
from xaid.providers.llama_cpp import LlamaCppProvider

from ..kit import MODELS

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
OTHER = (ChatMessage("system", "You are Bo."), ChatMessage("user", "Hi Bo, long day. 今天好累。"))


def _turn(p: LlamaCppProvider, msgs: list[ChatMessage], label: str) -> tuple[float, int, float]:
    """(ms to the first piece, tokens read, ms llama.cpp spent reading), median of three."""
    out = []
    for r in range(3):
        p.generate(
            GenerateRequest(OTHER, max_tokens=2, session=f"o{r}{label}", agent="o"),
            lambda s: None,
            threading.Event(),
        )
        p.settle()
        req = GenerateRequest(tuple(msgs), max_tokens=1, session=f"s{r}{label}", agent="a")
        first: list[float] = []
        t0 = time.perf_counter()

        def seen(piece: str, got: list[float] = first) -> None:
            got.append(time.perf_counter())

        c = p.generate(req, seen, threading.Event())
        p.settle()
        end = first[0] if first else time.perf_counter()
        out.append(((end - t0) * 1000, c.prompt_eval_tokens or 0, c.prompt_eval_ms or 0.0))
    out.sort()
    return out[1]


def main(argv: list[str]) -> int:
    turn = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    model = argv[1] if len(argv) > 1 else MODELS["qwen2.5-1.5b"]
    cfg = dataclasses.replace(LLMConfig(), model_path=model, head_cache_mb=512)
    p = LlamaCppProvider(cfg, None, Path(tempfile.mkdtemp(prefix="xaid-ttft-split-")) / "hc")
    p.load()
    p.prewarm("a", turn["head"])
    t = time.perf_counter()
    saved = p.heads.load("a", turn["head"])
    assert saved is not None
    took = (time.perf_counter() - t) * 1000
    print(
        f"head state from disk: {took:.1f} ms ({len(saved.data) / 2**20:.1f} MB, {len(saved.tokens)} tokens)"
    )
    t = time.perf_counter()
    llama_state.restore(p._llm, llama_state.Saved(saved.tokens, saved.data))
    print(f"head state into llama.cpp: {(time.perf_counter() - t) * 1000:.1f} ms")
    lines: list[str] = turn["lines"]
    head, directive, q = (
        ChatMessage("system", turn["head"]),
        ChatMessage("system", turn["directive"]),
        ChatMessage("user", turn["q"]),
    )
    whole = [head, ChatMessage("system", "You remember:\n" + "\n".join(lines)), directive, q]
    t = time.perf_counter()
    text = llama_prefix.template_prompt(p._llm, [m.to_openai() for m in whole]) or ""
    n = len(p._llm.tokenize(text.encode(), add_bos=False, special=True))
    print(f"chat template and tokenising: {(time.perf_counter() - t) * 1000:.1f} ms ({n} tokens)")
    points = []
    for k in sorted({0, 1, 2, len(lines)}):
        msgs = (
            [head, directive, q]
            if k == 0
            else [
                head,
                ChatMessage("system", "You remember:\n" + "\n".join(lines[:k])),
                directive,
                q,
            ]
        )
        ms, read, read_ms = _turn(p, msgs, str(k))
        points.append((read, ms))
        print(
            f"{k} memory lines: first token {ms:.0f} ms, read {read} tokens in {read_ms:.0f} ms, "
            f"the rest {ms - read_ms:.0f} ms"
        )
    xs, ys = [x for x, _ in points], [y for _, y in points]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in points) / max(1e-9, sum((x - mx) ** 2 for x in xs))
    print(
        f"first token ≈ {my - slope * mx:.0f} ms + {slope:.1f} ms per token read ({1000 / slope:.0f} tokens/s)"
    )
    print(f"load average {os.getloadavg()}")
    p.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
