"""Look-alikes of "forget that" on a dev set in the held-out format: area ``forget_dev46``.

Issue 24 item 2 (0 mis-fires). The held-out sets count the forget-words that ask nothing and were read
as a request (Chinese 4/30 on the sixth, 2/30 on the fifth) but keep which ones private, so
perf/scenarios/forgets_dev46.json was written by an outside author on 2026-12-08, before session 46
changed anything about forgetting: mostly look-alikes (44 Chinese, 24 English: the user's own
forgetting, a reminder, a question, someone else's request reported, a wish, a story, a quote, an
idiom, the user deleting their own files, talk about the companion's memory, a hypothetical, a
request taken back in the same breath), each with its own older session naming the same person or
place, and six requests per language. Played as forget_dev45 plays its set (``forget_dev45.played``),
train and test halves apart, every miss named.
"""

from __future__ import annotations

from ..kit import Section
from .forget_dev45 import played

SET = "forgets_dev46.json"


def run(quick: bool) -> Section:
    rows, notes = played(SET, "dev46", quick)
    return Section(
        "Forget look-alikes on a dev set in the held-out format: dev set 46 (issue 24 item 2)",
        rows,
        notes,
        area="forget_dev46",
    )
