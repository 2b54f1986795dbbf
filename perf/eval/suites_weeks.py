"""Suites for "like a person over weeks" (issue 12), part of the ``suites`` area.

Three labelled sets in perf/scenarios/ (formats: perf/scenarios/README.md), played on the suites
daemon (scripted provider: what is measured is what xaid puts into the prompt):

1. updates (updates.json): a lasting fact stated, then changed in a later session; a week later a
   first turn asks about it. A pass when the new value is in ``context.memories`` and the old one
   in none of them. Aim ≥ 90 %.
2. conversational forget (forgets.json): a request to forget, said in conversation (a named topic,
   or "that" right after it); a pass when that turn reports ``context.forgotten`` and a first turn
   a week later recalls none of the forgotten words. Aim 100 %. A negative set uses forget-words
   without asking ("I forgot my keys", 我忘了带钥匙); a mis-fire is a ``context.forgotten`` there.
   Aim 0 mis-fires.
3. follow-ups (followups.json, proactive.json's format, played by perf.eval.scheduler.play): near
   relative times asked about after they happened and not before, older matters held while the
   user grieves, one suggestion when several have passed. Precision aim ≥ 90 %, recall of asks
   ≥ 85 %, intrusive pushes ≤ 2 %.

Mood carry-over (the extended mood_pairs.json) stays in suites.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xaiclient import Client

from ..kit import (
    AGENT_NAME,
    MINUTE,
    SCENARIOS,
    Aim,
    CaseTally,
    Row,
    at,
    contains,
    day0,
    first_turn,
    live_session,
    load_scenario,
    memory_texts,
    misses,
)
from . import scheduler as proactive

UPDATE_AIM = Aim(">=", 90.0)
FORGET_AIM = Aim(">=", 100.0)
MISFIRE_AIM = Aim("<=", 0.0)
PUSH_PRECISION_AIM = Aim(">=", 90.0)
PUSH_RECALL_AIM = Aim(">=", 85.0)
INTRUSIVE_AIM = Aim("<=", 2.0)


def updates(c: Client, every: int) -> tuple[CaseTally, dict[str, CaseTally]]:
    """(all cases, by language)."""
    data = load_scenario("updates.json")
    base = day0(data)
    total: CaseTally = CaseTally()
    by_lang: dict[str, CaseTally] = {}
    for case in data["cases"][::every]:
        agent = f"upd-{case['id']}"
        c.agent_create(agent, name=AGENT_NAME)
        for part in ("before", "after"):
            s = case[part]
            live_session(c, agent, s["lines"], at(base, s["day"], s["hour"]))
        p = case["probe"]
        texts = memory_texts(first_turn(c, agent, p["text"], at(base, p["day"], p["hour"])))
        new, old = contains(texts, case["new"]), contains(texts, case["old"])
        why = ("new value missing; " if not new else "") + (
            "old value still recalled" if old else ""
        )
        total.add(new and not old, case["id"], why.strip("; "))
        by_lang.setdefault(case["lang"], CaseTally()).add(
            new and not old, case["id"], why.strip("; ")
        )
    return total, by_lang


def _session_with_explain(c: Client, agent: str, lines: Sequence[str], ts: int) -> bool:
    """A session lived line by line with ``explain``; whether any turn reported a forget."""
    sid = c.session_open(agent, ts=ts)["session_id"]
    forgot = False
    for i, line in enumerate(lines):
        context = c.session_send(sid, line, ts=ts + i * MINUTE, explain=True).finish()["context"]
        forgot |= context.get("forgotten") is not None
    c.session_close(sid, ts=ts + len(lines) * MINUTE, wait=True)
    return forgot


def forgets(c: Client, every: int) -> tuple[CaseTally, CaseTally]:
    """(requests honoured, negatives that mis-fired: a hit there is bad)."""
    data = load_scenario("forgets.json")
    base = day0(data)
    honoured, misfired = CaseTally(), CaseTally()
    for case in data["requests"][::every]:
        agent = f"fg-{case['id']}"
        c.agent_create(agent, name=AGENT_NAME)
        s = case["said"]
        fired = _session_with_explain(c, agent, s["lines"], at(base, s["day"], s["hour"]))
        if (r := case.get("request")) is not None:
            fired = (
                _session_with_explain(c, agent, r["lines"], at(base, r["day"], r["hour"])) or fired
            )
        p = case["probe"]
        texts = memory_texts(first_turn(c, agent, p["text"], at(base, p["day"], p["hour"])))
        left = contains(texts, case["gone"])
        why = ("not recognised; " if not fired else "") + ("still recalled" if left else "")
        honoured.add(fired and not left, case["id"], why.strip("; "))
    for n, neg in enumerate(data["negatives"][::every]):
        agent = f"fgn-{neg['id']}"
        c.agent_create(agent, name=AGENT_NAME)
        fired = _session_with_explain(c, agent, [neg["text"]], at(base, 0, 12) + n * MINUTE)
        misfired.add(fired, neg["id"])
    return honoured, misfired


@dataclass(frozen=True)
class Pushes:
    tally: proactive.Tally
    wrong: list[str]


def followups(c: Client, every: int) -> Pushes:
    situations = proactive.load(SCENARIOS / "followups.json")[::every]
    decisions: list[proactive.Decision] = []
    for s in situations:
        played, _, _ = proactive.play(c, s)
        decisions += played
    wrong = [
        f"{d.label} ({'pushed' if d.pushed else 'quiet'}: {d.reason})"
        for d in decisions
        if not d.right
    ]
    return Pushes(proactive.Tally.of(decisions), wrong)


def rows_and_notes(
    upd: tuple[CaseTally, dict[str, CaseTally]], fg: tuple[CaseTally, CaseTally], pushes: Pushes
) -> tuple[list[Row], list[str]]:
    total, by_lang = upd
    honoured, misfired = fg
    t = pushes.tally
    rows = [
        Row(
            "updates: new value recalled, old one not (a week after the change)",
            total.percent,
            "%",
            UPDATE_AIM,
            note=f"{total.hits}/{total.total} cases; "
            + ", ".join(f"{k} {o.percent:.0f}%" for k, o in by_lang.items()),
        ),
        Row(
            "conversational forget: request recognised and the words not recalled a week later",
            honoured.percent,
            "%",
            FORGET_AIM,
            note=f"{honoured.hits}/{honoured.total} requests, en and zh",
        ),
        Row(
            "conversational forget: mis-fires on the forget-word negative set",
            misfired.percent,
            "%",
            MISFIRE_AIM,
            note=f"{misfired.hits}/{misfired.total} negatives fired ('I forgot my keys', 我忘了带钥匙, "
            "reminders, 'forget it', questions, tasks)",
        ),
        Row(
            "follow-ups: push precision",
            round(t.precision, 1),
            "%",
            PUSH_PRECISION_AIM,
            note=f"{t.right_pushes}/{t.pushes} pushes at opens labelled ask",
        ),
        Row(
            "follow-ups: recall of asks",
            round(t.recall, 1),
            "%",
            PUSH_RECALL_AIM,
            note=f"{t.right_pushes}/{t.asks} labelled asks pushed",
        ),
        Row(
            "follow-ups: intrusive pushes",
            round(t.intrusive, 1),
            "%",
            INTRUSIVE_AIM,
            note=f"{t.intrusive_pushes}/{t.pushes} pushes; {t.opens} labelled opens",
        ),
    ]
    notes = [
        misses("updates", total),
        misses("conversational forget", honoured),
        "forget mis-fires: " + (", ".join(misfired.hit_ids) or "none"),
        "follow-up wrong decisions: " + ("; ".join(pushes.wrong) or "none"),
    ]
    return rows, notes
