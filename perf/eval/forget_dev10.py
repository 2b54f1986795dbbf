""" "Forget that" does what was asked, no more: area ``forget_dev10`` of ``python -m perf``.

Issue 24 item 2, played like ``forget_dev4`` (forget_honoured.py) on perf/scenarios/forgets_dev10.json
(written and committed alone before the tenth pass): 19 requests per language referring by
paraphrase, a person, "that", a day named or a vague time, in many styles (当没说过, 别记着, 翻篇,
a request inside a longer message, typos, mixed language), each over older sessions sharing a
person, the day, the week, a feeling or words with the target, which must survive; two per
language where two evenings fit and a question back is right; and 12 look-alikes per language that
use a forget-word and ask nothing ("I forgot my keys", 忘了带伞). ``XAID_PERF_FORGET_SPLIT`` picks
the halves (``all`` reports train and test apart; the test half is never tuned on).
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

# Main at ac6d5e1 with the set alone committed (5014f28), XAID_PERF_FORGET_SPLIT=all.
BEFORE = (
    "Before the tenth pass (main at ac6d5e1, same command, both halves): honoured train en 3/9, "
    "zh 3/9, test en 4/8, zh 2/8; recognised train en 6/9 (2 asked back), zh 6/9 (3), test en "
    "7/8 (3), zh 6/8 (4); requests with an unrelated word lost train en 3, zh 0, test en 1, zh 1; "
    "two evenings asked back 3 of 4; look-alikes read as a request 0 of 24."
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev10.json",
        "dev10",
        "Forget does what was asked, no more: dev set 10 (issue 24 item 2)",
        "forget_dev10",
        before=BEFORE,
    )
