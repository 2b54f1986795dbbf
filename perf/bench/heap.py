"""Area ``heap``: how long the daemon's full garbage collections hold it, with the start-up heap
frozen (``server.freeze_heap``, the default) and without (xaid/heap.py).

A full collection holds the interpreter: every request, turn and timer of the daemon waits for it.
Each condition is a daemon of its own building the same agent the way a daemon in use does: one
short session a day (``perf.bench.memory.Speaker``, English and Chinese), each closed with
``wait: true`` and so consolidated and warmed, 365 days (60 with --quick). The daemon times its
own full collections (``gc.callbacks``, ``status.heap.full_collection_ms``: the latest 256). The
two daemons build one after the other, the order swapped each round, two rounds (one with
--quick); the rows pool the rounds, the ratio is frozen against not frozen in the same run.
"""

from __future__ import annotations

import os
import time
from typing import Any

from ..kit import DAY, HOUR, Row, Section, progress, ratio, scratch_daemon
from .memory import Speaker, history

AGENT = "heap-year"
CONDITIONS = {"frozen": "true", "not frozen": "false"}


def _build(freeze: str, days: int) -> dict[str, Any]:
    """One daemon, ``days`` daily sessions consolidated; its ``status.heap`` at the end."""
    end_ms = (int(time.time() * 1000) // DAY) * DAY + 8 * HOUR
    env = {"XAID_LLM_SCRIPTED_DELAY_MS": "5", "XAID_SERVER_FREEZE_HEAP": freeze}
    with scratch_daemon(env) as daemon, daemon.client(timeout=600.0) as client:
        client.agent_create(AGENT, name="Mia")
        history(client, AGENT, Speaker(28), days, end_ms, days * DAY)
        return dict(client.status()["heap"])


def run(quick: bool) -> Section:
    section = Section("The heap after start-up: full collections frozen and not (xaid/heap.py)")
    days, rounds = (60, 1) if quick else (365, 2)
    load_before = os.getloadavg()
    seen: dict[str, list[dict[str, Any]]] = {name: [] for name in CONDITIONS}
    for n in range(rounds):
        order = list(CONDITIONS) if n % 2 == 0 else list(reversed(CONDITIONS))
        for name in order:
            started = time.perf_counter()
            seen[name].append(_build(CONDITIONS[name], days))
            progress(
                f"heap: {name}, round {n + 1}: {days} days in {time.perf_counter() - started:.0f} s"
            )
    figures = {}
    for name, heaps in seen.items():
        count = sum(h["full_collection_ms"]["count"] for h in heaps)
        p50 = sorted(h["full_collection_ms"]["p50"] or 0.0 for h in heaps)[len(heaps) // 2]
        worst = max(h["full_collection_ms"]["max"] or 0.0 for h in heaps)
        figures[name] = (p50, worst)
        frozen = max(h["frozen_objects"] for h in heaps)
        note = (
            f"{count} full collections over {rounds} build(s) of {days} days; "
            f"{frozen} objects frozen at start-up"
        )
        section.rows.append(
            Row(f"full collection, {name}: p50 (the rounds' median)", p50, "ms", note=note)
        )
        section.rows.append(Row(f"full collection, {name}: longest", worst, "ms", note=note))
    for i, what in enumerate(("p50", "longest")):
        section.rows.append(
            Row(
                f"full collection {what}, frozen against not frozen",
                figures["frozen"][i],
                "ms",
                ratio=ratio(figures["frozen"][i], figures["not frozen"][i]),
                baseline="not frozen (same run)",
            )
        )
    load_after = os.getloadavg()
    section.notes.append(
        f"Each daemon builds one agent of {days} daily sessions, consolidated as each closes; the "
        "durations are the daemon's own (status.heap.full_collection_ms, the latest 256 per daemon). "
        f"Load average (1 min) {load_before[0]:.1f} at the start, {load_after[0]:.1f} at the end "
        "(2 cores shared)."
    )
    return section
