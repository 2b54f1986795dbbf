"""Weighing answers instead of generating one: the model's doubt on a short question.

The memory asks the chat model yes/no questions (is a matter left open, is a feeling low or good).
Greedy, the default 1.5B says "yes" to nearly every one of them; the probability it gives "yes"
against "no" still ranks the sessions well (perf/eval/matter_judge.py: AUC 0.86-0.92 in English
against 0.70-0.80 for the check-in reader). So a request with ``choices`` is read, not answered:
the prompt as the chat path renders it (the file's own template, with the assistant header), then
the log-probability of each choice's first token as the reply's first token.

The live context is reused up to the longest prefix it holds (consolidation's prompts start alike);
the last token is always read again, since the logits wanted are those after it.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import llama_prefix, llama_state
from .base import ProviderError


def weigh(
    llm: Any, messages: list[dict[str, Any]], choices: Sequence[str]
) -> tuple[int, tuple[float, ...]]:
    """(the prompt's tokens, the log-probability of each choice's first token after it)."""
    import llama_cpp

    text = llama_prefix.template_prompt(llm, messages)
    if text is None:
        raise ProviderError("the model file has no chat template to weigh answers with")
    tokens = [int(t) for t in llm.tokenize(text.encode(), add_bos=False, special=True)]
    if not tokens or len(tokens) >= int(llm.n_ctx()):
        raise ProviderError(f"a prompt of {len(tokens)} tokens cannot be weighed in this context")
    firsts = []
    for choice in choices:
        first = llm.tokenize(choice.encode(), add_bos=False, special=False)
        if not first:
            raise ProviderError(f"the choice {choice!r} has no token")
        firsts.append(int(first[0]))
    held = min(llama_state.agreeing(llm, tokens), len(tokens) - 1)
    llama_cpp.llama_memory_seq_rm(llama_cpp.llama_get_memory(llm.ctx), 0, held, -1)
    llm.n_tokens = held
    llm.eval(tokens[held:])
    vocab = int(llm.n_vocab())
    ptr = llama_cpp.llama_get_logits_ith(llm.ctx, -1)
    logits = np.ctypeslib.as_array(ctypes.cast(ptr, ctypes.POINTER(ctypes.c_float)), (vocab,))
    z = logits.astype(np.float64)
    logp = z - float(np.logaddexp.reduce(z))
    return len(tokens), tuple(float(logp[t]) for t in firsts)
