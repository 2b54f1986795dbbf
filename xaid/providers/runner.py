"""The model runner: ``python -m xaid.providers.runner --fd N``, a child of the daemon that holds
llama.cpp and nothing else.

llama.cpp is native code: a fault in it (the AMX matmul of llama.cpp issue 20824, an abort on a
bad tensor) or the kernel's OOM killer ends the process it runs in. Here that process is this
one, so a crash costs one reply and the daemon, which owns the database, the socket and every
write, keeps serving (xaid/providers/runner_supervisor.py restarts the runner). The runner gets
one end of a socketpair and the ``[llm]`` settings; no database, no client socket, no state
directory beyond the models directory that a catalogued model is joined into and the directory of
the agents' prompt heads (xaid/providers/head_cache.py), which it alone writes.

Inside, it is the in-process provider (xaid/providers/llama_cpp.py) as before: the per-session KV
state cache, the no-copy sampling rule, the CPU quirks and the prompt-eval figures all live with
the model. One thread reads frames, so a ``cancel`` arrives while the main thread generates; the
main thread runs one request at a time and is the only one that writes.

SIGINT and SIGTERM are ignored: a Ctrl-C on the terminal or systemd's stop reach the whole process
group, and the daemon's drain may still need the model; the runner ends when the daemon closes its
end of the socketpair (or dies), which it reads as end of file. (Not PR_SET_PDEATHSIG: it fires
when the *thread* that started the child ends, and the daemon starts it from a pooled worker
thread that may end any time.) It raises its own
``oom_score_adj`` so that, when memory runs out, the kernel takes the model before the daemon.
"""

from __future__ import annotations

import argparse
import logging
import os
import queue
import signal
import socket
import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..logs import setup as setup_logging
from .base import ProviderError
from .llama_cpp import LlamaCppProvider, passive_openmp
from .runner_frames import (
    FrameChannel,
    RunnerGone,
    completion_to_map,
    config_from_map,
    request_from_map,
)

log = logging.getLogger("xaid.runner")
# Added to the kernel's badness score of this process (-1000..1000; raising it needs no privilege):
# the OOM killer then picks the model, whose loss costs one reply, over the daemon.
OOM_SCORE_ADJ = 500


def _prefer_me_under_oom() -> None:
    try:
        with open("/proc/self/oom_score_adj", "w") as f:
            f.write(str(OOM_SCORE_ADJ))
    except OSError:
        pass  # not Linux, or /proc is not mounted: nothing to prefer


def _mark_runner(record: logging.LogRecord) -> bool:
    """Every line the runner logs says so (``runner=<pid>`` in logfmt, RUNNER= in the journal)."""
    record.runner = os.getpid()
    return True


class Inbox:
    """The reader thread's side: requests queue for the main thread, cancels act at once."""

    def __init__(self, chan: FrameChannel, wake: Callable[[], None] = lambda: None):
        self.chan = chan
        self.wake = wake  # a turn came (an agent's, not consolidation's): reading ahead stops now
        self.requests: queue.Queue[dict[Any, Any] | None] = queue.Queue()
        self.cancels: dict[int, threading.Event] = {}
        self._lock = threading.Lock()

    def event(self, request_id: int) -> threading.Event:
        with self._lock:
            return self.cancels.setdefault(request_id, threading.Event())

    def done(self, request_id: int) -> None:
        with self._lock:
            self.cancels.pop(request_id, None)

    def read(self) -> None:
        try:
            while True:
                frame = self.chan.receive()
                assert frame is not None
                if frame.get("op") == "cancel":
                    self.event(int(frame["id"])).set()
                else:
                    generate = frame.get("op") == "generate"
                    if generate:
                        self.event(int(frame["id"]))
                    self.requests.put(frame)
                    if generate and (frame.get("request") or {}).get("agent"):
                        self.wake()  # a turn: someone waits for its first word
        except RunnerGone:
            pass  # the daemon closed its end or died: stop what runs, then end
        except Exception:
            log.exception("the runner could not read the daemon's frame; ending")
        with self._lock:
            for ev in self.cancels.values():
                ev.set()
        self.requests.put(None)


def serve(chan: FrameChannel, provider: LlamaCppProvider) -> None:
    """Frames in order, one at a time. A ``prewarm`` (an agent's head to read ahead of time) waits
    until nothing else does, the newest per agent, and stops as soon as any frame comes in (a turn
    stops even the chunk under way: llama_interrupt.py): it is work for an idle model, never in
    front of a turn. An ``erase_agent`` drops the agent's
    waiting prewarm too (it would write the erased profile back). A ``read_ahead`` (the start of a
    session's next turn, handed over after its reply) is the same kind of work and goes before
    the heads: that session's user is reading the reply now."""
    inbox = Inbox(chan, provider.interrupt_reading)
    threading.Thread(target=inbox.read, name="runner-reader", daemon=True).start()
    # agent -> (head to prewarm, the opening that may follow it), oldest first
    heads: OrderedDict[str, tuple[str, list[dict[str, Any]]]] = OrderedDict()
    # session -> (agent, the next turn's first messages), oldest first
    aheads: OrderedDict[str, tuple[str, list[dict[str, Any]]]] = OrderedDict()
    while True:
        if aheads and inbox.requests.empty():
            # the newest first: its user is the one reading a reply that just ended (an older
            # session's read-ahead first cost session_ttft's turn 2 its whole pause)
            session, (agent, messages) = aheads.popitem(last=True)
            try:
                done = provider.read_ahead(session, messages, lambda: not inbox.requests.empty())
            except Exception:  # it only saves time: the next turn reads what is missing
                log.exception("reading a session's next turn ahead of time failed")
                continue
            if done == "yielded" and session not in aheads:
                aheads[session] = (agent, messages)
                aheads.move_to_end(session, last=False)  # after any newer one
            continue
        if heads and inbox.requests.empty():
            agent, (head, opening) = heads.popitem(last=False)
            try:
                done = provider.prewarm(agent, head, lambda: not inbox.requests.empty(), opening)
            except Exception:  # the cache only saves time: a failed prewarm is not retried
                log.exception("reading an agent's prompt head ahead of time failed")
                continue
            if done == "yielded" and agent not in heads:
                heads[agent] = (head, opening)
                heads.move_to_end(agent, last=False)  # first again once the model is idle
            continue
        if (frame := inbox.requests.get()) is None:
            break
        if frame["op"] == "prewarm":
            heads.pop(str(frame["agent"]), None)
            heads[str(frame["agent"])] = (str(frame["head"]), list(frame.get("opening") or ()))
            continue
        if frame["op"] == "read_ahead":
            aheads.pop(str(frame["session"]), None)
            aheads[str(frame["session"])] = (str(frame["agent"]), list(frame["messages"]))
            continue
        if frame["op"] == "forget":
            aheads.pop(str(frame["session"]), None)
            provider.session_closed(str(frame["session"]))
            continue
        if frame["op"] == "erase_agent":
            for session in [s for s, (agent, _) in aheads.items() if agent == frame["agent"]]:
                del aheads[session]
            heads.pop(str(frame["agent"]), None)
            provider.agent_erased(str(frame["agent"]))
            continue
        request_id = int(frame["id"])
        cancelled = inbox.event(request_id)

        def emit(piece: str, request_id: int = request_id) -> None:
            chan.send({"op": "piece", "id": request_id, "text": piece})

        try:
            out = provider.generate(request_from_map(frame["request"]), emit, cancelled)
        except ProviderError as exc:
            chan.send({"op": "error", "id": request_id, "error": str(exc)})
        else:
            chan.send(
                {
                    "op": "done",
                    "id": request_id,
                    "completion": completion_to_map(out),
                    "describe": provider.describe(),
                }
            )
        finally:
            inbox.done(request_id)
        provider.settle()  # the reply is out: now the work it need not wait for


def run(fd: int) -> int:
    chan = FrameChannel(socket.socket(fileno=fd))
    try:
        first = chan.receive()
        assert first is not None and first.get("op") == "load", first
        logging.getLogger().setLevel(str(first.get("log_level") or "INFO"))
        cfg = config_from_map(first["config"])
        models_dir = Path(first["models_dir"]) if first.get("models_dir") else None
        heads = Path(first["head_cache_dir"]) if first.get("head_cache_dir") else None
        provider = LlamaCppProvider(cfg, models_dir, heads)
        try:
            provider.load()
        except ProviderError as exc:
            chan.send({"op": "failed", "error": str(exc)})
            return 0
        chan.send({"op": "ready", "describe": provider.describe()})
        try:
            serve(chan, provider)
        finally:
            provider.close()
    except RunnerGone:
        pass  # the daemon went away: nothing left to answer
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="xaid-runner", description=__doc__.splitlines()[0])
    parser.add_argument("--fd", type=int, required=True, help="this end of the socketpair")
    args = parser.parse_args(argv)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    passive_openmp()  # before llama_cpp loads OpenMP (see llama_cpp.py)
    _prefer_me_under_oom()
    setup_logging("info")  # the daemon's format and destination; its level comes with ``load``
    for handler in logging.getLogger().handlers:
        handler.addFilter(_mark_runner)
    return run(args.fd)


if __name__ == "__main__":
    sys.exit(main())
