""" "Forget that" recognised in Chinese as in English and acted on: area ``forget_dev15`` of ``python -m perf``.

Issue 24 item 2, fifteenth pass. Plays perf/scenarios/forgets_dev15.json (written and committed
alone before the pass: Chinese requests by time, by paraphrase, by a person named with 老/小/阿 or a
kinship term, most without 忘/删 (当我没说, 别记着了, 翻篇吧); English ones mostly without "forget";
look-alikes that use the same words and ask nothing) like ``forget_dev4`` (forget_honoured.py), both
halves, and reports per language and half: recognised, honoured (the words gone a week later),
asked back, collateral and look-alikes read as a request. A gain here must not be a loss on the
earlier sets, so the same section also plays the test halves of forgets_dev14, dev13, dev12, dev11,
dev10 and dev5 (never tuned on).
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev14.json", "dev14"),
    ("forgets_dev13.json", "dev13"),
    ("forgets_dev12.json", "dev12"),
    ("forgets_dev11.json", "dev11"),
    ("forgets_dev10.json", "dev10"),
    ("forgets_dev5.json", "dev5"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev15.json",
        "dev15",
        "Forget recognised in Chinese as in English, acted on without needless asking back: dev set 15 "
        "and the earlier test halves (issue 24 item 2)",
        "forget_dev15",
        splits=("train", "test"),
        earlier=EARLIER,
    )
