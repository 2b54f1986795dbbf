"""What start-up built, kept out of Python's full garbage collections (``gc.freeze``).

A full collection walks every tracked object of the process, holding the interpreter the whole
time: every request, turn and timer of the daemon waits for it. After start-up most of what is
tracked never goes away: the modules, the embedding model's pure-Python tokenizer and its
vocabulary, the prototype tables, the rows and lines start-up warmed. Consolidations make and
drop rows all day, so full collections come every few jobs, and each walked all of it. Frozen once
start-up is done (after the embedder's warm and the start-up sweep), a full collection walks only
what was made since: building a year of daily sessions (``python -m perf heap``, two rounds) full
collections took p50 2.5 ms and at most 20.7 ms frozen, 26.1 and 37.5 ms not (docs/operations.md,
"The heap after start-up").

Only the daemon's own process freezes (``lifespan.run`` calls ``freeze_after_start``): a daemon
inside another program (the tests' in-process one) leaves that program's collector alone. Cyclic
garbage present at the freeze would never be collected, so a full collection runs first; objects
frozen and later released by their last reference are freed as always.
"""

from __future__ import annotations

import gc
import logging
import time
from collections import deque
from typing import Any

from .stats import percentile

log = logging.getLogger(__name__)

PAUSES = 256  # the latest full collections' durations kept for ``status``


class _Heap:
    """The process's collector as the daemon sees it: whether to freeze, and how long full
    collections have taken (timed through ``gc.callbacks``, in the daemon's own process only)."""

    def __init__(self) -> None:
        self.enabled = False
        self.done = False
        self.pauses_ms: deque[float] = deque(maxlen=PAUSES)
        self._began = 0.0

    def watch(self, phase: str, info: dict[str, Any]) -> None:
        if info.get("generation") != 2:
            return
        if phase == "start":
            self._began = time.perf_counter()
        elif self._began:
            self.pauses_ms.append((time.perf_counter() - self._began) * 1000)
            self._began = 0.0


_heap = _Heap()


def freeze_after_start(freeze: bool = True) -> None:
    """This process is the daemon's own: time its full collections, and freeze its heap once
    start-up is done (``started``) unless ``freeze`` is off (``server.freeze_heap``)."""
    _heap.enabled = freeze
    if _heap.watch not in gc.callbacks:
        gc.callbacks.append(_heap.watch)


def started() -> None:
    """Start-up is done: collect, then freeze what is left (once, and only when enabled)."""
    if not _heap.enabled or _heap.done:
        return
    _heap.done = True
    gc.collect()
    gc.freeze()
    log.info("start-up heap frozen: %d objects left out of full collections", gc.get_freeze_count())


def to_wire() -> dict[str, Any]:
    """For ``status``: objects frozen, full collections (generation 2) run since start, and the
    durations of the latest (empty where they are not timed: a daemon inside another program)."""
    ordered = sorted(_heap.pauses_ms)
    return {
        "frozen_objects": gc.get_freeze_count(),
        "full_collections": gc.get_stats()[2]["collections"],
        "full_collection_ms": {
            "count": len(ordered),
            "p50": round(percentile(ordered, 0.5), 2) if ordered else None,
            "max": round(ordered[-1], 2) if ordered else None,
        },
    }
