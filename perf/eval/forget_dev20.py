""" "Forget that" for a telling that goes on over several lines: area ``forget_dev20``.

Issue 24 item 2, twentieth pass. Plays perf/scenarios/forgets_dev20.json (written and committed
alone before the pass: 18 Chinese and 18 English requests whose telling spans two to four user
lines of one conversation, answered turn by turn by the companion: continuation lines that hold
neither a pronoun, an aspect word nor much meaning in common with the first line ("we're not
speaking now", 全场的人都看见了, "wasn't enough", 一分没见着); a line turning to another matter
after the telling (对了, 换个话题, "anyway", "btw") whose words must survive; and 6 controls per
language where a line beside the telling is another matter, most without a marker, and must
survive; 3 look-alikes per language) through the shared runner of forget_honoured.py, both halves,
and reports per language and half: recognised, honoured (the words gone a week later, continuation
lines and the episode included), collateral and look-alikes read as a request. The same section
plays the test halves of forgets_dev19, dev18 and dev17 (never tuned on), so that a gain here is
read next to any loss there.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev19.json", "dev19"),
    ("forgets_dev18.json", "dev18"),
    ("forgets_dev17.json", "dev17"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev20.json",
        "dev20",
        "Forget for a telling that goes on over several lines (continuation lines, the episode, "
        "a line of another matter beside it): dev set 20 and the earlier test halves (issue 24 "
        "item 2)",
        "forget_dev20",
        splits=("train", "test"),
        earlier=EARLIER,
    )
