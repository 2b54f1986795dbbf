"""The daemon's side of the model runner: start it, talk to it, notice when it dies, start it again.

``RunnerProvider`` meets ``providers.base.Provider``, so the generation queue uses it like any
provider, from its one worker thread; the model itself lives in ``python -m
xaid.providers.runner`` (xaid/providers/runner.py), and this process never loads llama.cpp.

When the runner dies (a fault in llama.cpp, an abort, SIGKILL from a user or from the OOM killer):

- the generation in flight raises ``ProviderCrashed``, which the queue answers with
  ``model_crashed`` and follows with ``load()``, the restart;
- ``load()`` waits out a back-off (BACKOFF_FIRST_S, doubling, at most BACKOFF_MAX_S) before it
  starts the next runner, so a model that cannot run does not eat the CPU in a loop;
- the crash is counted by reason (``SIGSEGV``, ``SIGKILL``, ``exit code 1``) for ``status``,
  ``stats`` and the metrics, and logged with the reason and what the runner was doing;
- ``MAX_CRASH_STREAK`` crashes with no reply finished in between (a model that dies at load or at
  its first token, as on the AMX machines of llama.cpp issue 20824) mark the model unavailable
  with the reason; it is not tried again until SIGHUP, which builds a new provider from the config
  as it then reads (lifespan._reload, GenerationQueue.retry).

A load error the runner can explain (a missing file, a GGUF llama.cpp refuses) is not a crash: the
runner reports it and ends, and the model is unavailable at once, as it was in-process.
"""

from __future__ import annotations

import itertools
import logging
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import catalogue as models
from ..config import LLMConfig
from ..stats import rss_kib
from .base import (
    ChatMessage,
    Completion,
    Emit,
    GenerateRequest,
    ProviderCrashed,
    ProviderError,
)
from .head_cache import HeadCache
from .llama_cpp import TOOL_FORMATS
from .runner_frames import (
    FrameChannel,
    RunnerGone,
    completion_from_map,
    config_to_map,
    request_to_map,
)

log = logging.getLogger(__name__)
RUNNER_MODULE = "xaid.providers.runner"
MAX_CRASH_STREAK = 3
BACKOFF_FIRST_S = 0.5
BACKOFF_MAX_S = 30.0
# A runner asked to stop a generation answers within a token; one silent this long after a cancel
# is stuck (in native code, or stopped) and is killed, so the queue behind it moves again.
CANCEL_GRACE_S = 10.0
POLL_S = 0.05  # how often a waiting generation looks at its cancel flag


@dataclass(frozen=True, slots=True)
class RunnerExit:
    """How one runner ended, as the kernel tells it."""

    returncode: int
    during: str  # load | reply
    at: float  # wall-clock seconds

    @property
    def reason(self) -> str:
        if self.returncode < 0:
            try:
                return signal.Signals(-self.returncode).name
            except ValueError:
                return f"signal {-self.returncode}"
        return f"exit code {self.returncode}"

    def to_wire(self) -> dict[str, Any]:
        return {"reason": self.reason, "during": self.during, "at": round(self.at, 3)}


@dataclass
class RunnerHealth:
    """What ``status``, ``stats`` and the metrics say about the runner's life so far."""

    starts: int = 0
    crashes: Counter[str] = field(default_factory=Counter)
    streak: int = 0  # crashes since the last reply a runner finished
    last_exit: RunnerExit | None = None
    unavailable: str = ""

    def to_wire(self) -> dict[str, Any]:
        return {
            "starts": self.starts,
            "restarts": max(0, self.starts - 1),
            "crashes": dict(sorted(self.crashes.items())),
            "crash_streak": self.streak,
            "last_exit": self.last_exit.to_wire() if self.last_exit else None,
            "unavailable": self.unavailable or None,
        }


def backoff(streak: int) -> float:
    """Seconds to wait before the next start, after ``streak`` crashes in a row."""
    if streak <= 0:
        return 0.0
    return min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** (streak - 1))


class RunnerDied(Exception):
    def __init__(self, end: RunnerExit):
        super().__init__(end.reason)
        self.end = end


class RunnerProvider:
    """llama.cpp in a child process; see the module's docstring."""

    name = "llama_cpp"
    continues_prefix = True  # the runner hosts LlamaCppProvider, which continues a prefix

    def __init__(
        self,
        cfg: LLMConfig,
        models_dir: Path | None = None,
        command: list[str] | None = None,
        head_cache_dir: Path | None = None,
    ):
        self.cfg = cfg
        self.models_dir = models_dir
        self.head_cache_dir = head_cache_dir
        self.command = command or [sys.executable, "-m", RUNNER_MODULE]
        self.health = RunnerHealth()
        self._proc: subprocess.Popen[bytes] | None = None
        self._chan: FrameChannel | None = None
        self._send_lock = threading.Lock()
        self._ids = itertools.count(1)
        self._seen: dict[str, Any] = {}  # the runner's own describe(), as of its last answer
        self._closing = False
        self._killed_for = ""

    @property
    def supports_tools(self) -> bool:
        return self.cfg.chat_format in TOOL_FORMATS

    @property
    def reads_ahead(self) -> bool:
        """Whether ``prewarm`` does anything: the daemon does not build heads for nothing."""
        return self.cfg.prewarm and self.head_cache_dir is not None and self.cfg.head_cache_mb > 0

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def describe(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "provider": self.name,
            "model": None if self.cfg.model_path else self.cfg.model or models.DEFAULT_MODEL,
            "model_path": self.cfg.model_path,
            "n_ctx": self.cfg.n_ctx,
            "chat_format": self.cfg.chat_format or "(from the GGUF file)",
            "tools": self.supports_tools,
            **self._seen,
        }
        pid = self.pid
        out["runner"] = {
            "pid": pid,
            "rss_kib": rss_kib(pid) if pid is not None else None,
            **self.health.to_wire(),
        }
        return out

    # --- life and death ----------------------------------------------------------------------

    def load(self) -> None:
        """Start a runner and wait until its model is ready, after the back-off the crashes so far
        ask for; a runner that dies on the way counts as a crash and is started again, until
        MAX_CRASH_STREAK in a row make the model unavailable (ProviderError)."""
        while True:
            if self._closing:  # closed for good: SIGHUP builds a new provider, never reopens one
                raise ProviderError("the daemon is stopping")
            if self.health.unavailable:
                raise ProviderError(self.health.unavailable)
            if delay := backoff(self.health.streak):
                log.warning(
                    "starting the model runner again in %.1f s (%d crash(es) in a row)",
                    delay,
                    self.health.streak,
                )
                time.sleep(delay)
            try:
                self._start()
                return
            except RunnerDied as died:
                if self._closing:
                    raise ProviderError("the daemon is stopping") from None
                self._crashed(died.end)

    def _start(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            proc = subprocess.Popen(
                [*self.command, "--fd", str(theirs.fileno())],
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
            )
        finally:
            theirs.close()
        chan = FrameChannel(ours)
        # ``_proc`` at once (close() must find a child that is still loading), ``_chan`` only once it
        # is ready: nothing else may write to the runner before its ``load`` frame.
        self._proc = proc
        self.health.starts += 1
        log.info("model runner started (pid %d)", proc.pid)
        level = logging.getLevelName(logging.getLogger().getEffectiveLevel())
        try:
            chan.send(
                {
                    "op": "load",
                    "config": config_to_map(self.cfg),
                    "models_dir": str(self.models_dir or ""),
                    "head_cache_dir": str(self.head_cache_dir or ""),
                    "log_level": level,
                }
            )
            frame = chan.receive()
        except RunnerGone:
            raise RunnerDied(self._reap("load", chan)) from None
        assert frame is not None
        if frame.get("op") == "failed":
            self._reap("load", chan)
            raise ProviderError(str(frame.get("error")))
        self._seen = dict(frame.get("describe") or {})
        self._chan = chan
        log.info("model runner %d ready", proc.pid)

    def _reap(self, during: str, chan: FrameChannel | None = None) -> RunnerExit:
        """The runner's end: wait for it (killing one that closed the socket but lives on)."""
        proc, chan = self._proc, chan or self._chan
        self._proc, self._chan = None, None
        if chan is not None:
            chan.close()
        assert proc is not None
        try:
            code = proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            code = proc.wait()
        return RunnerExit(code, during, time.time())

    def _crashed(self, end: RunnerExit) -> None:
        h = self.health
        h.crashes[end.reason] += 1
        h.streak += 1
        h.last_exit = end
        why = f" ({self._killed_for})" if self._killed_for else ""
        self._killed_for = ""
        if h.streak >= MAX_CRASH_STREAK:
            h.unavailable = (
                f"the model process died {h.streak} times in a row without finishing a reply "
                f"(last: {end.reason} during {end.during}{why}); not retried until the config is "
                "reloaded (SIGHUP). On a CPU with AMX try llm.extra_buffers = 'off'."
            )
            log.error("model unavailable: %s", h.unavailable)
        else:
            log.error(
                "the model process died (%s) during %s%s; restarting it (%d crash(es) in a row)",
                end.reason,
                end.during,
                why,
                h.streak,
            )

    def close(self) -> None:
        self._closing = True
        proc, chan = self._proc, self._chan
        if proc is None:
            return
        if chan is not None:
            chan.close()  # the runner reads end of file and ends by itself
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

    def session_closed(self, session_id: str) -> None:
        chan = self._chan
        if chan is None:
            return
        try:
            with self._send_lock:
                chan.send({"op": "forget", "session": session_id})
        except RunnerGone:
            pass  # a dead runner kept nothing

    def agent_erased(self, agent_id: str) -> None:
        """The agent's prompt heads go from disk here and now, whether a runner lives or not, and
        the runner is told too: it forgets what it knew of them, and a head it writes after a
        reply still in flight is removed by the same frame, which it reads after that reply."""
        if self.head_cache_dir is not None:
            HeadCache(self.head_cache_dir, 0).drop_agent(agent_id)
        chan = self._chan
        if chan is None:
            return
        try:
            with self._send_lock:
                chan.send({"op": "erase_agent", "agent": agent_id})
        except RunnerGone:
            pass  # a dead runner writes nothing more

    def prewarm(self, agent_id: str, head: str, opening: tuple[ChatMessage, ...] = ()) -> None:
        """Ask the runner to read the agent's head (and the opening after it) while it is idle
        (runner.serve); a runner that is not up reads it at the agent's next turn instead."""
        chan = self._chan
        if chan is None or not self.reads_ahead:
            return
        frame = {
            "op": "prewarm",
            "agent": agent_id,
            "head": head,
            "opening": [m.to_openai() for m in opening],
        }
        try:
            with self._send_lock:
                chan.send(frame)
        except RunnerGone:
            pass  # the crash is seen, and counted, by the next generation

    def read_ahead(self, session_id: str, agent_id: str, messages: tuple[ChatMessage, ...]) -> None:
        """Ask the runner to read the session's next turn's start while it is idle (runner.serve)."""
        chan = self._chan
        if chan is None or not self.reads_ahead:
            return
        frame = {
            "op": "read_ahead",
            "session": session_id,
            "agent": agent_id,
            "messages": [m.to_openai() for m in messages],
        }
        try:
            with self._send_lock:
                chan.send(frame)
        except RunnerGone:
            pass  # the crash is seen, and counted, by the next generation

    # --- generation --------------------------------------------------------------------------

    def generate(
        self, request: GenerateRequest, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        chan = self._chan
        if chan is None:
            raise ProviderError("the model process is not running")
        rid = next(self._ids)
        try:
            with self._send_lock:
                chan.send({"op": "generate", "id": rid, "request": request_to_map(request)})
            return self._follow(chan, rid, emit, cancelled)
        except RunnerGone:
            if self._closing:
                raise ProviderError("the daemon is stopping") from None
            end = self._reap("reply")
            self._crashed(end)
            raise ProviderCrashed(
                f"the model process died ({end.reason}) while writing this reply; the daemon "
                "restarts it, try again"
                + (
                    f". It is now unavailable: {self.health.unavailable}"
                    if self.health.unavailable
                    else ""
                )
            ) from None

    def _follow(
        self, chan: FrameChannel, rid: int, emit: Emit, cancelled: threading.Event
    ) -> Completion:
        cancel_sent = 0.0
        while True:
            if cancelled.is_set() and not cancel_sent:
                with self._send_lock:
                    chan.send({"op": "cancel", "id": rid})
                cancel_sent = time.monotonic()
            elif cancel_sent and time.monotonic() - cancel_sent > CANCEL_GRACE_S:
                self._killed_for = f"no answer {CANCEL_GRACE_S:.0f} s after a cancel"
                if self._proc is not None:
                    self._proc.kill()
                cancel_sent = float("inf")  # killed once; its end of file follows
            frame = chan.receive(timeout=POLL_S)
            if frame is None or frame.get("id") != rid:
                continue
            op = frame.get("op")
            if op == "piece":
                emit(str(frame["text"]))
            elif op == "done":
                self._seen = {
                    **self._seen,
                    **(frame.get("describe") or {}),
                }  # one swap: status reads it
                self.health.streak = 0
                return completion_from_map(frame["completion"])
            elif op == "error":
                raise ProviderError(str(frame["error"]))
