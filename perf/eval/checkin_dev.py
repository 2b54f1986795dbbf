"""Check-ins armed by meaning on the dev set: area ``checkin_dev`` (issue 25, issue 24 item 6).

``python -m perf checkin_dev``; ``XAID_PERF_CHECKIN_SET=arm_dev9`` plays perf/scenarios/arm_dev9.json in
its own area ``arm9`` (a worry is no loss, a plan for today/tonight/tomorrow is armed, "first X in N
years" is no date ahead). Every session of perf/scenarios/checkin_dev.json is played as its
own agent on ONE real daemon (scripted provider, the default embedder USE-multilingual-v3): the
user's lines one a minute from day 0 21:00 UTC (the assistant lines of the file are the daemon's own
replies here), the session closed with ``wait=True`` so consolidation has armed what it arms, then
``scheduler.list`` says what is pending. What is judged is what the next session could be offered:

- ``ask``: armed when an item other than a loss's is pending (and, when the case gives
  ``within_days``, every such item comes due within that many days: "first date in three years
  tonight" is not asked about three years on); named when one such item's topic
  (which quotes the user's utterance) holds one of the matter's words: the right utterance;
- ``gentle`` (a loss): right when only the gentle loss item is pending; any other item is a
  "how did it go" about a loss: intrusive;
- ``none``: right when nothing is pending; anything pending is intrusive.

Precision: armed sessions whose items fit the label / armed sessions; intrusive share: armed
sessions labelled ``none``, or ``gentle`` with a non-loss item / armed sessions. The test half was
never fitted on (perf/eval/checkin_fit.py fits the train half); both halves are reported.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xaiclient import Client

from .. import kit
from ..kit import DAY, HOUR, MINUTE, Aim, Row, Section, progress
from .scheduler import BASE_MS

DEV = kit.SCENARIOS / "checkin_dev.json"
SET_ENV = "XAID_PERF_CHECKIN_SET"
# Each set's own area, so a run of one keeps the other's section.
AREAS = {"checkin_dev": "checkin_dev", "arm_dev9": "arm9", "checkin_dev20": "arm20"}
START_MS = BASE_MS + 21 * HOUR  # day 0, 21:00 UTC
INTRUSIVE_AIM = Aim("<=", 5.0)  # %
QUICK = 20
# The same harness on the rules alone (b7e1a1b, main's xaid with this dev set, before matter.py):
# (asks armed, asks, armed sessions that fit, armed sessions, intrusive) per half and language.
BEFORE = {
    ("test", "en"): (4, 18, 9, 13, 3),
    ("test", "zh"): (3, 18, 8, 12, 1),
    ("train", "en"): (2, 19, 7, 10, 1),
    ("train", "zh"): (3, 19, 8, 13, 2),
}


@dataclass(frozen=True, slots=True)
class Case:
    id: str
    lang: str
    split: str
    expect: str
    kind: str
    user: tuple[str, ...]
    matter: tuple[str, ...]
    within_days: int | None = None  # an ask item must come due this soon after the session


def set_name() -> str:
    """The set ``XAID_PERF_CHECKIN_SET`` names (default checkin_dev)."""
    return kit.set_named(SET_ENV, AREAS, "checkin_dev")


def load(name: str = "checkin_dev") -> list[Case]:
    items = json.loads((kit.SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))["items"]
    return [
        Case(
            i["id"],
            i["lang"],
            i["split"],
            i["expect"],
            i["kind"],
            tuple(text for role, text in i["lines"] if role == "user"),
            tuple(w.lower() for w in i["matter"]),
            i.get("within_days"),
        )
        for i in items
    ]


@dataclass(frozen=True, slots=True)
class Judged:
    case: Case
    items: tuple[dict[str, Any], ...]

    @property
    def asks(self) -> list[dict[str, Any]]:
        """The items that ask about something (not a loss's); none when the case says how soon they
        come due and one does not."""
        items = [i for i in self.items if i["scene"] != "loss"]
        if self.case.within_days is None:
            return items
        soon = START_MS + (self.case.within_days + 1) * DAY
        return items if all(i["not_before"] <= soon for i in items) else []

    @property
    def armed(self) -> bool:
        return bool(self.items)

    @property
    def named(self) -> bool:
        return any(w in i["topic"].lower() for i in self.asks for w in self.case.matter)

    @property
    def fits(self) -> bool:
        """The items pending are what a friend would bring (or nothing, for ``none``)."""
        if self.case.expect == "ask":
            return bool(self.asks)
        if self.case.expect == "gentle":
            return self.armed and not self.asks
        return not self.armed

    @property
    def intrusive(self) -> bool:
        return (self.case.expect == "none" and self.armed) or bool(
            self.case.expect == "gentle" and self.asks
        )


def play(client: Client, case: Case) -> Judged:
    client.agent_create(case.id)
    sid = client.session_open(case.id, ts=START_MS)["session_id"]
    for n, line in enumerate(case.user):
        client.session_send(sid, line, ts=START_MS + n * MINUTE).finish()
    client.session_close(sid, ts=START_MS + len(case.user) * MINUTE, wait=True)
    items = client.call("scheduler.list", agent_id=case.id, states=["pending"])["items"]
    return Judged(case, tuple(items))


def play_all(cases: Sequence[Case]) -> list[Judged]:
    return kit.played_on_one_daemon(cases, play, "checkin_dev")[0]


def _pct(part: int, whole: int) -> float:
    return 100.0 * part / whole if whole else 0.0


def tally(judged: Sequence[Judged]) -> Counter[str]:
    t: Counter[str] = Counter()
    for j in judged:
        e = j.case.expect
        t[e] += 1
        t[f"{e}:fits"] += j.fits
        t["armed"] += j.armed
        t["armed:fits"] += j.armed and j.fits
        t["intrusive"] += j.intrusive
        if e == "ask":
            t["ask:named"] += j.named
    return t


def rows_of(label: str, judged: Sequence[Judged]) -> list[Row]:
    t = tally(judged)
    return [
        Row(
            f"{label}: recall of asks (a non-loss item pending)",
            _pct(t["ask:fits"], t["ask"]),
            "%",
            note=f"{t['ask:fits']}/{t['ask']}; the matter's own words in the topic {t['ask:named']}/{t['ask']}",
        ),
        Row(
            f"{label}: precision of armed sessions",
            _pct(t["armed:fits"], t["armed"]),
            "%",
            note=f"{t['armed:fits']}/{t['armed']}; losses gentle only {t['gentle:fits']}/{t['gentle']}, "
            f"nothing armed on 'none' {t['none:fits']}/{t['none']}",
        ),
        Row(
            f"{label}: intrusive share of armed sessions",
            _pct(t["intrusive"], t["armed"]),
            "%",
            INTRUSIVE_AIM,
            note=f"{t['intrusive']}/{t['armed']}",
        ),
    ]


def misses(judged: Sequence[Judged]) -> str:
    wrong = [
        f"{j.case.id} ({j.case.expect}/{j.case.kind}: {', '.join(i['scene'] for i in j.items) or 'nothing'})"
        for j in judged
        if not j.fits
    ]
    return "; ".join(wrong) or "none"


def run(quick: bool) -> Section:
    name = set_name()
    cases = load(name)
    if quick:
        cases = cases[: QUICK // 2] + [c for c in cases if c.lang == "zh"][: QUICK // 2]
    progress(f"{name}: {len(cases)} sessions")
    judged = play_all(cases)
    rows: list[Row] = []
    notes = [
        f"Each session of perf/scenarios/{name}.json played on one real daemon (scripted provider, "
        "USE-multilingual-v3), closed with wait=True, then scheduler.list (pending). Labels: what a friend "
        "would do at the next session (ask / gentle / none); perf/eval/checkin_dev.py says how each is judged."
    ]
    for split in ("test", "train"):
        for lang in ("en", "zh"):
            part = [j for j in judged if j.case.split == split and j.case.lang == lang]
            if part:
                rows += rows_of(f"{split} half, {lang}", part)
                if name != "checkin_dev":
                    notes.append(f"{split} half, {lang}, wrong: {misses(part)}")
                    continue
                asked, asks, fit, armed, intrusive = BEFORE[(split, lang)]
                rows.append(
                    Row(
                        f"{split} half, {lang}: recall of asks, BEFORE (rules alone, b7e1a1b)",
                        _pct(asked, asks),
                        "%",
                        note=f"{asked}/{asks}; precision {fit}/{armed}, intrusive {intrusive}/{armed}",
                    )
                )
                notes.append(f"{split} half, {lang}, wrong: {misses(part)}")
    title = "Check-ins armed by meaning: dev set (issue 25, 24 item 6)"
    if name == "arm_dev9":
        title = "A worry is no loss, today's plan is armed, 'first in N years' is no date: arm_dev9 (issues 24.6, 25)"
    return Section(title, rows, notes, area=AREAS[name])
