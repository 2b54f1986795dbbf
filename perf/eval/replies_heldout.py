"""The replies area on the held-out scenes (perf/scenarios/replies_heldout.json): the check that
prompts tuned on replies.json generalise to other topics and people (perf/eval/replies.py)."""

from __future__ import annotations

from ..kit import Section
from . import replies


def run(quick: bool) -> Section:
    return replies.run(quick, default_set="heldout")
