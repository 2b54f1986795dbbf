"""Shared fixtures: a real xaid process on a real socket in a temp dir.

The daemon runs the scripted provider unless a test asks otherwise; it stands in for an LLM
wherever the test is about the daemon rather than the words (see xaid/providers/scripted.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from xaiclient import Client

from testkit import DaemonProcess


@pytest.fixture
def daemon(tmp_path: Path) -> Iterator[DaemonProcess]:
    with DaemonProcess(tmp_path / "d") as proc:
        yield proc


@pytest.fixture
def client(daemon: DaemonProcess) -> Iterator[Client]:
    with daemon.client() as c:
        yield c
