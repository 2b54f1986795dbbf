""" "Forget that" finds what it refers to, by meaning, in Chinese as people say it: area ``forget_dev17``.

Issue 24 item 2, seventeenth pass. Plays perf/scenarios/forgets_dev17.json (written and committed
alone before the pass: 28 Chinese requests said as people really say them, mostly without 忘/删
(别再提, 就当我没说过, 别记着了, 把…那段删了吧, 帮我把关于…的都清掉, 翻篇吧), naming the matter by a
synonym or a role instead of the words said (体检结果, 那个老同学, 割眼皮), by time (上周二晚上,
前几天晚上, 周日下午) or mixed with English (offer, breakup); 20 English ones; 9 and 8 look-alikes
that use forget-words and ask nothing) through the shared runner of forget_honoured.py, both
halves, and reports per language and half: recognised, asked back, honoured (the words gone a week
later), collateral and look-alikes read as a request. The same section plays the test halves of
forgets_dev15 and dev14 (never tuned on), so that a gain here is read next to any loss there.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev15.json", "dev15"),
    ("forgets_dev14.json", "dev14"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev17.json",
        "dev17",
        "Forget finds what it refers to, by meaning, in Chinese as people say it: dev set 17 and "
        "the earlier test halves (issue 24 item 2)",
        "forget_dev17",
        splits=("train", "test"),
        earlier=EARLIER,
    )
