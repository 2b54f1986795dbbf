""" "Forget that" taking no more than asked: area ``forget_dev5`` of ``python -m perf``.

Issue 24 item 2, played like ``forget_dev4`` (forget_honoured.py) on perf/scenarios/forgets_dev5.json,
whose histories hold older sessions that look like the matter to forget (the same person in another
matter, the same place, the same week, a similar feeling, shared common words) and must survive,
and time-named requests two evenings fit equally, where the right answer is a question back.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_set


def run(quick: bool) -> Section:
    return run_set(
        quick,
        "forgets_dev5.json",
        "dev5",
        "Forget takes no more than asked: dev set 5 with look-alike sessions (issue 24 item 2)",
        "forget_dev5",
    )
