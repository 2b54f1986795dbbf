"""The daemon inside the test process: ``lifespan.serve`` on its own event loop in a thread.

Most tests talk to xaid the way a client does and need nothing a process gives: a real Unix
socket, a real database and the real embedder are all there in-process. Starting Python, importing
the daemon and loading the embedder for every such test took most of the suite's time; here the
imports are paid once and the embedder is loaded once per configuration (``_shared_load``). Each
daemon still gets its own state directory, database and socket.

What only a process has stays with ``DaemonProcess``: signals, exit codes, start-up failures,
SIGKILL, the umask ``xaid`` sets, systemd's environment, and the command lines.

The interface follows ``DaemonProcess`` (``root``, ``socket``, ``db_path``, ``client()``,
``log()``, ``stop()``, ``env``/``config``), so a test moves by changing which one it starts.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import os
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import Future
from pathlib import Path

import anyio
import anyio.from_thread

import xaid.clock
import xaid.embed
from xaid import lifespan
from xaid.clock import Clock
from xaid.config import Config, MemoryConfig, load
from xaid.embed import Embedder, EmbedProfile
from xaid.logs import LogfmtFormatter

from .scratch import READY_TIMEOUT_S, ScratchDaemon

STOP_TIMEOUT_S = 20.0

# Loading the embedder took 0.7 s of every daemon's start. It is read-only once loaded, so the
# daemons of one test run share it; the key is every setting that selects or shapes the model.
_embedders: dict[tuple[object, ...], tuple[Embedder, EmbedProfile]] = {}
_real_load = xaid.embed.load
_lock = threading.Lock()
_running: InProcessDaemon | None = None
_SERVICE_MANAGER_VARS = ("NOTIFY_SOCKET", "WATCHDOG_", "LISTEN_")


def _embedder_key(cfg: MemoryConfig) -> tuple[object, ...]:
    return (
        cfg.embedder,
        cfg.embed_model,
        cfg.embed_tokenizer,
        cfg.embed_threads,
        cfg.embed_multilingual,
    )


def _shared_load(cfg: MemoryConfig) -> tuple[Embedder, EmbedProfile]:
    """``xaid.embed.load``, once per configuration; a failure is not kept, so it fails every time."""
    key = _embedder_key(cfg)
    with _lock:
        if key not in _embedders:
            _embedders[key] = _real_load(cfg)
        return _embedders[key]


@contextlib.contextmanager
def _patched(obj: object, name: str, value: object) -> Iterator[None]:
    saved = getattr(obj, name)
    setattr(obj, name, value)
    try:
        yield
    finally:
        setattr(obj, name, saved)


@contextlib.contextmanager
def _without_service_manager() -> Iterator[None]:
    """The variables by which systemd reaches a daemon (sd_notify, the watchdog, activated sockets)
    are hidden while the daemon runs: should the tests themselves run under a service manager,
    a test's daemon must not report READY or STOPPING for them. ``DaemonProcess`` drops them too."""
    saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith(_SERVICE_MANAGER_VARS)}
    try:
        yield
    finally:
        os.environ.update(saved)


@contextlib.contextmanager
def _daemon_log(path: Path, level: str) -> Iterator[None]:
    """What ``logs.setup`` gives the real daemon (logfmt at ``log.level``), into ``path``, for as
    long as the daemon runs; the test process's own handlers and level come back afterwards."""
    root = logging.getLogger()
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(LogfmtFormatter())
    saved = root.level
    root.addHandler(handler)
    root.setLevel(level.upper())
    try:
        yield
    finally:
        root.removeHandler(handler)
        root.setLevel(saved)
        handler.close()


class InProcessDaemon(ScratchDaemon):
    """One xaid on a background thread. ``env`` holds ``XAID_*`` settings, read as the daemon would
    read its environment but never taken from this process's; ``config`` is the text of a TOML
    file passed as ``--config``; ``clock`` replaces the system clock (e.g. a ``ManualClock``)."""

    def __init__(
        self,
        root: Path,
        env: Mapping[str, str] | None = None,
        config: str | None = None,
        clock: Clock | None = None,
    ):
        super().__init__(root, env, config)
        self.env = (
            self.settings
        )  # only the XAID_* settings: config.load reads them as its environment
        self.clock = clock
        self.cfg: Config | None = None
        self._stack: contextlib.ExitStack | None = None
        self._portal: anyio.from_thread.BlockingPortal | None = None
        self._stop: anyio.Event | None = None
        self._scope: anyio.CancelScope | None = None
        self._served: Future[None] | None = None
        self._threads: set[threading.Thread] = set()

    def start(self, wait: bool = True) -> InProcessDaemon:
        global _running
        if _running is not None:
            raise RuntimeError(
                f"an in-process daemon already runs in {_running.root}: one at a time, "
                "they share the process's zone, logger and embedder"
            )
        self.root.mkdir(parents=True, exist_ok=True)
        cfg = self.cfg = load(self.config_path, env=self.env)
        self._threads = set(threading.enumerate())
        with contextlib.ExitStack() as stack:
            stack.enter_context(
                _patched(xaid.clock, "_zone", xaid.clock.zone())
            )  # serve sets the process's zone
            stack.enter_context(_patched(xaid.embed, "load", _shared_load))
            stack.enter_context(_without_service_manager())
            stack.enter_context(_daemon_log(self.log_path, cfg.log.level))
            portal = self._portal = stack.enter_context(
                anyio.from_thread.start_blocking_portal("asyncio", name="xaid-in-process")
            )
            self._stop = portal.call(anyio.Event)
            self._served = portal.start_task_soon(self._serve, cfg)
            self._stack = stack.pop_all()
        _running = self
        if wait:
            try:
                self.wait_ready()
            except BaseException:
                with contextlib.suppress(Exception):
                    self.stop()
                raise
        return self

    async def _serve(self, cfg: Config) -> None:
        with anyio.CancelScope() as self._scope:
            await lifespan.serve(
                cfg,
                config_path=str(self.config_path) if self.config_path else None,
                clock=self.clock,
                stop=self._stop,
            )

    def wait_ready(self, timeout: float = READY_TIMEOUT_S) -> None:
        """Until the socket answers a ping (or a refusal, which is an answer too)."""

        def running() -> None:
            assert self._served is not None
            if self._served.done():
                self._served.result()  # raises what stopped the daemon
                raise RuntimeError(f"xaid stopped before it answered:\n{self.log()}")

        self._await_answer(timeout, running, 0.01)

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> int:
        """What SIGTERM does: drain, close the database, stop. 0, like the process's exit code."""
        global _running
        if self._stack is None:
            return 0
        assert self._portal is not None and self._stop is not None and self._served is not None
        try:
            if not self._served.done():
                self._portal.call(self._stop.set)
            try:
                self._served.result(timeout)
            except concurrent.futures.TimeoutError:
                assert self._scope is not None
                self._portal.call(self._scope.cancel)  # its finally still closes the database
                self._served.result(timeout)
                raise RuntimeError(f"xaid did not stop within {timeout} s:\n{self.log()}") from None
        finally:
            stack, self._stack, _running = self._stack, None, None
            stack.close()  # the loop's thread ends here
            self._join_threads(timeout)
        return 0

    def _join_threads(self, timeout: float) -> None:
        """Wait for the loop's worker threads: they are told to stop when the loop closes and end a
        moment later. One that does not would leak into the next test. (The loop's own thread is
        joined by the portal; threads the test started are the test's business.)"""

        def workers() -> set[threading.Thread]:
            return {
                t
                for t in set(threading.enumerate()) - self._threads
                if t.name == "AnyIO worker thread"
            }

        deadline = time.monotonic() + timeout
        for thread in workers():
            thread.join(max(0.0, deadline - time.monotonic()))
        if left := workers():
            raise RuntimeError(
                f"{len(left)} worker thread(s) of the in-process daemon still run after {timeout} s"
            )

    def __enter__(self) -> InProcessDaemon:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
