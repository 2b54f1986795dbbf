"""The reply may not copy the user's newest message: the rule on token lists, then on the real
SmolLM2-135M in this process, asked outright to repeat a sentence."""

from __future__ import annotations

import dataclasses
import os
import threading

import numpy as np
import pytest

from xaid.config import LLMConfig
from xaid.providers import no_copy
from xaid.providers.base import ChatMessage, GenerateRequest
from xaid.providers.llama_cpp import LlamaCppProvider, embedded_model_path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def test_the_token_that_would_extend_a_copy_is_left_out() -> None:
    block = no_copy.processor([5, 6, 7, 8, 9], 3)
    prompt = np.array([1, 2, 3], dtype=np.intc)
    assert np.isfinite(
        block(prompt, np.zeros(12, dtype=np.single))
    ).all()  # the prompt itself is not the reply
    scores = block(np.array([1, 2, 3, 6, 7], dtype=np.intc), np.zeros(12, dtype=np.single))
    assert (
        scores[8] == -np.inf and np.isfinite(np.delete(scores, 8)).all()
    )  # 6 7 -> 8 would copy three
    scores = block(np.array([1, 2, 3, 7, 6], dtype=np.intc), np.zeros(12, dtype=np.single))
    assert np.isfinite(scores).all()  # 7 6 is not a run of the source


def test_off_or_too_short_means_no_processor() -> None:
    class Tokens:
        def tokenize(self, text: bytes, add_bos: bool, special: bool) -> list[int]:
            return list(text)

    assert no_copy.for_text(Tokens(), "abcdef", 0) is None
    assert no_copy.for_text(Tokens(), "ab", 4) is None
    assert no_copy.for_text(Tokens(), "abcdef", 4) is not None


def grams(tokens: list[int], n: int) -> set[tuple[int, ...]]:
    return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}


@pytest.mark.llm
def test_the_model_asked_to_repeat_a_sentence_cannot_copy_it() -> None:
    said = "Repeat this sentence exactly and say nothing else: the purple elephant dances at midnight in Paris."
    cfg = dataclasses.replace(
        LLMConfig(), model_path=str(embedded_model_path()), n_ctx=512, n_threads=2, seed=3
    )
    p = LlamaCppProvider(cfg)
    p.load()
    try:

        def reply(n: int) -> list[int]:
            request = GenerateRequest(
                (ChatMessage("user", said),),
                max_tokens=24,
                temperature=0.0,
                no_copy=said,
                no_copy_tokens=n,
            )
            text = p.generate(request, lambda _piece: None, threading.Event()).text
            return p._llm.tokenize(text.encode(), add_bos=False, special=False)

        source = p._llm.tokenize(said.encode(), add_bos=False, special=False)
        assert grams(reply(0), 4) & grams(source, 4)  # allowed, it copies: the test can tell
        assert not grams(reply(4), 4) & grams(source, 4)
    finally:
        p.close()
