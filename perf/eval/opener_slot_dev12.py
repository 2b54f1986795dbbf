"""A session that opens with a greeting: what its first turn reads of memory before the first word,
what the greeting still has, and what the session holds by the user's next message (issue 28 item 4).

An opener ("morning", "heyyy u up", "醒了……", "小雅在不") asks for nothing the memory block would
answer: the reply greets, asks after last night's matter (the scheduler's check-in) and keeps the
tone of the mood, and the latest episodes are in the prompt's head already (the standing block,
read ahead). So the slot of an opener can be small, and the rest of what the turn recalls is held
back and read while the user reads the greeting. A first message with content keeps the whole block.

The dev set (perf/scenarios/opener_slot_dev12.json, LoCoMo format, written before the change) is
four users' past sessions (two English, two Chinese; the last one the night before, with a matter
and a feeling), and per user six openers, each followed by a question whose answer is in an older
session, and two first messages with content. ``half`` splits it: tune on ``train``, report
``test``. Per condition (environment variables of the daemon), through a daemon with the scripted
provider standing in for the model (the context is scored, not a reply), every item in a new
session one day after the last past one, sessions left open (so no test session becomes memory):

- opener: the memory tokens turn 1 and the next question read before their first word (their
  slots of new memories; the head is read ahead, and so is what turn 1 held back);
  answer-token recall of the greeting's matter in what turn 1 shows (its lines and the head's
  standing block); and of the next question's answer in what the session shows by that question
  (turn 1's lines, those held back from it, turn 2's, the standing block);
- content: the memory tokens and answer-token recall of turn 1, as main's.

``XAID_PERF_OPENER_CONDITIONS`` names the conditions, ``name=VAR:value,VAR:value;...``; unset: the
defaults against main's way (``memory.hold_for_openers`` false: the whole block at an opener's
turn 1).
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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

DEV = SCENARIOS / "opener_slot_dev12.json"
HALVES = ("train", "test")
LANGS = ("en", "zh")
DEFAULT_CONDITIONS: dict[str, dict[str, str]] = {
    "main": {"XAID_MEMORY_HOLD_FOR_OPENERS": "false"},
    "defaults": {},
}


@dataclass
class Tally:
    """One half and language under one condition."""

    read: list[int] = field(default_factory=list)  # opener: memory tokens turn 1 reads
    greeting: list[float] = field(default_factory=list)  # opener: the matter in what turn 1 shows
    then: list[float] = field(default_factory=list)  # opener: the next question's answer by then
    then_read: list[int] = field(default_factory=list)  # opener: memory tokens turn 2 reads
    content_read: list[int] = field(default_factory=list)
    content: list[float] = field(default_factory=list)  # content: answer recall at turn 1


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def conditions() -> dict[str, dict[str, str]]:
    return named_conditions("XAID_PERF_OPENER_CONDITIONS", DEFAULT_CONDITIONS)


def _read(result: dict[str, Any]) -> int:
    context = result["context"]
    return slot_tokens((str(m["text"]) for m in context["memories_new"]), context["lang"])


def run_condition(env: dict[str, str]) -> dict[tuple[str, str], Tally]:
    tallies = {(h, lang): Tally() for h in HALVES for lang in LANGS}
    with tempfile.TemporaryDirectory(prefix="xaid-perf-opener-slot-") as tmp:
        daemon = DaemonProcess(Path(tmp), {**BASE_ENV, **env})
        with running(daemon.start()) as d, d.client(timeout=1800) as c:
            for n, sample in enumerate(locomo.load(DEV)):
                agent = locomo.agent_id(n, sample)
                c.agent_create(agent, name=sample.speaker_b, config={"max_tokens": 4})
                locomo.ingest(c, agent, sample)
                for i, q in enumerate(sample.qa):
                    ts = sample.end_ms + DAY_MS // 2 + i * 3_600_000
                    tally = tallies[(str(q["half"]), str(q["lang"]))]
                    sid = c.session_open(agent, ts=ts)["session_id"]
                    if q["kind"] == "content":
                        first = c.session_send(sid, str(q["question"]), ts=ts, explain=True)
                        got = first.finish()
                        tally.content.append(score.answer_recall(q["answer"], _shown(got)) or 0.0)
                        tally.content_read.append(_read(got))
                        continue
                    first = c.session_send(sid, str(q["opener"]), ts=ts, explain=True).finish()
                    then = c.session_send(
                        sid, str(q["question"]), ts=ts + 60_000, explain=True
                    ).finish()
                    tally.read.append(_read(first))
                    tally.then_read.append(_read(then))
                    tally.greeting.append(score.answer_recall(q["greeting"], _shown(first)) or 0.0)
                    by_then = _shown(first, held=True) + _shown(then)
                    tally.then.append(score.answer_recall(q["answer"], by_then) or 0.0)
    return tallies


def run(quick: bool) -> Section:
    got = {name: run_condition(env) for name, env in conditions().items()}
    names = list(got)
    base = names[0]
    rows: list[Row] = []
    for half, lang in got[base]:
        theirs = got[base][(half, lang)]
        for name in names:
            t = got[name][(half, lang)]
            progress(
                f"opener slot dev12 {name} {half} {lang}: opener reads p50 "
                f"{median([float(x) for x in t.read]):.0f} tokens, greeting {_mean(t.greeting):.3f}, "
                f"next question {_mean(t.then):.3f}; content {_mean(t.content):.3f} reads p50 "
                f"{median([float(x) for x in t.content_read]):.0f}"
            )
            for what, mine, was in (
                ("opener: the greeting's matter in what turn 1 shows", t.greeting, theirs.greeting),
                ("opener: the next question's answer by that question", t.then, theirs.then),
                ("content: answer in what turn 1 shows", t.content, theirs.content),
            ):
                rows.append(
                    Row(
                        f"{half} {lang}, {name}: {what} (answer-token recall)",
                        100 * _mean(mine),
                        "%",
                        None,
                        ratio(_mean(mine), _mean(was)) if name != base else None,
                        base if name != base else "",
                        note=f"{base} {100 * _mean(was):.1f} %; {len(mine)} items",
                    )
                )
            for what, values, was_values in (
                ("opener: memory tokens turn 1 reads before its first word", t.read, theirs.read),
                (
                    "opener: memory tokens the next question reads before its first word",
                    t.then_read,
                    theirs.then_read,
                ),
                ("content: memory tokens turn 1 reads", t.content_read, theirs.content_read),
            ):
                mine_p50 = median([float(x) for x in values])
                was_p50 = median([float(x) for x in was_values])
                rows.append(
                    Row(
                        f"{half} {lang}, {name}: {what}, p50",
                        mine_p50,
                        "tokens",
                        None,
                        ratio(mine_p50, was_p50) if name != base and was_p50 else None,
                        base if name != base else "",
                        note=f"max {max(values, default=0)}; {base} p50 {was_p50:.0f}",
                    )
                )
    notes = [
        "Scripted provider standing in for the model (the context is scored); each user's past "
        "sessions ingested and consolidated, then every item opens a new session half a day after "
        "the last past turn (an hour apart, left open). Conditions: "
        + "; ".join(f"{n} = {e or 'the defaults'}" for n, e in conditions().items())
        + ". Recall: answer-token recall (perf/eval/locomo_score) of the memory lines shown and the "
        "standing block's episodes in the head; 'by that question' adds the lines held back from "
        "turn 1 and those turn 2 shows. Tune on train; test is reported, never tuned on.",
    ]
    return Section(
        "A session that opens with a greeting: opener_slot_dev12 (train and test halves)",
        rows,
        notes,
    )
