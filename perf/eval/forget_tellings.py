"""Every forget dev set at once, both halves: area ``forget_tellings``.

A change to what a forget takes (how far a telling goes, session 35) moves a few requests in each
of fifteen sets, and the per-set areas (forget_dev4 … forget_dev34) each play one. This plays the
requests and look-alikes of forgets_dev4.json … forgets_dev34.json through the shared runner of
forget_honoured.py, a scratch daemon per set (their case ids repeat), and sums the halves: train
(tuned on) and test (only measured). The notes name the missed and collateral cases of the train
halves only.
"""

from __future__ import annotations

from ..kit import Section, day0, load_scenario, progress, scratch_daemon
from .forget_honoured import Tally, play_negative, play_request, rows_of

SETS = tuple(
    f"forgets_dev{n}.json" for n in (4, 5, 6, 10, 11, 12, 13, 14, 15, 17, 18, 19, 20, 32, 34)
)


def run(quick: bool) -> Section:
    every = 5 if quick else 1
    tally = Tally()
    train_misses: list[str] = []
    for name in SETS:
        data = load_scenario(name)
        base = day0(data)
        with scratch_daemon() as daemon, daemon.client(timeout=300.0) as c:
            progress(f"forget_tellings: {name}")
            for case in data["requests"][::every]:
                before = len(tally.misses)
                play_request(c, case, data["keep"][case["lang"]], base, "", tally)
                if case["split"] == "train":
                    train_misses += [f"{name[8:-5]} {m}" for m in tally.misses[before:]]
            for neg in data["negatives"][::every]:
                play_negative(c, neg, data["keep"][neg["lang"]], base, tally)
    rows = [*rows_of(tally, "train", "", "dev4-34"), *rows_of(tally, "test", "", "dev4-34")]
    notes = [
        f"perf/scenarios/{', '.join(SETS)}: both halves"
        + (", every fifth case (--quick)" if quick else ""),
        "what still held a gone word in requests not honoured (both halves): "
        + (", ".join(f"{k} {v}" for k, v in sorted(tally.leftovers.items())) or "nothing"),
        f"train halves' misses ({len(train_misses)}): " + "; ".join(train_misses),
    ]
    return Section(
        "Forget on every dev set, both halves (issue 24 item 2)",
        rows,
        notes,
        area="forget_tellings",
    )
