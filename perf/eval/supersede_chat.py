"""A change said inside ordinary chat, and chat that changes nothing (issues 24 item 1, 28): area
``supersede_chat``.

The updates dev sets put one earlier statement and one later one on an agent with nothing else;
what a change reader does with weeks of ordinary conversation they cannot show. On LoCoMo's chats
(two friends, no one moving house) consolidation had made about a third of the user turns history
(session 28, the diagnosis tool's database: conv-41 112 of 335), and a present question never sees
a turn made history: "What are the names of John's children?" lost its evidence turn to "Thanks,
Maria! ..." lines read as a change of it ("new", "lately", "any more" in a question). So two
measures:

- perf/scenarios/supersede_dev28.json (written before the change it measures; format in its
  ``about``): per language 6 changes said in the flow of a chat after weeks of small talk, the old
  value sometimes said twice, and 8 controls whose last session carries change words that change
  nothing of the user's. A change passes when the probe's first item holds a ``new`` key and no item
  an ``old`` key; a control passes when no user turn of the history became history and the probe
  finds a ``keep`` key as a current item.
- natural chat: the share of user turns consolidation made history on the companion set
  (perf/scenarios/companion_recall.json, English and Chinese) and, with ``XAID_PERF_LOCOMO``, on
  LoCoMo, ingested as perf/eval/locomo.py ingests them. Few of these turns are changes of anything,
  so the lower the better; no aim, the figure is read beside the dev set's changes.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from xaiclient import Client

from ..kit import (
    AGENT_NAME,
    Aim,
    CaseTally,
    Row,
    Section,
    at,
    contains,
    day0,
    load_scenario,
    misses,
    progress,
    scratch_daemon,
)
from . import locomo
from .present_dev import train_misses
from .understanding import ingested_session

SET = "supersede_dev28.json"
COMPANION = Path(__file__).resolve().parents[1] / "scenarios" / "companion_recall.json"
CHANGE_AIM = Aim(">=", 90.0)
CONTROL_AIM = Aim(">=", 100.0)
# main 1157b92 with the set committed (before any change to xaid/), this runner, 2026-12-05 21:31 UTC.
BEFORE = (
    "before (main 1157b92, same runner and set): changes train en 2/3, zh 2/3, test en 3/3, zh 3/3; "
    "controls train en 4/4, zh 4/4, test en 2/4, zh 3/4; user turns made history: companion en "
    "14/346 (4.05 %), zh 30/343 (8.75 %), LoCoMo 786/2951 (26.6 %)"
)


def _group(case: dict[str, Any]) -> str:
    return f"{case['split']} {case['lang']} {case['kind']}"


def play(c: Client, case: dict[str, Any], base: int) -> tuple[bool, str]:
    """(passed, why not) for one case on an agent of its own."""
    agent = case["id"]
    c.agent_create(agent, name=AGENT_NAME)
    for lines, day in zip(case["history"], case["days"], strict=True):
        ingested_session(c, agent, lines, at(base, day, 20))
    last_ms = at(base, case["last_day"], 20)
    ingested_session(c, agent, case["last"], last_ms)
    items = c.memory_search(agent, case["probe"], ts=at(base, case["last_day"] + 7, 9))["items"]
    texts = [i["text"] for i in items]
    if case["kind"] == "change":
        first = contains(texts[:1], case["new"])
        old = contains(texts, case["old"])
        why = ("new value not first; " if not first else "") + ("old value returned" if old else "")
        return first and not old, why.strip("; ")
    turns = c.memory_list(agent, kind="utterance", limit=1000)["items"]
    made_history = [i for i in turns if i["status"] != "current" and i["ts"] < last_ms]
    found = any(i.get("current", True) and contains([i["text"]], case["keep"]) for i in items)
    why = (f"{len(made_history)} history turns made history; " if made_history else "") + (
        "" if found else "kept value not found as current"
    )
    return not made_history and found, why.strip("; ")


def evaluate(cases: list[dict[str, Any]], base: int) -> dict[str, CaseTally]:
    tallies: dict[str, CaseTally] = {}
    with scratch_daemon() as daemon, daemon.client(timeout=600.0) as c:
        for n, case in enumerate(cases):
            ok, why = play(c, case, base)
            tallies.setdefault(_group(case), CaseTally()).add(ok, case["id"], why)
            if n % 8 == 0:
                progress(f"supersede_chat: {n + 1}/{len(cases)}")
    return tallies


def natural_chat(path: Path) -> dict[str, tuple[int, int]]:
    """Per language, (user turns made history, user turns) after ingesting every sample of ``path``."""
    out: dict[str, tuple[int, int]] = {}
    with scratch_daemon() as daemon, daemon.client(timeout=600.0) as c:
        for n, sample in enumerate(locomo.load(path)):
            agent = locomo.agent_id(n, sample)
            c.agent_create(agent, name=sample.speaker_b)
            locomo.ingest(c, agent, sample)
            turns = c.memory_list(agent, kind="utterance", limit=100_000)["items"]
            user = [i for i in turns if i.get("role") == "user"]
            # the companion set's questions name their language; LoCoMo's are English
            lang = next((str(q["lang"]) for q in sample.qa if q.get("lang")), "en")
            made, total = out.get(lang, (0, 0))
            out[lang] = (made + sum(i["status"] != "current" for i in user), total + len(user))
            progress(f"supersede_chat: {path.name} {sample.sample_id}")
    return out


def run(quick: bool) -> Section:
    section = Section("A change said inside ordinary chat, and chat that changes nothing (dev set)")
    data = load_scenario(SET)
    cases = data["cases"][::3] if quick else data["cases"]
    started = time.monotonic()
    tallies = evaluate(cases, day0(data))
    for group in sorted(tallies, key=lambda g: (g.split()[0] != "train", g)):
        t = tallies[group]
        change = group.endswith("change")
        section.rows.append(
            Row(
                f"{group}: "
                + ("new value first, old not returned" if change else "nothing made history"),
                t.percent,
                "%",
                CHANGE_AIM if change else CONTROL_AIM,
                note=f"{t.hits}/{t.total}",
            )
        )
    section.notes.append(misses("train half (test half not named)", train_misses(tallies)))
    files = [("companion", COMPANION)]
    if not quick and os.environ.get("XAID_PERF_LOCOMO"):
        files.append(("LoCoMo", Path(os.environ["XAID_PERF_LOCOMO"])))
    for label, path in files if not quick else []:
        for lang, (made, total) in sorted(natural_chat(path).items()):
            section.rows.append(
                Row(
                    f"{label} chat, {lang}: user turns made history",
                    100.0 * made / total if total else 0.0,
                    "%",
                    note=f"{made}/{total}",
                )
            )
    section.notes.append(f"{len(cases)} cases, {time.monotonic() - started:.0f} s")
    if BEFORE:
        section.notes.append(BEFORE)
    return section
