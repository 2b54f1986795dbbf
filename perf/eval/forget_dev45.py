""" "Forget that" on a dev set in the held-out sets' format: area ``forget_dev45``.

Issue 24 item 2. perf/scenarios/forgets_dev45.json is written as heldout4-6's forgets are (every
request and look-alike has its own older session sharing a person, a place or words, which must
stay), so the misses the held-out sets only count (private) can be read here: 30 requests and 30
look-alikes per language, train and test halves. Played by the held-out harness's own functions
(understanding.play_request, play_negative: the same chat turns, the same question back answered
as a person who reads it), each half apart; the notes name every miss, so the train half is what a
change is tuned on and the test half what it is measured on.
"""

from __future__ import annotations

from typing import Any

from ..kit import Row, Section, day0, scratch_daemon
from . import heldout_files, understanding

SET = "forgets_dev45.json"
HALVES = ("train", "test")


def half(data: dict[str, Any], name: str) -> dict[str, Any]:
    """``data`` with only the items of one half."""
    return {
        **data,
        "requests": [r for r in data["requests"] if r["split"] == name],
        "negatives": [n for n in data["negatives"] if n["split"] == name],
    }


def played(name: str, label: str, quick: bool) -> tuple[list[Row], list[str]]:
    """Each half of the forgets file ``name`` played apart on one scratch daemon: the rows (their
    figures said as ``label`` and the half) and the notes naming every miss."""
    data = heldout_files.forgets(name)
    base = day0(data)
    every = 5 if quick else 1
    rows: list[Row] = []
    notes = [
        f"perf/scenarios/{name}, halves {', '.join(HALVES)}"
        + (", every fifth case" if quick else "")
    ]
    with scratch_daemon() as daemon, daemon.client(timeout=300.0) as c:
        for half_name in HALVES:
            part = half(data, half_name)
            out = understanding.Forgets()
            for case in part["requests"][::every]:
                understanding.play_request(c, case, part["keep"][case["lang"]], base, out)
            for neg in part["negatives"][::every]:
                understanding.play_negative(c, neg, part["keep"][neg["lang"]], base, out)
            found, said, cases = understanding.forget_rows(out)
            rows += understanding.relabelled(found, f"{label} {half_name}")
            notes += [f"{half_name}: {n}" for n in (*said, *cases)]
    return rows, notes


def run(quick: bool) -> Section:
    rows, notes = played(SET, "dev45", quick)
    return Section(
        "Forget on a dev set in the held-out format: dev set 45 (issue 24 item 2)",
        rows,
        notes,
        area="forget_dev45",
    )
