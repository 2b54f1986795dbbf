"""A token count without a tokenizer: what the prompt budget, the memory block and the kept turns
are measured in.

Counting exactly would take the model's tokenizer, a model call for every candidate memory on
every turn. One estimate for English and Chinese alike keeps the three users (``prompt.build``,
``memory.pack``, ``memory.utterances``) agreeing on what fits; the constant 4 stands for the few
tokens a chat template puts around each message.
"""

from __future__ import annotations

CHARS_PER_TOKEN = 3  # a conservative estimate across English and Chinese


def estimate_tokens(text: str) -> int:
    return len(text) // CHARS_PER_TOKEN + 4
