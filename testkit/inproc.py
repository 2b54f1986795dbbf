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

import asyncio
import concurrent.futures
import contextlib
import contextvars
import logging
import os
import threading
import time
from collections.abc import Iterator, Mapping
from concurrent.futures import Future
from pathlib import Path

import anyio
import anyio.from_thread

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
def _without_service_manager() -> Iterator[None]:
    """The variables by which systemd reaches a daemon (sd_notify, the watchdog, activated sockets)
    are hidden while the daemon runs: should the tests themselves run under a service manager,
    a test's daemon must not report READY or STOPPING for them. ``DaemonProcess`` drops them too."""
    saved = {k: os.environ.pop(k) for k in list(os.environ) if k.startswith(_SERVICE_MANAGER_VARS)}
    try:
        yield
    finally:
        os.environ.update(saved)


# The daemon whose code is running, in the context of its loop and of the threads anyio starts
# for it: each daemon's log takes its own records only, so several can run at once.
_serving: contextvars.ContextVar[InProcessDaemon | None] = contextvars.ContextVar(
    "xaid_in_process_daemon", default=None
)
_log_levels: list[
    int
] = []  # the levels of the daemons logging now; the root logger passes the lowest
_saved_root_level: int | None = None


@contextlib.contextmanager
def _daemon_log(daemon: InProcessDaemon, path: Path, level: str) -> Iterator[None]:
    """What ``logs.setup`` gives the real daemon (logfmt at ``log.level``), into ``path``, for as
    long as the daemon runs, with the records of this daemon only; the test process's own
    handlers and level come back when the last daemon stops."""
    global _saved_root_level
    root = logging.getLogger()
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(LogfmtFormatter())
    handler.setLevel(level.upper())
    handler.addFilter(lambda record: _serving.get() is daemon)
    with _lock:
        if not _log_levels:
            _saved_root_level = root.level
        _log_levels.append(handler.level)
        root.setLevel(min(_log_levels))
        root.addHandler(handler)
    try:
        yield
    finally:
        with _lock:
            root.removeHandler(handler)
            _log_levels.remove(handler.level)
            root.setLevel(min(_log_levels) if _log_levels else (_saved_root_level or 0))
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
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self, wait: bool = True) -> InProcessDaemon:
        self.root.mkdir(parents=True, exist_ok=True)
        cfg = self.cfg = load(self.config_path, env=self.env)
        self._threads = set(threading.enumerate())
        with contextlib.ExitStack() as stack:
            stack.enter_context(_without_service_manager())
            stack.enter_context(_daemon_log(self, self.log_path, cfg.log.level))
            portal = self._portal = stack.enter_context(
                anyio.from_thread.start_blocking_portal("asyncio", name="xaid-in-process")
            )
            self._stop = portal.call(anyio.Event)
            self._served = portal.start_task_soon(self._serve, cfg)
            self._stack = stack.pop_all()
        if wait:
            try:
                self.wait_ready()
            except BaseException:
                with contextlib.suppress(Exception):
                    self.stop()
                raise
        return self

    async def _serve(self, cfg: Config) -> None:
        _serving.set(self)  # this task's context: the daemon's loop, its tasks and their threads
        self._loop = asyncio.get_running_loop()
        with anyio.CancelScope() as self._scope:
            await lifespan.serve(
                cfg,
                config_path=str(self.config_path) if self.config_path else None,
                clock=self.clock,
                stop=self._stop,
                load_embedder=_shared_load,
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
            stack, self._stack = self._stack, None
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
                and getattr(t, "loop", None) is self._loop  # this daemon's, not another's
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
