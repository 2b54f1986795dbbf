"""What start-up built is frozen out of full collections in the daemon's own process, and only
there (xaid/heap.py): a real daemon process over its socket, and the in-process daemon the tests use,
which must leave the test process's collector alone."""

from __future__ import annotations

import gc
import time
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon
from xaid import heap


class _Node:
    other: _Node | None = None


@pytest.fixture
def fresh_heap_state() -> Iterator[None]:
    saved = (heap._heap.enabled, heap._heap.done)
    heap._heap.enabled = heap._heap.done = False
    try:
        yield
    finally:
        gc.unfreeze()
        if heap._heap.watch in gc.callbacks:
            gc.callbacks.remove(heap._heap.watch)
        heap._heap.enabled, heap._heap.done = saved


def test_started_freezes_once_and_only_when_the_process_is_the_daemons(
    fresh_heap_state: None,
) -> None:
    gc.unfreeze()
    heap.started()  # not the daemon's own process: nothing frozen
    assert gc.get_freeze_count() == 0 and heap.to_wire()["frozen_objects"] == 0
    heap.freeze_after_start()
    cycle = _Node()
    cycle.other = _Node()
    cycle.other.other = cycle
    gone = weakref.ref(cycle)
    del cycle  # cyclic garbage present at the freeze: collected first, or it would stay for good
    heap.started()
    frozen = gc.get_freeze_count()
    assert frozen > 1000  # the modules and what they hold
    assert gone() is None
    assert heap.to_wire()["full_collection_ms"]["count"] >= 1  # that collection, timed
    heap.started()  # once: a second call freezes nothing more
    assert gc.get_freeze_count() == frozen


def test_the_daemon_process_freezes_its_start_up_heap(daemon_process: DaemonProcess) -> None:
    with daemon_process.client() as c:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not c.status()["heap"]["frozen_objects"]:
            time.sleep(0.1)
        shown = c.status()["heap"]
    assert shown["frozen_objects"] > 10_000  # the embedder's tokenizer alone holds more
    assert shown["full_collections"] >= 1  # the collection before the freeze
    assert shown["full_collection_ms"]["count"] >= 1 and shown["full_collection_ms"]["max"] > 0


def test_a_daemon_told_not_to_freeze_does_not(tmp_path: Path) -> None:
    with (
        DaemonProcess(tmp_path / "d", {"XAID_SERVER_FREEZE_HEAP": "false"}) as proc,
        proc.client() as c,
    ):
        c.agent_create("mia")
        sid = c.session_open("mia")["session_id"]
        c.session_close(sid, wait=True)  # start-up long done: the sweep ran before the first job
        assert c.status()["heap"]["frozen_objects"] == 0


def test_a_daemon_inside_another_program_leaves_its_collector_alone(
    daemon: InProcessDaemon,
) -> None:
    with daemon.client() as c:
        c.agent_create("mia")
        sid = c.session_open("mia")["session_id"]
        c.session_close(sid, wait=True)  # start-up long done: the sweep ran before the first job
        assert c.status()["heap"]["frozen_objects"] == gc.get_freeze_count() == 0
