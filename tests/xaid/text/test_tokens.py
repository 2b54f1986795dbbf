"""One token estimate for the prompt budget, the memory block and the kept turns."""

from __future__ import annotations

from xaid.conversation import prompt
from xaid.memory import pack, utterances
from xaid.text.tokens import estimate_tokens


def test_three_characters_a_token_plus_the_template_overhead() -> None:
    assert estimate_tokens("") == 4
    assert estimate_tokens("x" * 30) == 14
    assert (
        estimate_tokens("今天好累" * 3) == 8
    )  # Chinese counts by characters too, with no tokenizer


def test_the_prompt_and_memory_measure_with_the_same_estimate() -> None:
    assert (
        prompt.estimate_tokens
        is pack.estimate_tokens
        is utterances.estimate_tokens
        is estimate_tokens
    )
