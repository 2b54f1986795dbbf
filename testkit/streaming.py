"""A reply fed to the voice gate as a provider streams it: pieces of 1-4 characters, cut at random.

The gate (xaid/conversation/voice.py) holds and checks sentence by sentence; where a piece ends
must not change what the user reads, so the tests and perf's voice_dev area cut the same reply in
several ways (``seed``)."""

from __future__ import annotations

import random

from xaid.conversation.voice import VoiceGate


def streamed(gate: VoiceGate, text: str, seed: int, cut: bool = False) -> str:
    """What the user reads of ``text`` fed to ``gate`` in random pieces, the unfinished end included
    (``cut``: the model was stopped there by ``max_tokens``, ``VoiceGate.finish``)."""
    rng, out, i = random.Random(seed), "", 0
    while i < len(text):
        k = rng.randint(1, 4)
        out += gate.feed(text[i : i + k])
        i += k
    return out + gate.finish(cut)
