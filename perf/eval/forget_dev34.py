""" "Forget that" written by someone who never read the rules: area ``forget_dev34``.

Issue 24 item 2. Plays perf/scenarios/forgets_dev34.json (written and committed alone before the
change it measures, by a writer who had not read xaid/memory/forget*.py nor the earlier sets: 30
requests per language pointing at the matter by paraphrase, person, time or "that", about a third
with no forget-word, half with an everyday matter that shares the person or the topic and must
stay; 30 look-alikes per language that use forget, delete and memory words and ask nothing)
through the shared runner of forget_honoured.py, both halves: honoured, collateral, asked back,
look-alikes read as a request. The train half may be tuned on; the test half is only measured.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev34.json",
        "dev34",
        "Forget said the way an outside writer says it: dev set 34 (issue 24 item 2)",
        "forget_dev34",
        splits=("train", "test"),
    )
