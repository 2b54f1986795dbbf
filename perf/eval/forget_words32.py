""" "Forget that" with a reason, told apart from a plan dismissed: area ``forget_words32``.

Issue 24 item 2, recognition alone, on perf/scenarios/forget_requests_dev32.json (written and
committed alone before the change it measures): requests whose forget-verb takes news or a matter
and give a reason of privacy or regret ("forget that Jo's pregnant, she hasn't told anyone",
老汤那事你忘掉，他让我别往外说), 20 per language, and 50 look-alikes per language that use the same
words and ask nothing ("forget the gym today, I'm wiped", someone else's forgetting, reminders).
Read as the daemon reads them (forget_intent_dev.after) and counted like ``forget_dev7``, per
language and half; the same section reads dev7's test half, so a gain here is read next to dev7.
"""

from __future__ import annotations

from ..kit import Row, Section, progress
from .forget_dev7 import tally
from .forget_intent_dev import after, cached_use, rows_of

SET = "forget_requests_dev32.json"


def run(quick: bool) -> Section:
    progress("forget_words32: loading USE-multilingual-v3")
    read = after(cached_use())
    rows: list[Row] = []
    for half in ("test",) if quick else ("test", "train"):
        rows += rows_of(tally(read, half, SET), f"dev32 {half}", half == "test")
    rows += rows_of(tally(read, "test"), "dev7 test", False)
    notes = [
        "perf/scenarios/forget_requests_dev32.json: 10 requests and 25 look-alikes per language in "
        "each half, read as xaid/conversation/forgetting.py reads them (frames, prototypes, the "
        "classifier of xaid/memory/forget_intent.py); then forget_requests_dev7.json's test half.",
    ]
    return Section(
        "Forget requests with a reason, and plans dismissed: dev set 32 (issue 24 item 2)",
        rows,
        notes,
        area="forget_words32",
    )
