""" "Forget that" honoured more often, by meaning: area ``forget_dev14`` of ``python -m perf``.

Issue 24 item 2, fourteenth pass. Plays perf/scenarios/forgets_dev14.json (written and committed
alone before the pass: requests referring by paraphrase and by person weighted, the Chinese ones
naming people with 老/小/阿 and kinship terms, half with a later session touching the matter in one
line, look-alikes) like ``forget_dev4`` (forget_honoured.py), both halves, and reports per language
and half: honoured (the words gone a week later; by kind and for the requests with a passing later
mention), asked back, asked back with the likeliest match hidden meanwhile, requests that lost an
unrelated session's word (collateral), and look-alikes read as a request. A gain here must not be a
loss on the earlier sets, so the same section also plays the test halves of forgets_dev13, dev12,
dev11, dev10 and dev5 (never tuned on).
"""

from __future__ import annotations

from ..kit import Section
from .forget_honoured import run_dev

EARLIER = (
    ("forgets_dev13.json", "dev13"),
    ("forgets_dev12.json", "dev12"),
    ("forgets_dev11.json", "dev11"),
    ("forgets_dev10.json", "dev10"),
    ("forgets_dev5.json", "dev5"),
)


def run(quick: bool) -> Section:
    return run_dev(
        quick,
        "forgets_dev14.json",
        "dev14",
        "Forget honoured more often, by meaning: dev set 14 and the earlier test halves "
        "(issue 24 item 2)",
        "forget_dev14",
        splits=("train", "test"),
        earlier=EARLIER,
    )
