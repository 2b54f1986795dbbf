"""A session's first turn on a history: what it shows of memory before its first word, what it
has to read for that, and what the session holds by the next user message (issue 28 items 3, 4).

The dev set (perf/scenarios/first_turn_dev11.json, LoCoMo format, written before the change) is two
users' past sessions, one English-leaning and one Chinese-leaning, and 24 first messages of a new
session in many styles (openers with a matter in them, questions, typos, asides, mixed language),
each with the words a friend would bring back. Its ``half`` splits it: tune on ``train``, report
``test`` apart (never tuned on).

Per condition (environment variables of the daemon), through a daemon with the scripted provider
standing in for the model (the context is scored, not a reply; as perf/eval/turn_recall.py):

- answer-token recall of what turn 1 shows (its memory lines and the head's standing block);
- the same by the next user message (plus the lines held back from turn 1's slot);
- the tokens of memory turn 1 reads before its first word: its memory block (the head is read
  ahead, the standing block with it), counted with the daemon's counter (xaid.text.tokens).

``XAID_PERF_FIRST_TURN_CONDITIONS`` names the conditions to run, ``name=VAR:value,VAR:value;...``;
unset: main's defaults (the whole block at turn 1) against a slot of 40 tokens, which is what
``memory.first_word_ms`` leaves the 1.5B on 2 cores (~100 tokens/s: a second goes to the directive,
the message and the template, and the slot is at its floor; the scripted provider tells no rate,
so the cap stands in for it).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from testkit import DaemonProcess

from ..kit import (
    SCENARIOS,
    Row,
    Section,
    median,
    named_conditions,
    progress,
    ratio,
    running,
    slot_tokens,
)
from . import locomo
from . import locomo_score as score
from .turn_recall import BASE_ENV, DAY_MS, _shown

DEV = SCENARIOS / "first_turn_dev11.json"
HALVES = ("train", "test")


@dataclass
class Tally:
    first: list[float] = field(default_factory=list)
    later: list[float] = field(default_factory=list)
    read: list[int] = field(default_factory=list)

    def mean(self, values: list[float]) -> float:
        return sum(values) / len(values) if values else 0.0


def conditions() -> dict[str, dict[str, str]]:
    # the scripted provider tells no read rate: the slot the 1.5B on 2 cores gets
    return named_conditions(
        "XAID_PERF_FIRST_TURN_CONDITIONS",
        {
            "main": {"XAID_MEMORY_FIRST_WORD_MS": "0"},
            "slot 40": {
                "XAID_MEMORY_FIRST_TURN_TOKENS": "40",
                "XAID_MEMORY_LATER_TURN_TOKENS": "40",
            },
        },
    )


def run_condition(env: dict[str, str]) -> dict[str, Tally]:
    tallies = {h: Tally() for h in HALVES}
    with tempfile.TemporaryDirectory(prefix="xaid-perf-first-turn-") as tmp:
        daemon = DaemonProcess(Path(tmp), {**BASE_ENV, **env})
        with running(daemon.start()) as d, d.client(timeout=1800) as c:
            for n, sample in enumerate(locomo.load(DEV)):
                agent = locomo.agent_id(n, sample)
                c.agent_create(agent, name=sample.speaker_b, config={"max_tokens": 4})
                locomo.ingest(c, agent, sample)
                for i, q in enumerate(sample.qa):
                    ts = sample.end_ms + DAY_MS + i * 3_600_000
                    sid = c.session_open(agent, ts=ts)["session_id"]
                    first = c.session_send(sid, str(q["question"]), ts=ts, explain=True).finish()
                    tally = tallies[str(q["half"])]
                    tally.first.append(score.answer_recall(q["answer"], _shown(first)) or 0.0)
                    tally.later.append(
                        score.answer_recall(q["answer"], _shown(first, held=True)) or 0.0
                    )
                    context = first["context"]
                    tally.read.append(
                        slot_tokens(
                            (str(m["text"]) for m in context["memories_new"]), context["lang"]
                        )
                    )
                    c.session_close(sid, ts=ts + 60_000)
    return tallies


def run(quick: bool) -> Section:
    got: dict[str, dict[str, Tally]] = {}
    for name, env in conditions().items():
        got[name] = run_condition(env)
        for half, t in got[name].items():
            progress(
                f"first turn dev11 {name} {half}: turn 1 {t.mean(t.first):.3f}, next "
                f"{t.mean(t.later):.3f}, slot tokens p50 {median([float(x) for x in t.read]):.0f}"
            )
    names = list(got)
    base = names[0]
    rows: list[Row] = []
    for half in HALVES:
        theirs = got[base][half]
        for name in names:
            t = got[name][half]
            for what, mine, was in (
                ("recall of what turn 1 shows", t.mean(t.first), theirs.mean(theirs.first)),
                ("recall by the next user message", t.mean(t.later), theirs.mean(theirs.later)),
            ):
                rows.append(
                    Row(
                        f"{half}, {name}: answer-token {what}",
                        100 * mine,
                        "%",
                        None,
                        ratio(mine, was) if name != base else None,
                        base if name != base else "",
                        note=f"{base} {100 * was:.1f} %; {len(t.first)} first messages",
                    )
                )
            rows.append(
                Row(
                    f"{half}, {name}: memory tokens turn 1 reads before its first word, p50",
                    median([float(x) for x in t.read]),
                    "tokens",
                    note="max " + str(max(t.read, default=0)),
                )
            )
    notes = [
        "Scripted provider standing in for the model (the context is scored); each user's past "
        "sessions ingested and consolidated, then every first message opens a new session one day "
        "after the last one (an hour apart). Conditions: "
        + "; ".join(f"{n} = {e or 'the defaults'}" for n, e in conditions().items())
        + ". Recall: answer-token recall (perf/eval/locomo_score) of the memory lines shown and the "
        "standing block's episodes in the head; by the next user message also the lines held back.",
    ]
    return Section(
        "A session's first turn on a history (dev set 11: train and test halves)", rows, notes
    )
