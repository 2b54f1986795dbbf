"""``python -m perf tone_dev9``: a reply that cheers at a hardship, on perf/scenarios/tone_dev9.json.

`make demo`'s 1.5B answered the evening's "I just want to sleep…" with "That's great!", and real
0.5B/1.5B replies in voice_dev8.json applaud a back "killing me" ("That's great to hear!", "真棒！
你辛苦了。"). A friend does not cheer at that. The set pairs each hardship with a cheering reply and
a sympathetic one, and holds good news, plans and mixed messages with approving replies (which
must pass), so a rule that reads the message alone cannot score. Judged as voice_dev8 judges its
labels (each reply streamed through the gate in random pieces): recall of "cheer", precision,
fine replies dropped, per language and half (train tuned on, test never). No model, no daemon.
"""

from __future__ import annotations

from ..kit import Section
from .voice_dev8 import labelled

SET = "tone_dev9.json"


def run(quick: bool) -> Section:
    return labelled(
        SET, "A reply that cheers at a hardship: tone_dev9 (issue 25 item 2)", ("cheer",)
    )
