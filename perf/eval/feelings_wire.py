"""The feelings dev set played through a real daemon: the mood the next morning, and what a loss arms.

Part of area ``feelings`` (perf/eval/feelings.py), for perf/scenarios/feelings_dev6.json. The pure
path of feelings.py replays consolidation's reading in functions; this plays each session as the
held-out harness does (perf/eval/understanding.py, feelings): its own agent on one scratch daemon
(scripted provider, the default embedder), the user's lines sent a minute apart from 21:00 UTC, the
session closed with ``wait=True`` so consolidation has read it and armed what it arms, then
``mood.get`` at 09:00 the next day and ``scheduler.list`` (pending). Two figures per half and
language:

- carried: the morning's mood judged as feelings.py judges (the valence sign beyond 0.02, no valence
  band for "neutral", the fatigue band where labelled);
- losses not asked about: a loss session passes when no "how did it go" (scene plan or worry, the
  held-out harness's ``asks_how_it_went``) is pending; the gentle check-in about the person counts
  separately (the scheduler stays with the person).
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from xaiclient import Client

from xaid.mood.classifier import BASELINE_AROUSAL
from xaid.mood.state import MoodState
from xaid.mood.tone import bands

from ..kit import HOUR, MINUTE, Row, model_env, played_on_one_daemon
from .scheduler import BASE_MS
from .understanding import asks_how_it_went

START_MS = BASE_MS + 21 * HOUR  # day 0, 21:00 UTC, as feelings.py's evening
MORNING_MS = BASE_MS + 33 * HOUR  # day 1, 09:00 UTC


@dataclass(frozen=True, slots=True)
class Played:
    item: dict[str, Any]
    morning: MoodState
    pending: tuple[dict[str, Any], ...]

    @property
    def asked(self) -> bool:
        """A "how did it go" is pending (what a loss must never arm)."""
        return asks_how_it_went(self.pending)

    @property
    def gentle(self) -> bool:
        """The check-in about the person after a loss is pending."""
        return any(i["scene"] == "loss" for i in self.pending)


def _state(mood: dict[str, Any]) -> MoodState:
    """``mood.get``'s answer as the state feelings.py judges (only the dimensions it reads)."""
    return MoodState(
        valence=float(mood["valence"]),
        arousal=float(mood.get("arousal", BASELINE_AROUSAL)),
        fatigue=float(mood["fatigue"]),
        confidence=float(mood.get("confidence", 1.0)),
        updated_ms=MORNING_MS,
    )


def play(client: Client, item: dict[str, Any], ingest: bool = False) -> Played:
    """One session: the lines sent a minute apart as live turns, or (``ingest``) given as history
    (``session.ingest``: the mood moves exactly as if lived, and no reply is generated: with a real
    model the time goes to consolidation's question, not to replies nobody reads)."""
    agent = f"f6-{item['id']}"
    client.agent_create(agent)
    sid = client.session_open(agent, ts=START_MS)["session_id"]
    if ingest:
        said = [
            {"role": "user", "text": line, "ts": START_MS + n * MINUTE}
            for n, line in enumerate(item["lines"])
        ]
        client.session_ingest(sid, said)
    else:
        for n, line in enumerate(item["lines"]):
            client.session_send(sid, line, ts=START_MS + n * MINUTE).finish()
    client.session_close(sid, ts=START_MS + len(item["lines"]) * MINUTE, wait=True)
    morning = _state(client.mood_get(agent, ts=MORNING_MS))
    pending = client.scheduler_list(agent, states=["pending"])["items"]
    return Played(item, morning, tuple(pending))


def play_all(
    items: Sequence[dict[str, Any]], model: str | None = None, ingest: bool = False
) -> tuple[list[Played], dict[str, int]]:
    """Every session played; and the daemon's memory counters afterwards (``stats``), for what the
    consolidations cost (mood_model_calls: the chat model asked which feeling, mood/asked.py).
    ``model``: a ``kit.MODELS`` name loaded by llama.cpp, so consolidation's question
    (``mood.ask_model``) is answered by it (always ingested: a reply per line would cost minutes);
    None: the scripted provider, whose echo is unreadable, so the reader alone decides. Compare the
    two with ``ingest`` on both: they then differ only in who answers that question."""
    turn = functools.partial(play, ingest=ingest or model is not None)
    if model is None:
        return played_on_one_daemon(items, turn, "feelings (daemon, scripted)")
    return played_on_one_daemon(items, turn, f"feelings (daemon, {model})", model_env(model))


def cost_row(sessions: int, counters: dict[str, int], label: str = "dev6") -> Row:
    """The mood's model calls per consolidated session (issue 24 item 8): when the model is asked
    (with the scripted provider, not what it answers); ``label`` names the set and the provider."""
    calls = counters.get("mood_model_calls", 0)
    unreadable = counters.get("mood_model_unreadable", 0)
    return Row(
        f"feelings {label}: the mood's model calls per consolidated session (daemon)",
        calls / max(1, sessions),
        "calls",
        note=f"{calls} calls for {sessions} sessions (asked only where the embedder reads low or "
        f"good and no loss decided), {unreadable} unreadable; memory's own llm_calls "
        f"{counters.get('llm_calls', 0)}",
    )


def rows_of(label: str, played: Sequence[Played], judge: Any) -> tuple[list[Row], list[str]]:
    """Per language: carried (``judge(item, morning)``) and losses with no "how did it go" armed."""
    rows: list[Row] = []
    misses: list[str] = []
    for lang in ("en", "zh"):
        part = [p for p in played if p.item["lang"] == lang]
        if not part:
            continue
        t: Counter[str] = Counter()
        for p in part:
            ok = judge(p.item, p.morning)
            t["carried"] += ok
            if not ok:
                misses.append(
                    f"{p.item['id']} ({p.item['expect']}): valence {p.morning.valence:+.2f}, "
                    f"fatigue {p.morning.fatigue:.2f}, band {bands(p.morning).valence}"
                )
            if p.item.get("loss"):
                t["losses"] += 1
                t["not asked"] += not p.asked
                t["gentle"] += p.gentle
                if p.asked:
                    scenes = ", ".join(i["scene"] for i in p.pending)
                    misses.append(f"{p.item['id']} (loss): how-it-went armed ({scenes})")
        rows.append(
            Row(
                f"feelings {label} {lang}: carried to the morning (daemon)",
                100 * t["carried"] / len(part),
                "%",
                note=f"{t['carried']}/{len(part)}",
            )
        )
        if t["losses"]:
            rows.append(
                Row(
                    f'feelings {label} {lang}: losses with no "how did it go" armed (daemon)',
                    100 * t["not asked"] / t["losses"],
                    "%",
                    note=f"{t['not asked']}/{t['losses']}; the gentle check-in armed {t['gentle']}/{t['losses']}",
                )
            )
    return rows, misses
