"""Shared fixtures: a real xaid on a real socket in a temp dir, inside the test process.

``daemon`` is an :class:`~testkit.inproc.InProcessDaemon` (``lifespan.serve`` on a thread of its
own): real socket, real database, real embedder. Tests about what only a process has (signals,
exit codes, SIGKILL, the command line) start a ``DaemonProcess`` themselves.

The daemon runs the scripted provider unless a test asks otherwise; it stands in for an LLM
wherever the test is about the daemon rather than the words (see xaid/providers/scripted.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from xaiclient import Client

from testkit import DaemonProcess
from testkit.inproc import InProcessDaemon

if TYPE_CHECKING:  # loaded by the fixtures that need them, not by every test
    from xaid.embed.use import UseEmbedder
    from xaid.mood import meaning


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[InProcessDaemon]:
    with InProcessDaemon(tmp_path / "d") as d:
        yield d


@pytest.fixture
def daemon_process(tmp_path: Path) -> Iterator[DaemonProcess]:
    """The daemon as its own process, for tests of what only a process has."""
    with DaemonProcess(tmp_path / "d") as proc:
        yield proc


@pytest.fixture
def client(daemon: InProcessDaemon) -> Iterator[Client]:
    with daemon.client() as c:
        yield c


@pytest.fixture(scope="session")
def use_embedder() -> UseEmbedder:
    """The daemon's default embedder (USE-multilingual-v3), loaded once for the tests that read
    meaning without a daemon."""
    from xaid.embed.use import UseEmbedder

    return UseEmbedder()


@pytest.fixture(scope="session")
def prototypes(use_embedder: UseEmbedder) -> meaning.Prototypes:
    """The feeling, loss and open-worry prototypes of xaid/mood/meaning.py under ``use_embedder``."""
    import numpy as np

    from xaid.mood import meaning

    return meaning.Prototypes.build(lambda t: np.asarray(use_embedder.embed(t), dtype=np.float32))
