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
from .forget_honoured import run_set

EARLIER = (
    ("forgets_dev11.json", "dev11"),
    ("forgets_dev10.json", "dev10"),
    ("forgets_dev5.json", "dev5"),
)


def run(quick: bool) -> Section:
    section = run_set(
        quick,
        "forgets_dev12.json",
        "dev12",
        "Forget honoured more often, never more than asked: dev set 12 and the earlier test halves "
        "(issue 24 item 2)",
        "forget_dev12",
        splits=("train", "test"),
    )
    for name, label in EARLIER:
        earlier = run_set(quick, name, label, label, "forget_dev12", splits=("test",))
        section.rows += earlier.rows
        section.notes += earlier.notes
    return section
