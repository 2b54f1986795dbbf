""" "Forget that" recognised in the words people use: area ``forget_dev7`` of ``python -m perf``.

Issue 24 item 2, recognition alone, on perf/scenarios/forget_requests_dev7.json (written and
committed alone before the seventh pass): 50 requests per language said the way people talk and 50
look-alikes per language that must not fire. Each message is read as the daemon reads it
(forget_intent_dev.after: the frames, the prototypes as a second opinion, the learned classifier)
and counted per language and half: recognised (carried out), asked back (the companion asks whether
to forget; nothing is gone until a yes), missed; a look-alike carried out is a mis-fire, one asked
about is counted apart. The test half was never tuned on; the train half may have been.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from ..kit import Row, Section, load_scenario, progress
from .forget_intent_dev import Reading, after, cached_use, rows_of

SET = "forget_requests_dev7.json"
HALVES = ("test", "train")


def tally(read: Callable[[str], Reading], half: str, name: str = SET) -> Counter[str]:
    """Per language: requests, recognised, asked; look-alikes ("negatives"), mis-fired, asked
    about (the keys forget_intent_dev.rows_of reads), of ``name`` (a set in dev7's format)."""
    data = load_scenario(name)
    counts: Counter[str] = Counter()
    for case in data["requests"]:
        if case["split"] == half:
            request, unsure = read(case["text"])
            lang = case["lang"]
            counts[f"{lang}:requests"] += 1
            counts[f"{lang}:recognised"] += request is not None and not unsure
            counts[f"{lang}:asked"] += request is not None and unsure
    for case in data["lookalikes"]:
        if case["split"] == half:
            request, unsure = read(case["text"])
            lang = case["lang"]
            counts[f"{lang}:negatives"] += 1
            counts[f"{lang}:misfired"] += request is not None and not unsure
            counts[f"{lang}:neg_asked"] += request is not None and unsure
    return counts


def run(quick: bool) -> Section:
    progress("forget_dev7: loading USE-multilingual-v3")
    read = after(cached_use())
    rows: list[Row] = []
    for half in HALVES[:1] if quick else HALVES:
        progress(f"forget_dev7: {half} half")
        rows += rows_of(tally(read, half), f"dev7 {half}", half == "test")
    notes = [
        "perf/scenarios/forget_requests_dev7.json: 25 requests and 25 look-alikes per language in "
        "each half, read as xaid/conversation/forgetting.py reads them (frames, prototypes, the "
        "classifier of xaid/memory/forget_intent.py). The test half was never tuned on.",
        "Before the seventh pass (main at 1b57503), same command: test en 13/25 carried out + 9 "
        "asked back, zh 13/25 + 6; train en 16/25 + 5, zh 13/25 + 4; 0 look-alikes carried out.",
    ]
    return Section("Forget requests recognised: dev set 7 (issue 24 item 2)", rows, notes)
