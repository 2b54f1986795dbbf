""" "Forget that" takes the matter asked about and nothing else: area ``forget_dev13`` of ``python -m perf``.

Issue 24 item 2, thirteenth pass. Plays perf/scenarios/forgets_dev13.json (written and committed
alone before the pass: a person in two matters, a telling that goes on in short lines, look-alikes)
like ``forget_dev4`` (forget_honoured.py), both halves, and reports per language and half: honoured
(the words gone a week later), by focus (two matters, continuation lines), asked back, asked back
with the likeliest match hidden meanwhile, requests that lost an unrelated session's word (and of
them, those whose words were only hidden while asking, still stored), and look-alikes read as a
request. A gain here must not be a loss on the earlier sets, so the same section also plays the
test halves of forgets_dev12, dev11, dev10 and dev5 (never tuned on).
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev12.json", "dev12"),
    ("forgets_dev11.json", "dev11"),
    ("forgets_dev10.json", "dev10"),
    ("forgets_dev5.json", "dev5"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev13.json",
        "dev13",
        "Forget takes the matter asked about and nothing else: dev set 13 and the earlier test "
        "halves (issue 24 item 2)",
        "forget_dev13",
        splits=("train", "test"),
        earlier=EARLIER,
    )
