"""The daemon itself: ping latency, requests per second, time to READY, memory.

Every measurement starts a fresh daemon (scratch dir, fresh database) through
``testkit.DaemonProcess``. Figures measured on both event loops (uvloop, plain asyncio)
are taken in the same run, interleaved round by round, and reported with their ratio.
"""

from __future__ import annotations

import asyncio
import multiprocessing as mp
import os
import queue
import socket
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from multiprocessing.synchronize import Event as MpEvent
from pathlib import Path
from typing import Any, TypeVar

from xaiclient import AsyncClient, Client, DaemonUnavailable
from xaiclient.core import Router
from xaiclient.wire import Request, encode, encode_frame

from testkit import DaemonProcess

from ..kit import LOOPS, Aim, Row, Section, median, percentile, progress, ratio, scratch_daemon

PING_P50_AIM = Aim("<=", 100.0)  # µs
RPS_8_AIM = Aim(">=", 10_000.0)
READY_AIM = Aim("<", 1.0)  # s
LLAMA_ENV = {"XAID_LLM_PROVIDER": "llama_cpp", "XAID_LLM_MODEL": "smollm2-135m"}
CLIENT_WARMUP = 200  # pings each client process sends before the clock starts
SPAWN = mp.get_context("spawn")
T = TypeVar("T")


@dataclass(frozen=True)
class Plan:
    rounds: int  # each loop-vs-loop figure is the median of this many fresh daemons per loop
    latency_warmup: int
    latency_count: int
    one_client: int  # pings sent by the single client process
    per_client: int  # pings sent by each of the `clients` processes
    clients: int
    pipelined: int  # pings sent in total through one AsyncClient
    inflight: int  # pings in flight at once on that connection (server.max_inflight is 32)
    limit_s: (
        float  # each throughput measurement stops after this long even if the count is not reached
    )
    ready_starts: int
    llama_starts: int


FULL = Plan(5, 300, 3000, 15_000, 3000, 8, 40_000, 32, 8.0, 5, 3)
QUICK = Plan(1, 100, 1000, 2000, 500, 8, 5000, 32, 3.0, 2, 1)


@dataclass
class Throughput:
    requests: int
    seconds: float
    errors: int = 0

    @property
    def rps(self) -> float:
        return self.requests / self.seconds if self.seconds > 0 else 0.0


# --- 1. latency ---------------------------------------------------------------------------------


def ping_latency(daemon: DaemonProcess, warmup: int, count: int) -> dict[str, float]:
    """Sequential pings through the blocking Client: round trip percentiles in µs."""
    clock = time.perf_counter_ns
    samples: list[float] = []
    with daemon.client(timeout=10.0) as client:
        for _ in range(warmup):
            client.ping()
        for _ in range(count):
            t0 = clock()
            client.ping()
            samples.append((clock() - t0) / 1000)
        server = client.call("stats")["methods"]["ping"]
    return {
        "p50": percentile(samples, 0.50),
        "p99": percentile(samples, 0.99),
        "server_p50": server["p50_ms"] * 1000,
        "server_p99": server["p99_ms"] * 1000,
    }


def _echo_server(path: str, ready: MpEvent) -> None:
    """The fastest Python peer we can build: a uvloop Protocol that echoes bytes back."""

    class Echo(asyncio.Protocol):
        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport: Any = transport

        def data_received(self, data: bytes) -> None:
            self.transport.write(data)

    async def main() -> None:
        await asyncio.get_running_loop().create_unix_server(Echo, path)
        ready.set()
        await asyncio.Event().wait()

    _run_fast(main())


def echo_floor(root: Path, warmup: int, count: int) -> float:
    """p50 µs of a ping-sized frame sent to a uvloop echo server and read back: no codec, no daemon."""
    path = str(root / "echo.sock")
    ready = SPAWN.Event()
    server = SPAWN.Process(target=_echo_server, args=(path, ready), daemon=True)
    server.start()
    try:
        if not ready.wait(30):
            raise RuntimeError("echo server did not start")
        frame = encode(Request(id=1, method="ping", params={}))
        samples: list[float] = []
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.connect(path)
            for i in range(warmup + count):
                t0 = time.perf_counter_ns()
                sock.sendall(frame)
                got = 0
                while got < len(frame):
                    got += len(sock.recv(65536))
                if i >= warmup:
                    samples.append((time.perf_counter_ns() - t0) / 1000)
        return percentile(samples, 0.50)
    finally:
        server.terminate()
        server.join(10)


def client_codec_us(count: int) -> float:
    """µs the client library spends per ping on its own: encode the request, decode and route the reply."""
    router = Router()
    replies = [encode_frame({"id": i, "ok": True, "result": {}}) for i in range(1, count + 1)]
    t0 = time.perf_counter_ns()
    for reply in replies:
        rid, _ = router.request("ping", {})
        router.receive(reply)
        router.pop(rid)
    return (time.perf_counter_ns() - t0) / 1000 / count


# --- 2. throughput ------------------------------------------------------------------------------


def _ping_client(path: str, count: int, limit_s: float, inbox: Any, go: MpEvent) -> None:
    """One client process: connect, warm up, wait for the start signal, ping `count` times (or until limit_s)."""
    try:
        with Client(path, timeout=10.0) as client:
            ping = client.ping
            for _ in range(CLIENT_WARMUP):
                ping()
            inbox.put(("ready", os.getpid()))
            if not go.wait(60):
                raise RuntimeError("no start signal")
            t0 = time.monotonic()  # CLOCK_MONOTONIC: comparable across processes
            deadline = t0 + limit_s
            done = 0
            while done < count:
                ping()
                done += 1
                if done % 64 == 0 and time.monotonic() > deadline:
                    break
            t1 = time.monotonic()
        inbox.put(("done", done, t0, t1))
    except Exception as exc:
        inbox.put(("error", repr(exc)))


def client_rps(daemon: DaemonProcess, clients: int, per_client: int, limit_s: float) -> Throughput:
    """`clients` separate processes, each with its own blocking Client, pinging at once."""
    inbox = SPAWN.Queue()
    go = SPAWN.Event()
    procs = [
        SPAWN.Process(
            target=_ping_client,
            args=(str(daemon.socket), per_client, limit_s, inbox, go),
            daemon=True,
        )
        for _ in range(clients)
    ]
    for proc in procs:
        proc.start()
    errors: list[str] = []
    finished: list[tuple[int, float, float]] = []
    try:
        ready = 0
        while ready + len(errors) < clients:
            kind, *rest = inbox.get(timeout=60)
            if kind == "ready":
                ready += 1
            elif kind == "error":
                errors.append(rest[0])
        go.set()
        while len(finished) + len(errors) < clients:
            kind, *rest = inbox.get(timeout=limit_s + 60)
            if kind == "done":
                finished.append((rest[0], rest[1], rest[2]))
            elif kind == "error":
                errors.append(rest[0])
    except queue.Empty:
        raise RuntimeError(f"client processes did not report in time ({errors})") from None
    finally:
        for proc in procs:
            proc.join(10)
            if proc.is_alive():
                proc.kill()
                proc.join()
    if not finished:
        raise RuntimeError(f"every client process failed: {errors}")
    start = min(t0 for _, t0, _ in finished)
    end = max(t1 for _, _, t1 in finished)
    return Throughput(sum(n for n, _, _ in finished), end - start, len(errors))


def _run_fast(coro: Coroutine[Any, Any, T]) -> T:
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    return uvloop.run(coro)


async def _pipelined(path: Path, total: int, inflight: int, limit_s: float) -> Throughput:
    async with AsyncClient(path) as client:
        for _ in range(20):
            await asyncio.gather(*(client.ping() for _ in range(inflight)), return_exceptions=True)
        sent = errors = 0
        t0 = time.perf_counter()
        deadline = t0 + limit_s
        while sent < total and time.perf_counter() < deadline:
            replies = await asyncio.gather(
                *(client.ping() for _ in range(inflight)), return_exceptions=True
            )
            sent += len(replies)
            errors += sum(isinstance(r, BaseException) for r in replies)
        seconds = time.perf_counter() - t0
    return Throughput(sent - errors, seconds, errors)


def pipelined_rps(daemon: DaemonProcess, total: int, inflight: int, limit_s: float) -> Throughput:
    """One AsyncClient (on uvloop when installed), `inflight` pings at a time via asyncio.gather."""
    return _run_fast(_pipelined(daemon.socket, total, inflight, limit_s))


# --- 3. and 4. start-up and memory --------------------------------------------------------------


def first_ping(daemon: DaemonProcess, poll_s: float = 0.002, timeout: float = 30.0) -> float:
    """Start the daemon; seconds from just before the process is spawned to the first answered ping."""
    daemon.start(wait=False)
    deadline = time.monotonic() + timeout
    while True:
        assert daemon.proc is not None
        if daemon.proc.poll() is not None:
            raise RuntimeError(f"xaid exited with {daemon.proc.returncode}:\n{daemon.log()}")
        try:
            with Client(daemon.socket, timeout=5.0) as client:
                client.ping()
            return time.perf_counter() - daemon.started_at
        except DaemonUnavailable:
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"xaid did not answer within {timeout} s:\n{daemon.log()}"
                ) from None
            time.sleep(poll_s)


def scripted_start(env: dict[str, str]) -> tuple[float, int]:
    """(seconds to the first ping, rss_kib right after)."""
    with scratch_daemon(env, start=False) as daemon:
        seconds = first_ping(daemon)
        with daemon.client(timeout=10.0) as client:
            return seconds, int(client.status()["rss_kib"])


def llama_start(turn: bool) -> dict[str, float]:
    """With the embedded model: first ping, model ready (polling status), RSS loaded and after one turn."""
    with scratch_daemon(LLAMA_ENV, start=False) as daemon:
        out = {"first_ping": first_ping(daemon)}
        with daemon.client(timeout=300.0) as client:
            deadline = time.monotonic() + 300
            while (status := client.status())["model"][
                "state"
            ] == "loading" and time.monotonic() < deadline:
                time.sleep(0.01)
            out["model_ready"] = time.perf_counter() - daemon.started_at
            if status["model"]["state"] != "ready":
                raise RuntimeError(f"model not ready: {status['model']}\n{daemon.log()}")
            out["load_seconds"] = float(status["model"]["load_seconds"])
            out["rss_loaded"] = float(status["rss_kib"])
            if turn:
                client.agent_create("bench", name="Bench", config={"max_tokens": 8})
                session = client.session_open("bench")["session_id"]
                t0 = time.perf_counter()
                result = client.session_send(session, "Hi! I just got home from work.").finish()
                out["turn_s"] = time.perf_counter() - t0
                out["first_token_ms"] = float(result["timings"]["first_token_ms"] or 0.0)
                out["tokens"] = float(result["usage"]["completion_tokens"])
                out["rss_after_turn"] = float(client.status()["rss_kib"])
        return out


# --- the section --------------------------------------------------------------------------------

Samples = dict[str, dict[str, list[float]]]  # loop (or "floor") -> figure -> one value per round


def _measure_loops(plan: Plan) -> Samples:
    """Every loop-vs-loop figure, a fresh daemon each, loops alternating which goes first."""
    samples: Samples = {loop: {} for loop in [*LOOPS, "floor"]}

    def add(loop: str, values: dict[str, float]) -> None:
        for key, value in values.items():
            samples[loop].setdefault(key, []).append(value)

    steps: list[tuple[str, Callable[[DaemonProcess], dict[str, float]]]] = [
        ("ping latency", lambda d: ping_latency(d, plan.latency_warmup, plan.latency_count)),
        (
            "1 client",
            lambda d: _with_errors("rps_1", client_rps(d, 1, plan.one_client, plan.limit_s)),
        ),
        (
            "8 clients",
            lambda d: _with_errors(
                "rps_8", client_rps(d, plan.clients, plan.per_client, plan.limit_s)
            ),
        ),
        (
            "pipelined",
            lambda d: _with_errors(
                "rps_pipe", pipelined_rps(d, plan.pipelined, plan.inflight, plan.limit_s)
            ),
        ),
    ]
    for rnd in range(plan.rounds):
        order = list(LOOPS) if rnd % 2 == 0 else list(reversed(LOOPS))
        for name, step in steps:
            for loop in order:
                with scratch_daemon(LOOPS[loop]) as daemon:
                    progress(f"round {rnd + 1}/{plan.rounds}: {name} on {loop}")
                    add(loop, step(daemon))
        progress(f"round {rnd + 1}/{plan.rounds}: echo-server floor")
        with tempfile.TemporaryDirectory(prefix="xaid-perf-echo-") as tmp:
            add("floor", {"p50": echo_floor(Path(tmp), plan.latency_warmup, plan.latency_count)})
    for i in range(plan.ready_starts):
        for loop in list(LOOPS) if i % 2 == 0 else list(reversed(LOOPS)):
            progress(f"start {i + 1}/{plan.ready_starts} on {loop} (scripted provider)")
            seconds, rss = scripted_start(LOOPS[loop])
            add(loop, {"ready": seconds, "rss_idle": float(rss)})
    return samples


def _with_errors(key: str, result: Throughput) -> dict[str, float]:
    return {key: result.rps, f"{key}_errors": float(result.errors)}


def _paired(
    samples: Samples,
    key: str,
    figure: str,
    unit: str,
    aim: Aim | None = None,
    note: str = "",
    scale: float = 1.0,
) -> list[Row]:
    """One row per loop; the uvloop row carries the uvloop/asyncio ratio."""
    uv = median(samples["uvloop"].get(key, [])) * scale
    aio = median(samples["asyncio"].get(key, [])) * scale
    errors = sum(samples["uvloop"].get(f"{key}_errors", [])) + sum(
        samples["asyncio"].get(f"{key}_errors", [])
    )
    if errors:
        note = f"{note} {errors:.0f} requests failed.".strip()
    return [
        Row(
            f"{figure}, uvloop",
            uv,
            unit,
            aim,
            ratio(uv, aio),
            "asyncio",
            _spread(samples["uvloop"], key, note, scale),
        ),
        Row(f"{figure}, asyncio", aio, unit, aim, note=_spread(samples["asyncio"], key, "", scale)),
    ]


def _spread(samples: dict[str, list[float]], key: str, note: str, scale: float) -> str:
    """The note, plus the range over runs when there was more than one."""
    values = [v * scale for v in samples.get(key, [])]
    if len(values) < 2:
        return note
    lo, hi = (f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}" for v in (min(values), max(values)))
    return "; ".join(p for p in (note, f"range {lo}–{hi} over runs") if p)


def _starts(n: int) -> str:
    return f"median of {n} starts" if n > 1 else "one start"


def run(quick: bool) -> Section:
    plan = QUICK if quick else FULL
    load_before = os.getloadavg()[0]
    samples = _measure_loops(plan)
    codec = client_codec_us(max(plan.latency_count, 2000))
    llama: list[dict[str, float]] = []
    for i in range(plan.llama_starts):
        progress(f"start {i + 1}/{plan.llama_starts} with the embedded model (llama_cpp provider)")
        llama.append(llama_start(turn=i == 0))

    def lm(key: str) -> float:
        return median([s[key] for s in llama if key in s])

    rounds = (
        f"median of {plan.rounds} fresh daemons per loop"
        if plan.rounds > 1
        else "one fresh daemon per loop"
    )
    cores = os.cpu_count() or 0
    rows: list[Row] = []
    rows += _paired(
        samples,
        "p50",
        "ping round trip p50, 1 client",
        "µs",
        PING_P50_AIM,
        f"{plan.latency_count:,} sequential pings, blocking Client; {rounds}",
    )
    rows += _paired(samples, "p99", "ping round trip p99, 1 client", "µs")
    rows += _paired(
        samples,
        "server_p50",
        "ping inside the daemon p50",
        "µs",
        note="the daemon's own `stats` latency for ping: task start to reply written",
    )
    rows.append(
        Row(
            "floor: ping-sized frame to a uvloop echo server, p50",
            median(samples["floor"]["p50"]),
            "µs",
            note=_spread(
                samples["floor"],
                "p50",
                "raw socket, no codec, no daemon: what any Python server "
                "on this machine costs; measured once per round",
                1.0,
            ),
        )
    )
    rows.append(
        Row(
            "client library codec per ping",
            codec,
            "µs",
            note="encode the request + decode and route the reply, in-process",
        )
    )
    rows += _paired(
        samples,
        "rps_1",
        "requests/s, 1 client process",
        "req/s",
        note=f"{plan.one_client:,} sequential pings, stops after {plan.limit_s:.0f} s",
    )
    rows += _paired(
        samples,
        "rps_8",
        f"requests/s, {plan.clients} client processes",
        "req/s",
        RPS_8_AIM,
        f"{plan.per_client:,} pings each, spawn context; the {cores} cores are shared by the daemon and "
        f"the {plan.clients} clients",
    )
    rows += _paired(
        samples,
        "rps_pipe",
        f"requests/s, pipelined ({plan.inflight} in flight, 1 AsyncClient)",
        "req/s",
        note=f"{plan.pipelined:,} pings in asyncio.gather batches of {plan.inflight}; "
        "client on uvloop",
    )
    rows += _paired(
        samples,
        "ready",
        "start → READY (first answered ping), scripted",
        "s",
        READY_AIM,
        f"{_starts(plan.ready_starts)}; includes interpreter start and imports",
    )
    rows.append(
        Row(
            "start → READY (first answered ping), llama_cpp",
            lm("first_ping"),
            "s",
            READY_AIM,
            note=f"{_starts(plan.llama_starts)}, uvloop; the socket answers while the model loads",
        )
    )
    rows.append(
        Row(
            "start → model ready (status model.state), llama_cpp",
            lm("model_ready"),
            "s",
            note=f"status model.load_seconds: {lm('load_seconds'):.3f} s",
        )
    )
    rows += _paired(
        samples,
        "rss_idle",
        "idle RSS after start, scripted",
        "MiB",
        scale=1 / 1024,
        note=f"status rss_kib right after the first ping; {_starts(plan.ready_starts)}",
    )
    rows.append(
        Row(
            "RSS with the embedded model loaded",
            lm("rss_loaded") / 1024,
            "MiB",
            note="SmolLM2-135M Q4_1, default n_ctx; after model.state is ready",
        )
    )
    if llama and "rss_after_turn" in llama[0]:
        first = llama[0]
        rows.append(
            Row(
                "RSS after one session.send turn",
                first["rss_after_turn"] / 1024,
                "MiB",
                note=f"agent config max_tokens 8: {first['tokens']:.0f} tokens in {first['turn_s']:.2f} s, "
                f"first token after {first['first_token_ms']:.0f} ms",
            )
        )
    notes = [
        f"Load average (1 min) just before the run: {load_before:.2f} (other work on the machine shifts the absolute "
        "figures; the benchmark itself then adds about 2).",
        "Ratio = uvloop value / asyncio value from the same run: below 1 is better for times and sizes, "
        "above 1 for requests per second.",
        f"This machine has {cores} cores: the client processes compete with the daemon for them, so the "
        "multi-client figures measure the pair, not the daemon alone.",
        f"The pipelined figure keeps {plan.inflight} pings in flight on one connection: server.max_inflight "
        "defaults to 32, and more in flight get 'overloaded' errors.",
    ]
    return Section("Daemon: latency, throughput, start-up, memory", rows, notes)
