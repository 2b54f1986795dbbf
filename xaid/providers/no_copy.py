"""A reply may not copy the user's newest message back at them.

Measured on Qwen2.5-Coder-1.5B with the Chinese demo evening ("终于到家了。我筋疲力尽：版本又延期了，
电话会一直开到九点。" then "只想睡觉。明天还得跟经理讲清楚修复方案。"): 9 of 16 replies copied eight or
more characters of what the user had just said ("只想睡觉，明天还得跟经理讲清楚修复方案。"), with the
directive, without it, and whatever its wording; repeat and presence penalties moved it by one or
two. So sampling forbids it instead: once the reply's last ``n - 1`` tokens are a run of the
message, the token that would extend the copy to ``n`` is left out. Shorter echoes stay possible
("修复方案" is two tokens), so a reply can still name what the user talked about.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

Processor = Callable[[npt.NDArray[np.intc], npt.NDArray[np.single]], npt.NDArray[np.single]]


def continuations(source: Sequence[int], n: int) -> dict[tuple[int, ...], set[int]]:
    """For each run of ``n - 1`` tokens of ``source``, the tokens that follow it there."""
    out: dict[tuple[int, ...], set[int]] = {}
    for i in range(len(source) - n + 1):
        out.setdefault(tuple(source[i : i + n - 1]), set()).add(int(source[i + n - 1]))
    return out


def processor(source: Sequence[int], n: int) -> Processor:
    """A llama-cpp-python logits processor for one completion: the first call marks where the prompt
    ends, so only the reply's own tokens are compared with ``source``."""
    follows = continuations(source, n)
    prompt_end: list[int] = []

    def block(
        input_ids: npt.NDArray[np.intc], scores: npt.NDArray[np.single]
    ) -> npt.NDArray[np.single]:
        if not prompt_end:
            prompt_end.append(len(input_ids))
        reply = input_ids[prompt_end[0] :]
        if len(reply) >= n - 1:
            for token in follows.get(tuple(int(t) for t in reply[len(reply) - (n - 1) :]), ()):
                scores[token] = -np.inf
        return scores

    return block


def for_text(llm: Any, text: str, n: int) -> Processor | None:
    """The processor for a reply to ``text``; None when it is off (``n`` < 2) or the text is too short."""
    if n < 2 or not text.strip():
        return None
    tokens = llm.tokenize(text.encode("utf-8"), add_bos=False, special=False)
    return processor(tokens, n) if len(tokens) >= n else None
