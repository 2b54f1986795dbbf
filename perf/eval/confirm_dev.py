"""``python -m perf.eval.confirm_dev [GGUF]``: do a session's unsure fact candidates get the same
verdicts asked in one call (xaid/memory/confirm.py) as asked one per call (issue 28 item 5)?

The set is perf/scenarios/confirm_dev.json: short sessions whose statements the fact rules are
unsure of, in English, Chinese and both. Each session's unsure candidates are asked both ways on
the same model (temperature 0; default the 1.5B at $XAID_PERF_GGUF_DIR); printed: how many
verdicts agree, how many match a person's reading where it is clear, and the calls and seconds of
each way. Not a ``python -m perf`` area: it needs the model file, which CI does not have.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading
import time
from pathlib import Path

import anyio

from xaid.config import LLMConfig
from xaid.memory import confirm
from xaid.memory.rules import extract
from xaid.providers.base import ChatMessage, GenerateRequest
from xaid.providers.llama_cpp import LlamaCppProvider

from ..kit import GGUF

SET = Path(__file__).resolve().parents[1] / "scenarios" / "confirm_dev.json"


def main(path: str) -> None:
    provider = LlamaCppProvider(
        dataclasses.replace(LLMConfig(), model_path=path, n_ctx=2048, n_threads=0, seed=5)
    )
    provider.load()
    calls = {"single": 0, "batched": 0}
    seconds = {"single": 0.0, "batched": 0.0}
    way = "single"

    async def ask(prompt: str, tokens: int) -> str | None:
        calls[way] += 1
        request = GenerateRequest((ChatMessage("user", prompt),), (), tokens, 0.0)
        start = time.perf_counter()
        out = provider.generate(request, lambda _piece: None, threading.Event())
        seconds[way] += time.perf_counter() - start
        return out.text

    agree = total = right = right_alone = clear = 0
    for session in json.loads(SET.read_text(encoding="utf-8"))["sessions"]:
        cands: list[extract.Candidate] = []
        truth: list[bool | None] = []
        for line, lasting in zip(session["lines"], session["lasting"], strict=True):
            for c in extract.candidates(line):
                if c.confidence < confirm.SURE:
                    cands.append(c)
                    truth.append(lasting)
        if not cands:
            continue
        way = "single"
        alone = [anyio.run(confirm.confirm, [c], ask).kept[0] for c in cands]
        way = "batched"
        together = anyio.run(confirm.confirm, cands, ask).kept
        for a, b, t in zip(alone, together, truth, strict=True):
            total += 1
            agree += a == b
            if t is not None:
                clear += 1
                right += b == t
                right_alone += a == t
        print(f"{session['id']}: one by one {alone}, in one call {together}, a person {truth}")
    print(
        f"{Path(path).name}: {agree}/{total} verdicts the same both ways; as a person reads them: "
        f"one by one {right_alone}/{clear}, in one call {right}/{clear}; "
        f"calls one by one {calls['single']} ({seconds['single']:.1f} s), "
        f"in one call per session {calls['batched']} ({seconds['batched']:.1f} s)"
    )


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else str(GGUF / "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf")
    )
