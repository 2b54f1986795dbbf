""" "Forget that" honoured, nothing else lost, no mis-fires: area ``forget_dev6`` of ``python -m perf``.

Issue 24 item 2, played like ``forget_dev4`` (forget_honoured.py) on perf/scenarios/forgets_dev6.json
(written and committed alone before the sixth pass): 32 requests per language referring by
paraphrase, a person, an exact time, a vague time ("the other night", 前几天) or "that", each over
older sessions sharing a person, a place, the day or words with the target, which must survive; and
30 look-alikes per language (the user forgetting to do something, reminders, questions about memory,
wishes, tasks on files, "forget it", someone else's words), each said after an older session that
shares its person, place or words: nothing may fire and nothing may be lost. ``XAID_PERF_FORGET_SPLIT``
picks the halves (``all`` reports train and test apart; the test half is never tuned on).
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_set


def run(quick: bool) -> Section:
    return run_set(
        quick,
        "forgets_dev6.json",
        "dev6",
        "Forget honoured, nothing else lost, no mis-fires: dev set 6 (issue 24 item 2)",
        "forget_dev6",
    )
