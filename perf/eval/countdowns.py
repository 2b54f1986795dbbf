"""``python -m perf.eval.countdowns [train|test]``: days counted down ("CFA还有十天", "a week left").

Issue 25 (session 37). morning_dev36's train half had two scenes that nothing armed: "CFA一级还有十天
题刷不完" and "答辩ppt还剩一半 / 还有八天 导师说我第三章太水": a countdown names the day of the exam or
the defense, and the time reader (xaid/text/timeparse.py) read no day in either, so no plan was
armed and the next morning asked nothing. perf/scenarios/countdowns_dev37.json holds 120 messages
(60 per language), written before the rule by a writer who never read it: countdowns with the
number of days to their day, and lookalikes with a number of days that name no day ahead ("已经
三天没睡好了", "I've got 10 days of PTO left").

Each message is read as said on a Wednesday at 21:00; a countdown is read right when the soonest
time ahead (``timeparse.earliest_future``, what arming dates a plan by) falls on its day (within a
day for a count in months, which the calendar makes 28 to 31 days), a lookalike when no time ahead
is read. Per language and half. Pure: no daemon, no embedder (well under a second).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass

from xaid import clock
from xaid.text import timeparse

from ..kit import SCENARIOS

SAID_MS = 1_767_819_600_000  # Wednesday 2026-01-07 21:00 UTC
MONTHLY = 28  # a count from this many days may be a month counted on the calendar


@dataclass(frozen=True, slots=True)
class Judged:
    id: str
    lang: str
    half: str
    text: str
    want: int | None
    got: int | None  # days from the day it was said to the soonest time ahead read

    @property
    def right(self) -> bool:
        if self.want is None or self.got is None:
            return self.want == self.got
        return abs(self.got - self.want) <= (1 if self.want >= MONTHLY else 0)


def ahead_days(text: str, said_ms: int = SAID_MS) -> int | None:
    ref = timeparse.earliest_future(timeparse.find_times(text, said_ms))
    if ref is None:
        return None
    return (ref.date_from - clock.local(said_ms).date()).days


def judge(half: str = "") -> list[Judged]:
    items = json.loads((SCENARIOS / "countdowns_dev37.json").read_text(encoding="utf-8"))["items"]
    return [
        Judged(i["id"], i["lang"], i["half"], i["text"], i["ahead_days"], ahead_days(i["text"]))
        for i in items
        if not half or i["half"] == half
    ]


def main(argv: list[str]) -> None:
    half = argv[0] if argv else ""
    judged = judge(half)
    for j in judged:
        if not j.right and (half == "train" or not half):
            print(f"miss {j.id} want {j.want} got {j.got}: {j.text}")
    for h in sorted({j.half for j in judged}):
        for lang in ("en", "zh"):
            cell = [j for j in judged if j.half == h and j.lang == lang]
            down = [j for j in cell if j.want is not None]
            alike = [j for j in cell if j.want is None]
            print(
                f"{h} {lang}: countdowns read {sum(j.right for j in down)}/{len(down)},"
                f" lookalikes left alone {sum(j.right for j in alike)}/{len(alike)}"
            )


if __name__ == "__main__":
    main(sys.argv[1:])
