""" "Forget that" about a person in two matters, one private: area ``forget_dev32``.

Issue 24 item 2. Plays perf/scenarios/forgets_dev32.json (written and committed alone before the
change it measures: a person in two conversations, one private or painful and one everyday, the
request naming the person with vague words, "the Marcus stuff", 我姨那些事; controls where the
happy or everyday matter is named by its own words and the painful one must stay) through the shared
runner of forget_honoured.py, both halves: honoured, the person's other matter lost (collateral),
asked back, look-alikes read as a request. The same section plays the test halves of the earlier
sets that hold a person in another matter (dev15, dev14, dev13, dev6), never tuned on here.
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev15.json", "dev15"),
    ("forgets_dev14.json", "dev14"),
    ("forgets_dev13.json", "dev13"),
    ("forgets_dev6.json", "dev6"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev32.json",
        "dev32",
        "Forget about a person in two matters, the private one meant: dev set 32 and the earlier "
        "test halves (issue 24 item 2)",
        "forget_dev32",
        splits=("train", "test"),
        earlier=EARLIER,
    )
