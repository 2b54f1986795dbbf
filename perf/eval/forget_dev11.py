""" "Forget that" said without the word forget, acted on: area ``forget_dev11`` of ``python -m perf``.

Issue 24 item 2, played like ``forget_dev4`` (forget_honoured.py) on perf/scenarios/forgets_dev11.json
(written and committed alone before the eleventh pass): 22 requests per language referring by
paraphrase, a person, "that", a day named or a vague time, nearly all without a forget-word (删了,
别记, 当没听过, 翻篇, "scrap that", "pretend I never told you", "bin it"), inside longer messages,
with typos, in mixed language, each over older sessions sharing a person, the day, the week, a
feeling or words with the target, which must survive; and 12 look-alikes per language that use the
same words and ask nothing (删了一半照片, 翻篇了 about a quarrel that is over, "scrap the report").
``XAID_PERF_FORGET_SPLIT`` picks the halves (``all`` reports train and test apart; the test half is
never tuned on).
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

# Main at fe0c86c with the set alone committed (9e40edf), XAID_PERF_FORGET_SPLIT=all.
BEFORE = (
    "Before the eleventh pass (main at fe0c86c, same command, both halves): honoured train en 4/11, "
    "zh 6/11, test en 4/11, zh 3/11; recognised train en 9/11 (4 asked back), zh 7/11 (1), test en "
    "8/11 (2), zh 7/11 (3); requests with an unrelated word lost train en 1, zh 0, test en 0, zh 0; "
    "look-alikes read as a request 0 of 24 (asked back en 2)."
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev11.json",
        "dev11",
        "Forget said without the word forget: dev set 11 (issue 24 item 2)",
        "forget_dev11",
        before=BEFORE,
    )
