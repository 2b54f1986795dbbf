""" "Forget that" honoured more often and never more than asked: area ``forget_dev12`` of ``python -m perf``.

Issue 24 item 2, twelfth pass. Plays perf/scenarios/forgets_dev12.json (written and committed alone
before the pass) like ``forget_dev4`` (forget_honoured.py), both halves, and reports per language and
half: honoured (the words gone a week later), asked back, asked back with the likeliest match hidden
from recall meanwhile, requests that lost an unrelated session's word (collateral), and look-alikes
read as a request. A gain here must not be a loss on the earlier sets, so the same section also
plays the test halves of forgets_dev11, forgets_dev10 and forgets_dev5 (never tuned on).
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

# Main at c0fdd76 with the set and this module committed (2481b01), same command.
BEFORE = (
    "Before the twelfth pass (main at c0fdd76, same command): dev12 honoured train en 6/12, zh 5/12, "
    "test en 4/12, zh 2/12; asked back train en 3, zh 4, test en 4, zh 4 (none hiding); requests "
    "with an unrelated word lost train en 0, zh 0, test en 3, zh 5; look-alikes read as a request "
    "0 of 24; test halves honoured dev11 en 6/11, zh 5/11, dev10 en 5/8, zh 4/8, dev5 en 4/11, "
    "zh 4/11; with an unrelated word lost dev11 0/0, dev10 1/1, dev5 1/0."
)
EARLIER = (
    ("forgets_dev11.json", "dev11"),
    ("forgets_dev10.json", "dev10"),
    ("forgets_dev5.json", "dev5"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev12.json",
        "dev12",
        "Forget honoured more often, never more than asked: dev set 12 and the earlier test halves "
        "(issue 24 item 2)",
        "forget_dev12",
        splits=("train", "test"),
        earlier=EARLIER,
        before=BEFORE,
    )
