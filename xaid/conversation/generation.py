"""One fair queue in front of the one loaded model.

A model generates one reply at a time, so every turn of every session waits here. Turns are
taken round-robin across agents (FIFO within an agent), and each agent may hold only its share of
``llm.max_queue`` (xaid.shares), so one chatty app can neither starve another of the model's time
nor fill the queue before another's turn arrives.
The model loads in the background: the daemon is READY at once and turns wait for the load.

When the model's process dies during a generation (``ProviderCrashed``, from the llama.cpp runner),
that job ends with ``model_crashed`` and the queue loads the model again (``RESTARTING``; the
provider waits out its back-off) while turns keep queueing behind it. A provider that gives up
(``ProviderError`` from ``load``) leaves the model ``FAILED`` until SIGHUP asks for ``retry``.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections import Counter, OrderedDict, deque
from dataclasses import dataclass, field
from enum import StrEnum

import anyio
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from xaiclient import wire
from xaiclient.wire import Internal, ModelUnavailable, Overloaded, XaiError

from .. import shares
from ..providers.base import (
    Completion,
    GenerateRequest,
    Provider,
    ProviderCrashed,
    ProviderError,
)
from ..stats import LLMSpeed

log = logging.getLogger(__name__)


class ModelState(StrEnum):
    LOADING = "loading"
    READY = "ready"
    RESTARTING = "restarting"  # the model's process died; a new one is on its way
    FAILED = "failed"


@dataclass(eq=False)
class Job:
    """One generation in the queue. Its consumer holds it with ``async with job:``: on leaving,
    both ends of its stream are closed whatever happened, so a job is never collected with its
    stream open (a daemon stopping mid-turn left one, its warning failed a later test in CI)."""

    key: str
    request: GenerateRequest
    send: MemoryObjectSendStream[str]
    pieces: MemoryObjectReceiveStream[str]
    cancelled: threading.Event = field(default_factory=threading.Event)
    finished: anyio.Event = field(default_factory=anyio.Event)
    completion: Completion | None = None
    error: XaiError | None = None
    queued_ns: int = field(default_factory=time.perf_counter_ns)
    started_ns: int = 0

    async def __aenter__(self) -> Job:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.pieces.close()
        self.send.close()  # the worker's next piece then finds nobody listening and stops

    async def result(self) -> Completion:
        await self.finished.wait()
        if self.error is not None:
            raise self.error
        assert self.completion is not None
        return self.completion


class GenerationQueue:
    def __init__(self, provider: Provider, max_queue: int):
        self.provider = provider
        self.max_queue = max_queue
        self.state = ModelState.LOADING
        self.load_error = ""
        self.load_seconds = 0.0
        self.generated = 0
        self.restarts = 0  # loads after a crash of the model's process
        self.speed = LLMSpeed()
        self._lanes: OrderedDict[str, deque[Job]] = OrderedDict()
        self._waiting = 0
        self._wakeup = anyio.Event()
        self._settled = anyio.Event()  # set while no load is under way
        self.running: Job | None = None
        self._stopped = False  # the worker has ended: a job submitted now would never be taken

    @property
    def waiting(self) -> int:
        return self._waiting

    async def load(self) -> None:
        await self._load()

    async def retry(self, provider: Provider) -> None:
        """SIGHUP's second chance for a model that failed: ``provider`` (built from the config as
        it reads now) replaces the one that gave up, and loads. A model that works is left alone."""
        if self.state is not ModelState.FAILED:
            await anyio.to_thread.run_sync(provider.close)
            return
        old, self.provider = self.provider, provider
        await anyio.to_thread.run_sync(old.close)
        self.state, self.load_error = ModelState.LOADING, ""
        log.info("SIGHUP: loading the model again")
        await self._load()

    async def _restart(self) -> None:
        self.restarts += 1
        self.state = ModelState.RESTARTING
        await self._load()

    async def _load(self) -> None:
        if self._settled.is_set():
            self._settled = anyio.Event()
        start = time.perf_counter()
        try:
            await anyio.to_thread.run_sync(self.provider.load, abandon_on_cancel=True)
        except ProviderError as exc:
            self.state, self.load_error = ModelState.FAILED, str(exc)
            log.error("model failed to load: %s", exc)
        else:
            self.state = ModelState.READY
            self.load_seconds = time.perf_counter() - start
            log.info("model ready after %.2f s", self.load_seconds)
        self._settled.set()
        self._fail_waiting_if_broken()

    def check_capacity(self, key: str) -> None:
        """Refuse a job of ``key`` (an agent, or its memory's lane) past its share of the queue."""
        if self.state is ModelState.FAILED:
            raise ModelUnavailable(f"the model is unavailable: {self.load_error}")
        held: Counter[str] = Counter()
        for lane, jobs in self._lanes.items():
            held[_owner(lane)] += len(jobs)
        share = shares.of(self.max_queue, held, _owner(key))
        if not share.admitted:
            raise Overloaded(
                share.why_not("turns waiting for the model", "llm.max_queue"),
            )

    def submit(self, key: str, request: GenerateRequest) -> Job:
        if self._stopped:
            raise ModelUnavailable("the daemon is stopping")
        self.check_capacity(key)
        send, pieces = anyio.create_memory_object_stream[str](math.inf)
        job = Job(key, request, send, pieces)
        self._lanes.setdefault(key, deque()).append(job)
        self._waiting += 1
        self._wakeup.set()
        return job

    def _next(self) -> Job | None:
        while self._lanes:
            key, lane = next(iter(self._lanes.items()))
            job = lane.popleft()
            if lane:
                self._lanes.move_to_end(key)
            else:
                del self._lanes[key]
            self._waiting -= 1
            if not job.cancelled.is_set():
                return job
            self._finish(job, Completion(finish_reason="cancelled"))
        return None

    def _fail_waiting_if_broken(self) -> None:
        if self.state is not ModelState.FAILED:
            return
        while self._lanes:
            _, lane = self._lanes.popitem(last=False)
            for job in lane:
                job.error = ModelUnavailable(f"the model is unavailable: {self.load_error}")
                job.send.close()
                job.finished.set()
        self._waiting = 0

    @staticmethod
    def _finish(job: Job, completion: Completion | None, error: XaiError | None = None) -> None:
        job.completion, job.error = completion, error
        job.send.close()
        job.finished.set()

    async def worker(self) -> None:
        """Runs for the daemon's lifetime; the only place that calls the provider. When the daemon
        stops it, the jobs it leaves (the one running, those waiting) have their streams closed:
        one left open was collected later and warned, failing a test of a later daemon in CI."""
        try:
            await self._work()
        finally:
            self._stopped = True
            for lane in self._lanes.values():
                for job in lane:
                    job.send.close()

    async def _work(self) -> None:
        while True:
            await self._settled.wait()
            job = self._next()
            if job is None:
                self._wakeup = anyio.Event()
                await self._wakeup.wait()
                continue
            if self.state is not ModelState.READY:
                self._finish(job, None, ModelUnavailable(self.load_error))
                continue
            self.running = job
            job.started_ns = time.perf_counter_ns()
            try:
                completion = await anyio.to_thread.run_sync(self._generate, job)
            except ProviderCrashed as exc:
                self._finish(job, None, wire.ModelCrashed(str(exc)))
                self.running = None
                await self._restart()
            except ProviderError as exc:
                self._finish(job, None, wire.ProviderError(str(exc)))
            except Exception as exc:  # a provider bug must not kill the queue
                log.exception("provider crashed")
                self._finish(job, None, Internal(f"provider crashed: {exc}"))
            except BaseException:  # cancelled: the daemon stops (worker closes the waiting ones)
                job.cancelled.set()
                job.send.close()
                raise
            else:
                self.generated += 1
                self._finish(job, completion)
            finally:
                self.running = None

    def _generate(self, job: Job) -> Completion:
        pieces, first_ns, last_ns = 0, 0, 0

        def emit(piece: str) -> None:
            nonlocal pieces, first_ns, last_ns
            last_ns = time.perf_counter_ns()
            first_ns = first_ns or last_ns
            pieces += 1
            try:
                anyio.from_thread.run_sync(job.send.send_nowait, piece)
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                job.cancelled.set()  # nobody is listening any more: stop spending the CPU

        completion = self.provider.generate(job.request, emit, job.cancelled)
        self.speed.generation(pieces, first_ns, last_ns)
        self.speed.prompt_read(completion.prompt_eval_tokens, completion.prompt_eval_ms)
        return completion


def _owner(lane: str) -> str:
    """The agent a lane's jobs count against: its turns, and its memory's own calls (``memory:<id>``)."""
    return lane.removeprefix("memory:")
