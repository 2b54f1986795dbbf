""" "Forget that" recognised and honoured in Chinese as people say it: area ``forget_dev18``.

Issue 24 item 2, eighteenth pass. Plays perf/scenarios/forgets_dev18.json (written and committed
alone before the pass: 29 Chinese and 16 English requests of the kinds earlier sets cover thinly: a
quarrel, an embarrassment, a health matter, money, a third person by role (我妈, 我领导, 前任), by
time (前天晚上, 上周末), softened or indirect (别放心上, 当我没说, 这个你就不用记了, 刚才那段不算),
said with a new topic in the same message (focus ``mixed``), and matters told over three lines
whose second and third neither repeat the matter's words nor point back (focus ``story``: those
lines must go too); 9 look-alikes per language that use forget-words and ask nothing) through the
shared runner of forget_honoured.py, both halves, and reports per language and half: recognised,
asked back, honoured (the words gone a week later), collateral and look-alikes read as a request.
The same section plays the test halves of forgets_dev17 and dev15 (never tuned on), so that a gain
here is read next to any loss there.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev17.json", "dev17"),
    ("forgets_dev15.json", "dev15"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev18.json",
        "dev18",
        "Forget recognised and honoured in Chinese as people say it: dev set 18 and the earlier "
        "test halves (issue 24 item 2)",
        "forget_dev18",
        splits=("train", "test"),
        earlier=EARLIER,
    )
