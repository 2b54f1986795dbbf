"""What a turn puts before the model of memory, scored like ``memory.search``: the cost in recall of
the first-token caps (issue 28 items 3 and 4).

A session's first turn now reads only a small slot of query-specific memories after the head
(``memory.first_turn_tokens``), with the latest episodes in the head's standing block
(``memory.standing_tokens``), and a later turn adds at most ``memory.later_turn_tokens`` of new
memories. This area asks the companion set's and LoCoMo's questions as turns, through a daemon with
the scripted provider standing in for the model (what is scored is the context the daemon builds,
not a reply), in four conditions side by side:

- **defaults**: both caps at their defaults (48 tokens; a best line longer than the slot cut to its
  sentence nearest the message), the standing block in the head; what a turn recalls past its cap
  is held back and shown after the reply (``memories_held``), read while the user reads it;
- **caps 32**: both caps at 32, the same otherwise;
- **uncapped**: no cap at turn 1 (the whole ``memory.budget_tokens``), a quarter of it at a later
  turn, the standing block (the defaults before the read-ahead);
- **main**: before issue 28's first-token work: uncapped without the standing block.

Each question is asked twice, in new sessions: as the session's first turn, and as its second
turn after an opener ("Hey!" / "嗨！"). Scored: what turn 1 shows before its message; what the
session holds by the next user message (turn 1's shown and held-back lines: the question's answer
as the next turn sees it); and by turn 2 after the opener, everything the session has shown by then
(the opener's memories, held back or not, stay in the prompt). The texts scored are the memory lines
and the standing block's episodes; answer-token recall as in perf/eval/locomo.py.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from xaiclient import Client

from testkit import DaemonProcess
from xaid.memory import standing

from ..kit import Row, Section, median, progress, ratio, running
from . import locomo
from . import locomo_score as score

SHARED_LOCOMO = Path("/work/shared/data/locomo10.json")
CONDITIONS: dict[str, dict[str, str]] = {
    "defaults": {},
    "caps 32": {"XAID_MEMORY_FIRST_TURN_TOKENS": "32", "XAID_MEMORY_LATER_TURN_TOKENS": "32"},
    "uncapped": {"XAID_MEMORY_FIRST_TURN_TOKENS": "0", "XAID_MEMORY_LATER_TURN_TOKENS": "0"},
    "main": {
        "XAID_MEMORY_FIRST_TURN_TOKENS": "0",
        "XAID_MEMORY_LATER_TURN_TOKENS": "0",
        "XAID_MEMORY_STANDING_TOKENS": "0",
    },
}
BASE_ENV = {"XAID_LLM_PROVIDER": "scripted", "XAID_SERVER_MAX_OPEN_SESSIONS": "100000"}
DAY_MS = 24 * 3_600_000
OPENER = {"en": "Hey!", "zh": "嗨！"}


def _standing_lines(system_prompt: str) -> list[str]:
    if standing.HEADER not in system_prompt:
        return []
    tail = system_prompt.split(standing.HEADER, 1)[1]
    return [line for line in tail.splitlines() if line.startswith("- [")]


def _shown(result: dict[str, Any], held: bool = False) -> list[str]:
    """The lines shown before the message (with ``held``: and those shown after the reply)."""
    context = result["context"]
    lines = [m["text"] for m in context["memories_new"]]
    if held:
        lines += [m["text"] for m in context.get("memories_held", [])]
    return lines + _standing_lines(context["system_prompt"])


def _ask(
    c: Client, agent: str, question: dict[str, Any], ts: int
) -> tuple[float, float, float, int]:
    """(recall at turn 1, by the next turn, by turn 2 after an opener, characters shown at turn 1)."""
    text = str(question["question"])
    lang = "zh" if question.get("lang") == "zh" else "en"
    sid = c.session_open(agent, ts=ts)["session_id"]
    first = c.session_send(sid, text, ts=ts, explain=True).finish()
    sid2 = c.session_open(agent, ts=ts)["session_id"]
    opener = c.session_send(sid2, OPENER[lang], ts=ts, explain=True).finish()
    second = c.session_send(sid2, text, ts=ts + 60_000, explain=True).finish()
    one = score.answer_recall(question["answer"], _shown(first)) or 0.0
    nxt = score.answer_recall(question["answer"], _shown(first, held=True)) or 0.0
    two = score.answer_recall(question["answer"], _shown(opener, held=True) + _shown(second)) or 0.0
    return one, nxt, two, sum(len(m["text"]) for m in first["context"]["memories_new"])


Got = tuple[list[float], list[float], list[float], list[int]]


def _run_set(path: Path, samples: int, per_sample: int, env: dict[str, str]) -> Got:
    ones: list[float] = []
    nexts: list[float] = []
    twos: list[float] = []
    chars: list[int] = []
    with tempfile.TemporaryDirectory(prefix="xaid-perf-turn-recall-") as tmp:
        daemon = DaemonProcess(Path(tmp), {**BASE_ENV, **env})
        with running(daemon.start()) as d, d.client(timeout=1800) as c:
            for n, sample in enumerate(locomo.load(path)[:samples]):
                agent = locomo.agent_id(n, sample)
                c.agent_create(agent, name="Mia", config={"max_tokens": 4})
                locomo.ingest(c, agent, sample)
                asked = [q for q in sample.qa if "answer" in q and q.get("category") != 5]
                for q in asked[:per_sample]:
                    one, nxt, two, used = _ask(c, agent, q, sample.end_ms + DAY_MS)
                    ones.append(one)
                    nexts.append(nxt)
                    twos.append(two)
                    chars.append(used)
    return ones, nexts, twos, chars


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def run(quick: bool) -> Section:
    sets = {
        "companion": (locomo.COMPANION, 2 if quick else 10, 5 if quick else 12),
        "LoCoMo": (
            Path(os.environ.get("XAID_PERF_LOCOMO", str(SHARED_LOCOMO))),
            1 if quick else 2,
            10 if quick else 40,
        ),
    }
    rows: list[Row] = []
    notes: list[str] = []
    for name, (path, samples, per_sample) in sets.items():
        got: dict[str, Got] = {}
        for condition, env in CONDITIONS.items():
            got[condition] = _run_set(path, samples, per_sample, env)
            progress(
                f"turn recall {name} {condition}: turn 1 {_mean(got[condition][0]):.3f}, next "
                f"{_mean(got[condition][1]):.3f}, turn 2 {_mean(got[condition][2]):.3f} over "
                f"{len(got[condition][0])} questions"
            )
        for turn, at in (("turn 1", 0), ("by the next turn", 1), ("by turn 2 after an opener", 2)):
            theirs = got["main"][:3][at]
            for condition in ("defaults", "caps 32", "uncapped"):
                mine = got[condition][:3][at]
                rows.append(
                    Row(
                        f"{name}: answer-token recall of what the prompt shows, {turn}, {condition}",
                        100 * _mean(mine),
                        "%",
                        None,
                        ratio(_mean(mine), _mean(theirs)),
                        "main",
                        note=f"main {100 * _mean(theirs):.1f} %; {len(mine)} questions",
                    )
                )
        shown = ", ".join(
            f"{condition} {median([float(x) for x in got[condition][3]]):.0f}" for condition in got
        )
        notes.append(
            f"{name} ({path.name}, {samples} samples, up to {per_sample} questions each, adversarial "
            f"ones left out): characters of memory lines shown at turn 1, median: {shown}."
        )
    notes.insert(
        0,
        "Scripted provider (the context is scored, not a reply); each sample ingested and consolidated "
        "as in perf/eval/locomo.py, questions asked one day after its last turn, each in two new "
        "sessions (as turn 1; as turn 2 after an opener). Texts scored: the memory lines shown "
        "(`explain.memories_new`; for 'by the next turn' and the opener also `memories_held`, shown "
        "after the reply) and the standing block's episodes in the head. defaults = memory.first_turn_tokens "
        "= later_turn_tokens = 48, the standing block, the rest held back; caps 32 = both 32; uncapped = 0, 0 "
        "(the whole budget at turn 1, a quarter later); main = 0, 0, no standing block.",
    )
    return Section(
        "Turn-level recall: what a session's turns show of memory, the defaults and the first-token caps against main",
        rows,
        notes,
    )
