"""A real xaid process in a scratch directory, for the test suite and the benchmarks.

Both need the same thing: start the daemon as a user would (its console entry point, a real
socket, a real database), wait until it answers, and stop or kill it. A top-level package beside
tests/ and perf/ lets both share one way of doing it, and keeps it (and the hypothesis strategies
of fuzz.py) out of the xaid wheel: pyproject's package discovery includes ``xaid*`` only. Both
import it from the repository root, which ``python -m pytest`` and ``python -m perf`` put on
sys.path (pytest's ``pythonpath`` setting does the same for a bare ``pytest``).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .scratch import READY_TIMEOUT_S, ScratchDaemon


class DaemonProcess(ScratchDaemon):
    def __init__(self, root: Path, env: Mapping[str, str] | None = None, config: str | None = None):
        super().__init__(root, env, config)
        # A whole environment, to start xaid (or xaictl) with: this process's, without its XAID_* and
        # service-manager variables, and then this daemon's settings.
        self.env = {
            **{
                k: v
                for k, v in os.environ.items()
                if not k.startswith(("XAID_", "LISTEN_", "NOTIFY_SOCKET"))
            },
            **self.settings,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.started_at = 0.0

    def start(self, wait: bool = True) -> DaemonProcess:
        self.root.mkdir(parents=True, exist_ok=True)
        args = [sys.executable, "-m", "xaid"]
        if self.config_path is not None:
            args += ["--config", str(self.config_path)]
        self.started_at = time.perf_counter()
        with open(self.log_path, "ab") as log:
            self.proc = subprocess.Popen(args, env=self.env, stdout=log, stderr=subprocess.STDOUT)
        if wait:
            self.wait_ready()
        return self

    @property
    def process(self) -> subprocess.Popen[bytes]:
        """The started process (for its pid and for signals); asking before ``start`` is a test bug."""
        if self.proc is None:
            raise RuntimeError("the daemon process has not been started")
        return self.proc

    def wait_ready(self, timeout: float = READY_TIMEOUT_S) -> float:
        """Seconds from start until the socket answered a ping."""

        def running() -> None:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"xaid exited with {self.proc.returncode}:\n{self.log()}")

        self._await_answer(timeout, running, 0.02)
        return time.perf_counter() - self.started_at

    def stop(self, timeout: float = 20.0) -> int:
        """SIGTERM and wait: the clean way, with draining."""
        if self.proc is None or self.proc.poll() is not None:
            return self.proc.returncode if self.proc else 0
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError(
                f"xaid did not stop within {timeout} s after SIGTERM:\n{self.log()}"
            ) from None

    def kill(self) -> None:
        """SIGKILL: what a power cut or the OOM killer does to the process."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self) -> DaemonProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        try:
            self.stop()
        finally:
            self.kill()


def xaictl(*args: str, socket: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """Run xaictl as a user would, against ``socket``, never against a daemon found in the environment."""
    env = {k: v for k, v in os.environ.items() if k != "XAID_SOCKET"}
    return subprocess.run(
        [sys.executable, "-m", "xaiclient.cli", "--socket", str(socket), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


def xaictl_ok(*args: str, socket: Path) -> str:
    out = xaictl(*args, socket=socket)
    assert out.returncode == 0, f"xaictl {' '.join(args)} exited {out.returncode}: {out.stderr}"
    return out.stdout


def xaictl_json(*args: str, socket: Path) -> Any:
    return json.loads(xaictl_ok("--json", *args, socket=socket))


def one_line_error(out: subprocess.CompletedProcess[str], code: int = 1) -> str:
    """xaictl's promise on failure: one line on stderr, a non-zero exit, never a traceback."""
    assert out.returncode == code, out
    assert (
        out.stderr.count("\n") == 1
        and out.stderr.startswith("xaictl: ")
        and "Traceback" not in out.stderr
    )
    return out.stderr
