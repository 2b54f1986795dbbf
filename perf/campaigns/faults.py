"""Area ``faults``: load, crashes, a full disk, agent isolation, peer access and param fuzzing.

Each scenario drives a real daemon (``testkit.DaemonProcess``, scripted provider) and stops
by itself: every loop is bounded in count and in time. The table says what was tried, how many
times, which errors the clients saw, and what was lost; the answer in the lost rows must be 0.
Defects found on the way (a reply ``internal``, a daemon that exits, a consolidation that never
happens) are counted in the rows and described in the section's notes.

The short versions of the same checks run in CI: tests/xaid/test_faults.py and
tests/xaid/test_fuzz_params.py. The second round of attacks (issue 14) is its own area, perf.campaigns.hardening.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import random
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import apsw
from xaiclient import AsyncClient, Client, XaiError

from testkit import DaemonProcess
from testkit.faults import (
    REFUSED,
    Raw,
    check_db,
    fill,
    intrude,
    read_only,
    session_to_consolidate,
    tmpfs,
    wait_memory_ready,
)
from testkit.fuzz import DOCUMENTED, FUZZ_AGENTS, fuzz_method, numbers, past_i64, substitute

from ..kit import (
    DAY,
    HOUR,
    ZERO,
    Aim,
    Outcome,
    Row,
    Section,
    fmt_counts,
    progress,
    running,
    scratch,
)


@dataclass(frozen=True)
class Sizes:
    load_clients: int
    load_seconds: float
    crash_rounds: int
    fuzz_per_method: int
    isolation_agents: int
    access_attempts: int


FULL = Sizes(
    load_clients=50,
    load_seconds=60.0,
    crash_rounds=20,
    fuzz_per_method=300,
    isolation_agents=6,
    access_attempts=50,
)
QUICK = Sizes(
    load_clients=10,
    load_seconds=8.0,
    crash_rounds=4,
    fuzz_per_method=30,
    isolation_agents=3,
    access_attempts=10,
)


# --- helpers ---------------------------------------------------------------------------------------


def is_subsequence(wanted: list[str], have: list[str]) -> bool:
    it = iter(have)
    return all(any(w == h for h in it) for w in wanted)


# --- load -------------------------------------------------------------------------------------------

LOAD_OPS = (
    "ping",
    "status",
    "agent.get",
    "session.send",
    "session.history",
    "memory.search",
    "mood.get",
)
LOAD_WEIGHTS = (15, 10, 15, 20, 15, 10, 15)
LOAD_AGENTS = 10
BACK_PRESSURE = {"overloaded"}
RSS_BOUND = 0.20  # RSS after warm-up may not grow more than this over its warm-up level
QUERIES = ("tea", "where does my sister live", "work", "Kyoto", "tired", "我喜欢猫")


@dataclass
class LoadResult:
    requests: collections.Counter[str] = field(default_factory=collections.Counter)
    errors: collections.Counter[str] = field(default_factory=collections.Counter)  # "method: code"
    unexpected: collections.Counter[str] = field(default_factory=collections.Counter)
    acked: dict[str, tuple[list[str], list[str]]] = field(
        default_factory=dict
    )  # sid -> (user texts, replies)
    rss: list[tuple[float, int]] = field(default_factory=list)  # (seconds since start, KiB)
    lost: int = 0
    checked: int = 0
    server_requests: int = 0
    alive: bool = True

    @property
    def total(self) -> int:
        return sum(self.requests.values()) + sum(self.errors.values())


async def _load_client(i: int, path: Path, stop_at: float, out: LoadResult, seed: int) -> None:
    rng = random.Random(seed * 1000 + i)
    agent = f"load{i % LOAD_AGENTS}"
    client = AsyncClient(path, client_name=f"faults-load-{i}")
    try:
        await asyncio.wait_for(client.connect(), 30)
        sid = (await client.call("session.open", agent_id=agent))["session_id"]
        users: list[str] = []
        replies: list[str] = []
        out.acked[sid] = (users, replies)
        n = 0
        while time.monotonic() < stop_at and n < 1_000_000:
            n += 1
            op = rng.choices(LOAD_OPS, LOAD_WEIGHTS)[0]
            try:
                if op == "session.send":
                    text = f"client {i} turn {n}: I like {rng.choice(['tea', 'rain', 'cats', 'jazz'])} today"
                    stream = await client.stream("session.send", session_id=sid, text=text)
                    result = await asyncio.wait_for(stream.finish(), 60)
                    users.append(text)
                    replies.append(result["text"])
                elif op in ("agent.get", "mood.get"):
                    await asyncio.wait_for(client.call(op, agent_id=agent), 60)
                elif op == "session.history":
                    await asyncio.wait_for(
                        client.call(op, session_id=sid, limit=rng.choice([1, 20, 50])), 60
                    )
                elif op == "memory.search":
                    await asyncio.wait_for(
                        client.call(op, agent_id=agent, query=rng.choice(QUERIES)), 60
                    )
                else:
                    await asyncio.wait_for(client.call(op), 60)
                out.requests[op] += 1
            except XaiError as exc:
                out.errors[f"{op}: {exc.code}"] += 1
                if exc.code not in BACK_PRESSURE:
                    out.unexpected[f"{op}: {exc.code}"] += 1
                if exc.code == "unavailable":
                    return
                await asyncio.sleep(
                    0.005
                )  # back off a little, as a client should after 'overloaded'
            except TimeoutError:
                out.unexpected[f"{op}: no reply in 60 s"] += 1
                return
    except (XaiError, OSError, TimeoutError) as exc:
        out.unexpected[f"connect: {type(exc).__name__}"] += 1
    finally:
        await client.close()


async def _rss_sampler(path: Path, started: float, stop_at: float, out: LoadResult) -> None:
    async with AsyncClient(path, client_name="faults-rss") as client:
        while time.monotonic() < stop_at:
            out.rss.append((time.monotonic() - started, (await client.status())["rss_kib"]))
            await asyncio.sleep(0.5)


async def _load(path: Path, clients: int, seconds: float, out: LoadResult, seed: int) -> None:
    started = time.monotonic()
    stop_at = started + seconds
    await asyncio.gather(
        _rss_sampler(path, started, stop_at, out),
        *(_load_client(i, path, stop_at, out, seed) for i in range(clients)),
    )


def run_load(daemon: DaemonProcess, clients: int, seconds: float, seed: int = 1) -> LoadResult:
    """``clients`` asyncio clients in this process, mixed calls for ``seconds``; then every
    acknowledged message is looked up in its session's history."""
    out = LoadResult()
    with daemon.client() as c:
        for a in range(LOAD_AGENTS):
            c.agent_create(f"load{a}")
            sid = c.session_open(f"load{a}")["session_id"]
            c.session_send(sid, "My sister Anna lives in Kyoto and I work at Globex.").finish()
            c.session_close(sid, wait=True)  # something for memory.search to find
    try:
        import uvloop  # the clients need a core too: the faster loop leaves more to the daemon

        runner: Callable[..., Any] = uvloop.run
    except ImportError:  # pragma: no cover
        runner = asyncio.run
    runner(_load(daemon.socket, clients, seconds, out, seed))
    out.alive = daemon.proc is not None and daemon.proc.poll() is None
    with daemon.client() as c:
        for users, replies in out.acked.values():
            out.checked += len(users) + len(replies)
        for sid, (users, replies) in out.acked.items():
            messages = c.session_history(sid)["messages"]
            stored_users = [m["text"] for m in messages if m["role"] == "user"]
            stored_replies = [m["text"] for m in messages if m["role"] == "assistant"]
            have = set(stored_users) | set(stored_replies)
            out.lost += sum(1 for t in [*users, *replies] if t not in have)
            if not (
                is_subsequence(users, stored_users) and is_subsequence(replies, stored_replies)
            ):
                out.lost += 1  # everything is there but out of order: count the session once
        out.server_requests = sum(m["calls"] for m in c.stats()["methods"].values())
    return out


def rss_growth(samples: list[tuple[float, int]], warmup_s: float) -> tuple[float, int, int]:
    """(growth after warm-up as a fraction, warm-up level KiB, highest later KiB)."""
    base = [kib for t, kib in samples if t <= warmup_s]
    later = [kib for t, kib in samples if t > warmup_s]
    if not base or not later:
        return 0.0, 0, 0
    level = base[-1]
    return (max(later) - level) / level, level, max(later)


def load_scenario(sizes: Sizes) -> Outcome:
    out = Outcome()
    with scratch("load") as root, running(DaemonProcess(root / "d").start()) as daemon:
        progress(f"faults: load, {sizes.load_clients} clients for {sizes.load_seconds:.0f} s")
        result = run_load(daemon, sizes.load_clients, sizes.load_seconds)
    warmup = sizes.load_seconds / 5
    growth, level, peak = rss_growth(result.rss, warmup)
    figure = f"load: {sizes.load_clients} clients × {sizes.load_seconds:.0f} s, mixed calls"
    out.tried(
        figure,
        result.total,
        "requests",
        f"{fmt_counts(result.errors)}; of these not the documented back-pressure ('overloaded'): "
        f"{fmt_counts(result.unexpected)}" + ("" if result.alive else "; THE DAEMON DIED"),
    )
    out.lost(
        "load: acknowledged messages lost",
        result.lost,
        "messages",
        f"{result.checked:,} acknowledged user messages and replies looked up in {len(result.acked)} "
        f"sessions' history after the run",
    )
    out.rows.append(
        Row(
            "load: RSS growth after warm-up",
            round(growth * 100, 1),
            "%",
            aim=Aim("<", RSS_BOUND * 100),
            note=f"status rss_kib every 0.5 s; warm-up = first {warmup:.0f} s (embedding model and "
            f"caches); {level / 1024:.0f} MiB at its end, at most {peak / 1024:.0f} MiB after, "
            f"over {result.total:,} requests ({result.server_requests:,} counted by the daemon)",
        )
    )
    if result.unexpected or not result.alive:
        out.notes.append(f"load: unexpected errors {fmt_counts(result.unexpected)}")
    return out


# --- crash ------------------------------------------------------------------------------------------

CRASH_LINES = (
    "I met Dr. Chen at 3pm about the Osaka trip.",
    "My sister Anna lives in Kyoto.",
    "I'm so tired today, the project crashed.",
    "I work at Globex now.",
    "我喜欢猫，下周五要去上海。",
    "just chatting about the weather",
)


@dataclass
class Ledger:
    """What the clients were told was stored, per session."""

    kind: str  # "ingest" or "send"
    users: list[str] = field(default_factory=list)
    replies: list[str] = field(default_factory=list)
    in_flight: list[str] = field(default_factory=list)  # sent, no reply when the daemon died


@dataclass
class CrashResult:
    kills: int = 0
    startup_kills: int = 0
    kills_with_pending_jobs: int = 0
    acked_messages: int = 0
    lost: int = 0
    lost_sessions: int = 0
    partial_batches: int = 0
    duplicated_episodes: int = 0
    unfinished_jobs: int = 0
    failed_jobs: int = 0
    integrity_failures: int = 0
    episodes: int = 0
    client_errors: collections.Counter[str] = field(default_factory=collections.Counter)
    problems: list[str] = field(default_factory=list)


def _writer(
    daemon: DaemonProcess,
    kind: str,
    ledgers: dict[str, Ledger],
    lock: threading.Lock,
    stop: threading.Event,
    result: CrashResult,
    tag: str,
    rng: random.Random,
) -> None:
    """Writes until the daemon dies (at most 120 writes, 100 a second): three sessions of a few
    messages, each closed without waiting so that consolidation jobs are pending, then one more that
    stays open."""
    deadline = time.monotonic() + 30
    writes = 0
    try:
        with daemon.client(timeout=30) as c:
            for s in range(4):
                agent = f"crash{s % 3}"
                sid = c.session_open(agent)["session_id"]
                ledger = Ledger(kind)
                with lock:
                    ledgers[sid] = ledger
                for m in range(rng.randint(3, 12) if s < 3 else 120):
                    writes += 1
                    if stop.is_set() or time.monotonic() > deadline or writes > 120:
                        return
                    time.sleep(0.01)
                    if kind == "ingest":
                        batch = [
                            f"{tag} {sid} m{m}.{b}: {rng.choice(CRASH_LINES)}"
                            for b in range(rng.randint(1, 4))
                        ]
                        ledger.in_flight = batch
                        c.session_ingest(sid, [{"role": "user", "text": t} for t in batch])
                        ledger.users += batch
                    else:
                        text = f"{tag} {sid} t{m}: {rng.choice(CRASH_LINES)}"
                        ledger.in_flight = [text]
                        reply = c.session_send(sid, text).finish()
                        ledger.users.append(text)
                        ledger.replies.append(reply["text"])
                    ledger.in_flight = []
                if s < 3:
                    c.session_close(sid)
    except (
        XaiError
    ) as exc:  # the daemon died under us: expected, and the only way out before the end
        result.client_errors[exc.code] += 1


def _verify(
    daemon: DaemonProcess, ledgers: dict[str, Ledger], result: CrashResult, round_no: int
) -> None:
    """After a restart: every acknowledged message is there, every session consolidates once."""
    with daemon.client(timeout=60) as c:
        for sid, ledger in ledgers.items():
            try:
                messages = c.session_history(sid)["messages"]
            except XaiError as exc:
                result.lost_sessions += 1
                result.lost += len(ledger.users) + len(ledger.replies)
                result.problems.append(f"round {round_no}: history of {sid}: {exc}")
                continue
            users = [m["text"] for m in messages if m["role"] == "user"]
            replies = [m["text"] for m in messages if m["role"] == "assistant"]
            missing = len([t for t in ledger.users if t not in set(users)])
            missing += len([t for t in ledger.replies if t not in set(replies)])
            result.lost += missing
            extra = users[len(ledger.users) :]
            if users[: len(ledger.users)] != ledger.users and not missing:
                result.lost += 1
                result.problems.append(f"round {round_no}: {sid}: messages out of order")
            if extra and extra != ledger.in_flight:
                result.partial_batches += 1  # session.ingest is all or none
                result.problems.append(
                    f"round {round_no}: {sid}: stored {extra!r}, in flight {ledger.in_flight!r}"
                )
            ledger.users, ledger.in_flight = (
                users,
                [],
            )  # what is stored now is what later rounds must find
            ledger.replies = replies
            try:  # closed by us, or still open after the kill: either way it must consolidate once
                closed = c.session_close(sid, wait=True)
                result.episodes += closed["episode_id"] is not None
            except XaiError as exc:
                result.client_errors[f"session.close wait: {exc.code}"] += 1
                result.problems.append(f"round {round_no}: close {sid} with wait: {exc}")
    check = check_db(daemon.db_path)
    result.duplicated_episodes = max(result.duplicated_episodes, check.duplicated_episodes)
    result.unfinished_jobs = max(result.unfinished_jobs, check.unfinished_jobs)
    result.failed_jobs = max(result.failed_jobs, check.failed_jobs)
    if check.integrity != "ok":
        result.integrity_failures += 1
        result.problems.append(f"round {round_no}: integrity_check: {check.integrity}")


def run_crash(root: Path, rounds: int, seed: int = 7) -> CrashResult:
    """``rounds`` SIGKILLs at random moments: while clients ingest, send and close (so that
    consolidation jobs are pending), or right after a restart while the jobs left by the previous
    kill resume. After each restart everything acknowledged so far is checked."""
    rng = random.Random(seed)
    result = CrashResult()
    daemon = DaemonProcess(root / "d")
    all_ledgers: dict[str, Ledger] = {}
    try:
        daemon.start()
        with daemon.client() as c:
            for a in range(3):
                c.agent_create(f"crash{a}")
        for r in range(rounds):
            startup_kill = r > 0 and rng.random() < 0.3
            if startup_kill:
                time.sleep(rng.uniform(0.0, 0.4))  # the previous round's jobs are resuming now
                result.startup_kills += 1
            else:
                if r > 0:
                    _verify(daemon, all_ledgers, result, r)
                fresh: dict[str, Ledger] = {}
                lock = threading.Lock()
                stop = threading.Event()
                threads = [
                    threading.Thread(
                        target=_writer,
                        args=(
                            daemon,
                            kind,
                            fresh,
                            lock,
                            stop,
                            result,
                            f"r{r}w{w}",
                            random.Random(rng.random()),
                        ),
                    )
                    for w, kind in enumerate(("ingest", "ingest", "send"))
                ]
                for t in threads:
                    t.start()
                time.sleep(rng.uniform(0.05, 2.0))
            daemon.kill()
            result.kills += 1
            if not startup_kill:
                stop.set()
                for t in threads:
                    t.join(30)
                all_ledgers.update(fresh)
                result.acked_messages += sum(len(v.users) + len(v.replies) for v in fresh.values())
            conn = read_only(daemon.db_path)
            try:
                pending = conn.execute("SELECT count(*) FROM jobs WHERE state = 'pending'").get
            finally:
                conn.close()
            result.kills_with_pending_jobs += pending > 0
            daemon.start()
        _verify(daemon, all_ledgers, result, rounds)
        daemon.stop()
        conn = apsw.Connection(str(daemon.db_path))
        try:
            if conn.execute("PRAGMA integrity_check").get != "ok":
                result.integrity_failures += 1
        finally:
            conn.close()
        check = check_db(daemon.db_path)
        result.unfinished_jobs = max(result.unfinished_jobs, check.unfinished_jobs)
        result.duplicated_episodes = max(result.duplicated_episodes, check.duplicated_episodes)
    finally:
        daemon.kill()
    return result


def crash_scenario(sizes: Sizes) -> Outcome:
    out = Outcome()
    with scratch("crash") as root:
        progress(f"faults: crash, {sizes.crash_rounds} SIGKILLs")
        r = run_crash(root, sizes.crash_rounds)
    out.tried(
        "crash: SIGKILL during ingest, turns and consolidation",
        r.kills,
        "kills",
        f"clients cut off at the kill: {fmt_counts(r.client_errors)} (expected: the daemon is gone); "
        f"consolidation jobs pending at {r.kills_with_pending_jobs} of the {r.kills} kills; {r.startup_kills} "
        f"kills 0-0.4 s after a restart, while the jobs left by the previous kill resumed",
    )
    out.lost(
        "crash: acknowledged messages lost",
        r.lost,
        "messages",
        f"{r.acked_messages:,} acknowledged messages (user messages and replies) looked up after every restart; "
        f"lost sessions {r.lost_sessions}, ingest batches stored in part {r.partial_batches}",
    )
    out.lost(
        "crash: duplicated episodes, unfinished jobs, integrity failures",
        r.duplicated_episodes + r.unfinished_jobs + r.integrity_failures,
        "problems",
        f"in the DB after each restart, once every session was closed again with wait=true "
        f"({r.episodes:,} episode replies): sessions with > 1 episode {r.duplicated_episodes}, jobs not done "
        f"{r.unfinished_jobs} (failed {r.failed_jobs}), PRAGMA integrity_check not ok {r.integrity_failures}",
    )
    out.notes += [f"crash: {p}" for p in r.problems[:10]]
    return out


# --- disk full --------------------------------------------------------------------------------------


@dataclass
class DiskResult:
    writes_refused: int = 0
    writes_accepted_while_full: int = 0
    error_messages: set[str] = field(default_factory=set)
    reads_ok: int = 0
    reads_failed: int = 0
    lost: int = 0
    integrity_failures: int = 0
    recovered: list[str] = field(default_factory=list)
    not_recovered: list[str] = field(default_factory=list)
    daemon_died: int = 0
    codes: collections.Counter[str] = field(default_factory=collections.Counter)
    unclear: int = 0  # write errors that are not storage_error naming the disk


class DiskWriter:
    """Ingests into the disk agent's sessions, a new one every 30 messages (so each history fits
    in one frame), and remembers what was acknowledged."""

    def __init__(self, c: Client, out: DiskResult):
        self.c, self.out = c, out
        self.acked: dict[str, list[str]] = {}
        self.sid = ""

    def write(self, text: str) -> bool:
        try:
            if not self.sid or len(self.acked[self.sid]) >= 30:
                self.sid = self.c.session_open("disk")[
                    "session_id"
                ]  # a write too: it may be refused
                self.acked[self.sid] = []
            self.c.session_ingest(self.sid, [{"role": "user", "text": text}])
        except XaiError as exc:
            self.out.codes[exc.code] += 1
            self.out.error_messages.add(exc.message)
            if exc.code != "storage_error" or "disk" not in exc.message:
                self.out.unclear += 1
            return False
        self.acked[self.sid].append(text)
        return True

    def fill_until_refused(self, label: str, size: int, tries: int) -> None:
        """Writes until one is refused (some fit in blocks the WAL already owns), then 3 more."""
        for i in range(tries):
            if not self.write(f"{label} {i}: " + "x" * size):
                self.out.writes_refused += 1
                break
            self.out.writes_accepted_while_full += 1
        for i in range(3):
            self.out.writes_refused += not self.write(f"{label}, again {i}")

    def reads(self) -> None:
        for method, params in (
            ("ping", {}),
            ("status", {}),
            ("agent.get", {"agent_id": "disk"}),
            ("session.list", {"agent_id": "disk"}),
            ("session.history", {"session_id": self.sid}),
            ("memory.search", {"agent_id": "disk", "query": "Anna"}),
            ("memory.list", {"agent_id": "disk", "kind": "episode"}),
            ("mood.get", {"agent_id": "disk"}),
        ):
            try:
                self.c.call(method, **params)
                self.out.reads_ok += 1
            except XaiError as exc:
                self.out.reads_failed += 1
                self.out.codes[f"{method}: {exc.code}"] += 1

    def intact(self, db: Path, episodes: list[Any]) -> None:
        for sid, acked in self.acked.items():
            stored = {m["text"] for m in self.c.session_history(sid)["messages"]}
            self.out.lost += sum(1 for t in acked if t not in stored)
        now = {
            e["episode_id"]: e["summary"]
            for e in self.c.memory_list("disk", kind="episode")["items"]
        }
        self.out.lost += sum(1 for e in episodes if now.get(e["episode_id"]) != e["summary"])
        self.out.integrity_failures += check_db(db).integrity != "ok"

    def recovered(self, label: str) -> None:
        (self.out.recovered if self.write(f"after {label}") else self.out.not_recovered).append(
            label
        )


def run_disk_full(root: Path, size: str = "8m", fills: int = 2) -> DiskResult:
    """A tmpfs as the state directory, filled by a filler file (deleted afterwards), ``fills``
    times, then by the database itself (the tmpfs is then remounted bigger). Each time: writes fail
    with a storage_error naming the disk, reads go on, stored data stays, writes come back."""
    out = DiskResult()
    with tmpfs(root / "state", size) as state, running(DaemonProcess(root).start()) as daemon:
        with daemon.client(timeout=60) as c:
            wait_memory_ready(
                c
            )  # its first write happens when it has loaded: see the start-up defect
            c.agent_create("disk")
            first = c.session_open("disk")["session_id"]
            c.session_send(first, "My sister Anna lives in Kyoto and I work at Globex.").finish()
            c.session_close(first, wait=True)
            episodes = c.memory_list("disk", kind="episode")["items"]
            w = DiskWriter(c, out)
            for i in range(20):
                w.write(f"before the disk filled, message {i}")
            for n in range(fills):
                filler = fill(state)
                w.fill_until_refused(f"filler {n + 1}", 20_000, 200)
                w.reads()
                w.intact(daemon.db_path, episodes)
                filler.unlink()
                w.recovered(f"filler file {n + 1} deleted")
            w.fill_until_refused("the database fills the disk", 20_000, 1_000)
            w.reads()
            w.intact(daemon.db_path, episodes)
            subprocess.run(["mount", "-o", "remount,size=64m", str(state)], check=True)
            w.recovered("tmpfs remounted with size=64m")
            try:
                turn = c.session_open("disk")["session_id"]
                reply = c.session_send(turn, "and a turn after the recovery").finish()
                w.acked[turn] = ["and a turn after the recovery", reply["text"]]
                c.session_close(turn, wait=True)
            except XaiError as exc:
                out.not_recovered.append(f"a turn and its consolidation after the remount: {exc}")
            w.intact(daemon.db_path, episodes)
        out.daemon_died += daemon.proc is None or daemon.proc.poll() is not None
        daemon.stop()
        conn = apsw.Connection(str(daemon.db_path))
        try:
            out.integrity_failures += conn.execute("PRAGMA integrity_check").get != "ok"
        finally:
            conn.close()
    return out


@dataclass
class Probe:
    label: str
    close: str
    alive: bool
    consolidated: bool | None


def consolidation_on_full_disk(root: Path, leave: int) -> Probe:
    """Close a session (that write is small and fits) while the disk has ``leave`` bytes left, so
    that its consolidation (larger) runs out of space; then free the disk and ask again."""
    with tmpfs(root / "state", "4m") as state, running(DaemonProcess(root).start()) as daemon:
        with daemon.client(timeout=60) as c:
            sid = session_to_consolidate(c)
            filler = fill(state, leave)
            try:
                c.session_close(sid, wait=True)
                close = "ok"
            except XaiError as exc:
                close = exc.code
        time.sleep(0.3)
        alive = daemon.proc is not None and daemon.proc.poll() is None
        filler.unlink()
        if not alive:
            daemon.start()  # the job is still pending in the DB, and must now finish
        with daemon.client(timeout=60) as c:
            try:
                consolidated = c.session_close(sid, wait=True)["episode_id"] is not None
            except XaiError:
                consolidated = False
    return Probe(f"{leave // 1024} KiB left", close, alive, consolidated)


def start_on_full_disk(root: Path) -> str:
    """Stop the daemon cleanly, fill the disk, start it again: can it still serve reads?"""
    with tmpfs(root / "state", "4m") as state, running(DaemonProcess(root)) as daemon:
        daemon.start()
        with daemon.client() as c:
            wait_memory_ready(c)
            c.agent_create("a")
        daemon.stop()
        fill(state)
        try:
            daemon.start()
        except RuntimeError as exc:
            last = [line for line in str(exc).splitlines() if line.strip()][-1:]
            return f"does not start: {last[0] if last else exc}"
        with daemon.client() as c:
            return "starts and answers" if c.agent_get("a") else "starts, but the agent is gone"


def size_limit_before_vectors(root: Path) -> str:
    """The embedding model missing for a while (no vector table yet), the database filled up to
    storage.max_db_mb, then a start with the model back: does the daemon stay up? No root needed."""
    daemon = DaemonProcess(
        root,
        env={"XAID_STORAGE_MAX_DB_MB": "2", "XAID_MEMORY_EMBED_MODEL": str(root / "missing.onnx")},
    )
    with running(daemon.start()), daemon.client() as c:
        c.agent_create("a")
        sid = c.session_open("a")["session_id"]
        for i in range(200):
            try:
                c.session_ingest(sid, [{"role": "user", "text": f"{i} " + "x" * 50_000}])
            except XaiError:
                break
    del daemon.env["XAID_MEMORY_EMBED_MODEL"]
    try:
        daemon.start()
    except RuntimeError:  # it died before its first ping: the same defect, only faster
        errors = [line.strip(" |") for line in daemon.log().splitlines() if "Error:" in line]
        return f"exits at start: {errors[-1] if errors else '?'}"
    with running(daemon):
        deadline = time.monotonic() + 30
        while (
            time.monotonic() < deadline and daemon.proc is not None and daemon.proc.poll() is None
        ):
            with contextlib.suppress(XaiError), daemon.client() as c:
                if c.stats()["memory"]["embedder"] != "loading":
                    time.sleep(1)  # the vector table is written right after the model loads
                    break
            time.sleep(0.05)
        if daemon.proc is not None and daemon.proc.poll() is not None:
            errors = [line.strip(" |") for line in daemon.log().splitlines() if "Error:" in line]
            return f"exits once the embedding model has loaded: {errors[-1] if errors else '?'}"
        return "stays up"


def disk_scenario(sizes: Sizes) -> Outcome:
    out = Outcome()
    with scratch("size-limit") as root:
        limit = size_limit_before_vectors(root / "d")
    out.tried(
        "size limit: storage.max_db_mb reached before the vector table exists, then a start",
        1,
        "starts",
        limit,
    )
    if limit != "stays up":
        out.notes.append(
            f"DEFECT size limit: a daemon whose database is at storage.max_db_mb {limit}; it does so at "
            "every start (the vector table is created after the embedding model loads, in the root "
            "task group), and the same happens on a full disk."
        )
    if os.geteuid() != 0:
        out.notes.append("disk full: skipped, mounting a tmpfs needs root")
        return out
    with scratch("disk") as root:
        progress("faults: disk full")
        r = run_disk_full(root, fills=2 if sizes is FULL else 1)
    out.tried(
        "disk full: tmpfs state dir filled by a filler file, then by the database",
        r.writes_refused,
        "refused writes",
        f"{fmt_counts(r.codes)}; message: {' / '.join(sorted(r.error_messages)) or '-'}; "
        f"{r.writes_accepted_while_full} writes still fit in the WAL after a fill; write errors without a "
        f"clear disk message {r.unclear}; reads while full ok {r.reads_ok}, failed {r.reads_failed}; "
        f"recovered after: {', '.join(r.recovered) or '-'}"
        + (f"; NOT recovered after: {', '.join(r.not_recovered)}" if r.not_recovered else "")
        + ("; THE DAEMON DIED" if r.daemon_died else ""),
    )
    out.lost(
        "disk full: stored data lost or damaged",
        r.lost + r.integrity_failures,
        "items",
        "every acknowledged message and the earlier episode compared while full and after each recovery; "
        f"PRAGMA integrity_check not ok {r.integrity_failures}",
    )
    probes: list[Probe] = []
    with scratch("disk-probe") as root:
        progress("faults: disk full during a consolidation, and a start on a full disk")
        for leave in (0, 16 * 1024, 32 * 1024, 64 * 1024, 128 * 1024):
            probes.append(consolidation_on_full_disk(root / f"left-{leave}", leave))
        start = start_on_full_disk(root / "restart")
    died = [p.label for p in probes if not p.alive]
    never = [p.label for p in probes if not p.consolidated]
    out.tried(
        "disk full: session.close while a few KiB are left, then space freed",
        len(probes),
        "runs",
        "; ".join(
            f"{p.label}: close {p.close}, daemon {'up' if p.alive else 'EXITED'}, "
            f"episode after freeing {'yes' if p.consolidated else 'NO'}"
            for p in probes
        ),
    )
    out.lost(
        "disk full: daemon exited, or a session never consolidated",
        len(set(died) | set(never)),
        "runs",
        "the daemon must stay up, and a session whose consolidation hit the full disk must still get its "
        "episode once space is back (closed again with wait=true; restarted first if it had exited)",
    )
    out.tried("disk full: daemon stopped cleanly, disk filled, daemon started", 1, "starts", start)
    if died:
        out.notes.append(
            f"DEFECT disk full: the daemon exits when a consolidation job fails on a full disk and "
            f"marking the job 'failed' fails too ({', '.join(died)})."
        )
    if never:
        out.notes.append(
            f"DEFECT disk full: a consolidation that failed on a full disk is marked 'failed' and "
            f"never retried; its session never gets an episode or facts ({', '.join(never)})."
        )
    if not start.startswith("starts and"):
        out.notes.append(
            f"DEFECT disk full: a daemon started on a full disk {start}; nothing can be read."
        )
    return out


# --- isolation --------------------------------------------------------------------------------------

SHARED_LINES = (
    "I work at Globex.",
    "My sister Anna lives in Kyoto.",
    "I like tea and long walks.",
    "I'm so tired today, the project crashed.",
)
SECRET_WORDS = (
    "pelican",
    "zanzibar",
    "quokka",
    "marzipan",
    "obsidian",
    "tamarind",
    "fjord",
    "kumquat",
)


@dataclass
class IsolationResult:
    checks: int = 0
    leaks: list[str] = field(default_factory=list)


def run_isolation(client: Client, agents: int, day0: int = 1_764_536_400_000) -> IsolationResult:
    """Several agents, told the same shared sentences and one secret each; no agent's search,
    export, persona, memory.get or turn context (explain) may show another's secret."""
    out = IsolationResult()
    names = [f"iso{i}" for i in range(agents)]
    secrets = {a: f"{SECRET_WORDS[i % len(SECRET_WORDS)]}{i}" for i, a in enumerate(names)}
    day = DAY
    for a in names:
        client.agent_create(a, name=a.upper())
        for s in range(2):
            ts = day0 + s * day
            sid = client.session_open(a, ts=ts)["session_id"]
            lines = [
                *SHARED_LINES,
                f"My locker code word is {secrets[a]}.",
                f"My dog {secrets[a].title()} likes tea.",
            ]
            for i, line in enumerate(lines):
                client.session_send(sid, line, ts=ts + i * 60_000).finish()
            client.session_close(sid, ts=ts + HOUR, wait=True)
    own_ids: dict[str, set[str]] = {}
    for a in names:
        facts = client.call("memory.list", agent_id=a, kind="fact", status="all", limit=1000)[
            "items"
        ]
        episodes = client.call("memory.list", agent_id=a, kind="episode", limit=1000)["items"]
        own_ids[a] = {f"fact:{f['fact_id']}" for f in facts} | {
            f"episode:{e['episode_id']}" for e in episodes
        }
    when = day0 + 3 * day

    def look(a: str, what: str, payload: Any) -> None:
        text = json.dumps(payload, ensure_ascii=False).lower()
        for other, secret in secrets.items():
            out.checks += 1
            if other != a and secret.lower() in text:
                out.leaks.append(f"{what} of {a} shows {other}'s {secret!r}")

    for a in names:
        queries = [*secrets.values(), *SHARED_LINES, "locker code word", "dog", ""]
        for q in queries:
            hits = client.call(
                "memory.search", agent_id=a, query=q, k=200, budget_tokens=100_000, ts=when
            )["items"]
            look(a, f"memory.search {q!r}", hits)
            for h in hits:
                out.checks += 1
                if h["kind"] != "highlight" and f"{h['kind']}:{h['id']}" not in own_ids[a]:
                    out.leaks.append(
                        f"memory.search of {a} returned {h['kind']}:{h['id']}, not its own"
                    )
        look(a, "memory.export", client.call("memory.export", agent_id=a))
        look(a, "memory.persona", client.call("memory.persona", agent_id=a))
        look(
            a,
            "memory.list",
            client.call("memory.list", agent_id=a, kind="fact", status="all", limit=1000),
        )
        sid = client.session_open(a, ts=when)["session_id"]
        context = client.session_send(
            sid, "What is my locker code word, and how is my dog?", ts=when, explain=True
        ).finish()["context"]
        look(a, "turn context (explain)", context)
        for other in names:
            if other == a:
                continue
            for mid in sorted(own_ids[other] - own_ids[a])[:5]:
                out.checks += 1
                try:
                    got = client.call("memory.get", agent_id=a, id=mid)
                    out.leaks.append(f"memory.get of {a} returned {other}'s {mid}: {str(got)[:80]}")
                except XaiError as exc:
                    if exc.code != "not_found":
                        out.leaks.append(f"memory.get of {a} for {other}'s {mid}: {exc.code}")

    # memory.forget by another agent's secret must not reach that agent's memory
    def own_hits(a: str) -> list[tuple[str, int]]:
        found = client.call("memory.search", agent_id=a, query=secrets[a], k=200, ts=when)["items"]
        return sorted((h["kind"], h["id"]) for h in found)

    kept = {a: own_hits(a) for a in names}
    for i, a in enumerate(names):
        client.call("memory.forget", agent_id=a, query=secrets[names[(i + 1) % len(names)]])
    for a in names:
        out.checks += 1
        if not kept[a] or own_hits(a) != kept[a]:
            out.leaks.append(
                f"{a}'s memory of its own secret changed after another agent's memory.forget"
            )
    return out


def isolation_scenario(sizes: Sizes) -> Outcome:
    out = Outcome()
    with (
        scratch("iso") as root,
        running(DaemonProcess(root / "d").start()) as daemon,
        daemon.client() as c,
    ):
        progress(f"faults: isolation, {sizes.isolation_agents} agents")
        r = run_isolation(c, sizes.isolation_agents)
    out.tried(
        f"isolation: {sizes.isolation_agents} agents with shared words and one secret each",
        r.checks,
        "checks",
        "none" if not r.leaks else f"{len(r.leaks)} leaks",
    )
    out.lost(
        "isolation: another agent's memory seen",
        len(r.leaks),
        "leaks",
        "memory.search (every secret, the shared sentences, empty query), memory.export, memory.persona, "
        "memory.list, memory.get of the others' ids, a turn's explain context; memory.forget by another "
        "agent's secret leaves that agent's memory alone",
    )
    out.notes += [f"isolation leak: {leak}" for leak in r.leaks[:10]]
    return out


# --- access -----------------------------------------------------------------------------------------


@dataclass
class AccessResult:
    attempts: int = 0
    refused_first_frame: int = 0
    outcomes: dict[str, int] = field(default_factory=dict)
    methods_run: int = 0
    refused_counted: int = 0
    harmed: list[str] = field(default_factory=list)


def run_access(attempts: int) -> AccessResult:
    """A peer with uid 5000 (not on the allow-list) connects ``attempts`` times and sends
    ``agent.create`` and ``memory.forget all`` at once; it must get one ``forbidden`` frame and EOF,
    and nothing may run."""
    out = AccessResult(attempts=attempts)
    public = Path(tempfile.mkdtemp(prefix="xaid-faults-access-"))
    public.chmod(0o755)  # the intruder must reach the socket; only the allow-list may stop it
    env = {"XAID_SERVER_ALLOW_UIDS": "0", "XAID_SERVER_SOCKET_MODE": "0666"}
    try:
        with running(DaemonProcess(public / "d", env=env).start()) as daemon:
            os.chmod(daemon.root, 0o755)
            with daemon.client() as c:
                c.agent_create("keeper")
                sid = c.session_open("keeper")["session_id"]
                c.session_send(sid, "My sister Anna lives in Kyoto.").finish()
                c.session_close(sid, wait=True)
                before = c.stats()
                keeper = c.call("memory.export", agent_id="keeper")
            out.outcomes = intrude(daemon.socket, attempts)
            out.refused_first_frame = out.outcomes.get(REFUSED, 0)
            with daemon.client() as c:
                after = c.stats()
                for method in ("agent.create", "memory.forget"):
                    out.methods_run += after["methods"].get(method, {}).get("calls", 0) - before[
                        "methods"
                    ].get(method, {}).get("calls", 0)
                out.refused_counted = after["connections_refused"] - before["connections_refused"]
                agents = {a["agent_id"] for a in c.agent_list()["agents"]}
                if agents != {"keeper"}:
                    out.harmed.append(f"agents now {sorted(agents)}")
                if c.call("memory.export", agent_id="keeper") != keeper:
                    out.harmed.append("keeper's memory changed")
    finally:
        shutil.rmtree(public, ignore_errors=True)
    return out


def access_scenario(sizes: Sizes) -> Outcome:
    out = Outcome()
    if os.geteuid() != 0:
        out.notes.append("access: skipped, becoming another uid needs root")
        return out
    progress(f"faults: access, {sizes.access_attempts} refused connections")
    r = run_access(sizes.access_attempts)
    other = {k: v for k, v in r.outcomes.items() if k != REFUSED}
    out.tried(
        "access: uid 5000, not on the allow-list, sends agent.create and memory.forget all at once",
        r.attempts,
        "connections",
        f"forbidden (id null) then EOF ×{r.refused_first_frame}; other replies {other or 'none'}; "
        f"stats connections_refused +{r.refused_counted}",
    )
    out.lost(
        "access: methods run for a refused peer",
        r.methods_run + len(r.harmed),
        "calls",
        "stats method counters for agent.create and memory.forget unchanged, no new agent, the keeper "
        "agent's export unchanged" + (f"; {'; '.join(r.harmed)}" if r.harmed else ""),
    )
    return out


# --- fuzzing ----------------------------------------------------------------------------------------
# The params table and the strategies are in testkit.fuzz, shared with tests/xaid/test_fuzz_params.py.


def known_defect(method: str, params: Any, message: str) -> str | None:
    """Which defect of the report an ``internal`` reply belongs to, or None for a new one.

    The reply names only the exception type ("internal error: OverflowError"); the params tell the
    rest. Each id here has a reproduction in tests/xaid/test_fuzz_params.py, kept as a regression test."""
    kind = message.rsplit(" ", 1)[-1]
    found = list(numbers(params))
    if (
        method == "scheduler.config"
        and kind in ("ValueError", "OverflowError")
        and any(past_i64(n, HOUR) for n in found)
    ):
        return "D4 scheduler.config min_gap_hours not finite or too large"
    if kind == "OverflowError" and any(past_i64(n, 1, slack=8 * DAY) for n in found):
        return "D1 integers past 64 bits"
    if method == "scheduler.list" and kind == "TypeError":
        return "D3 scheduler.list states not strings"
    if method == "memory.import" and kind in (
        "TypeError",
        "ValueError",
        "AttributeError",
        "OverflowError",
    ):
        return "D5 memory.import fields not checked"
    if method in ("memory.export", "session.close") and kind in ("ValueError", "OverflowError"):
        return "D2 times past year 9999 break export/consolidation"
    if method == "session.close" and message.startswith("consolidation of"):
        return "D2 times past year 9999 break export/consolidation"
    return None


@dataclass
class FuzzResult:
    examples: int = 0
    methods: list[str] = field(default_factory=list)
    codes: collections.Counter[str] = field(default_factory=collections.Counter)
    undocumented: list[str] = field(default_factory=list)  # replies with a code outside section 11
    internal: collections.Counter[str] = field(
        default_factory=collections.Counter
    )  # defect id -> count
    new_internal: list[str] = field(
        default_factory=list
    )  # internal replies no known defect explains
    examples_of: dict[str, str] = field(default_factory=dict)
    hangs: list[str] = field(default_factory=list)
    alive: bool = True
    lost: list[str] = field(default_factory=list)


class FuzzTarget:
    """One raw connection to a daemon with a fuzz agent (recreated when a fuzz call deletes it) and
    a keeper agent that no fuzz call can name, whose stored data must come out unchanged."""

    def __init__(self, daemon: DaemonProcess):
        self.daemon = daemon
        self.raw = Raw(daemon.socket)
        self.session = ""
        with daemon.client() as c:
            c.agent_create("keeper")
            sid = c.session_open("keeper", ts=1_764_536_400_000)["session_id"]
            for i, line in enumerate(
                (
                    "My sister Anna lives in Kyoto.",
                    "I work at Globex.",
                    "I'm so tired today, the project crashed.",
                )
            ):
                c.session_send(sid, line, ts=1_764_536_400_000 + i * 60_000).finish()
            c.session_close(sid, wait=True)
            c.memory_search(
                "keeper", "Anna Globex tired", touch=True
            )  # referenced: no curve prunes it
            self.keeper_session = sid
            self.snapshot = self.keeper_state(c)
        self.methods: list[str] = self.raw.call("hello", {})["result"]["methods"]

    def keeper_state(self, c: Client) -> dict[str, Any]:
        export = c.call("memory.export", agent_id="keeper")
        for fact in export["facts"]:
            fact.pop("ref_count", None)  # touched by its own searches only; nothing else may change
        history = c.session_history(self.keeper_session)
        # memory.maintain at a fuzzed ts past memory.keep_transcripts_days deletes the transcript by
        # design (retention, not loss): then it must be empty, and the rest must be as it was
        return {
            "agent": c.agent_get("keeper"),
            "export": export,
            "history": history["messages"],
            "pruned": history["transcript_pruned"] and not history["messages"],
        }

    def ensure(self) -> str:
        for agent in FUZZ_AGENTS:
            if not self.raw.call("agent.get", {"agent_id": agent})["ok"]:
                self.raw.call("agent.create", {"agent_id": agent})
        live = (
            self.raw.call("session.history", {"session_id": self.session, "limit": 1})
            if self.session
            else None
        )
        if not live or not live["ok"] or not live["result"]["session"]["open"]:
            opened = self.raw.call("session.open", {"agent_id": FUZZ_AGENTS[0]})
            if not opened[
                "ok"
            ]:  # too many open sessions (fuzzed session.open calls): close the fuzz agents'
                for agent in FUZZ_AGENTS:
                    listed = self.raw.call("session.list", {"agent_id": agent, "open_only": True})
                    for s in listed["result"]["sessions"] if listed["ok"] else []:
                        self.raw.call("session.close", {"session_id": s["session_id"]})
                opened = self.raw.call("session.open", {"agent_id": FUZZ_AGENTS[0]})
            self.session = opened["result"]["session_id"]
        return self.session

    def send(self, method: str, params: Any, out: FuzzResult) -> None:
        params = substitute(params, self.ensure())
        try:
            reply = self.raw.call(method, params)
        except (TimeoutError, ConnectionError, OSError) as exc:
            out.hangs.append(f"{method} {params!r:.200}: {type(exc).__name__}")
            self.raw.close()
            self.raw = Raw(self.daemon.socket)  # go on with the next example on a fresh connection
            return
        out.examples += 1
        if reply.get("ok") is True:
            out.codes["ok"] += 1
            return
        code = (reply.get("error") or {}).get("code")
        message = (reply.get("error") or {}).get("message", "")
        out.codes[str(code)] += 1
        if code not in DOCUMENTED:
            out.undocumented.append(f"{method} {params!r:.200} -> {reply!r:.200}")
        elif code == "internal":
            defect = known_defect(method, params, message) or f"NEW {method}: {message}"
            out.internal[defect] += 1
            example = f"{method} {params!r}"
            if len(example) < len(out.examples_of.get(defect, example + " ")):
                out.examples_of[defect] = example
            if defect.startswith("NEW"):
                out.new_internal.append(f"{method} {params!r:.300} -> {message}")

    def finish(self, out: FuzzResult) -> None:
        out.alive = self.daemon.proc is not None and self.daemon.proc.poll() is None
        self.raw.close()
        with self.daemon.client() as c:
            out.alive = out.alive and c.ping() == {}
            now = self.keeper_state(c)
        for key in self.snapshot:
            if key in ("history", "pruned") and now["pruned"]:
                continue  # retention emptied it on purpose (checked in keeper_state)
            if now[key] != self.snapshot[key]:
                out.lost.append(f"keeper's {key} changed")


def run_fuzz(daemon: DaemonProcess, per_method: int, seed: int | None = None) -> FuzzResult:
    """``per_method`` hypothesis examples for every method that hello lists, on one connection."""
    target = FuzzTarget(daemon)
    out = FuzzResult(methods=list(target.methods))
    for method in target.methods:
        fuzz_method(method, per_method, lambda m, params: target.send(m, params, out), seed)
    target.finish(out)
    return out


def fuzz_scenario(sizes: Sizes) -> Outcome:
    out = Outcome()
    env = {"XAID_LLM_TOOL_TIMEOUT": "2"}
    with scratch("fuzz") as root, running(DaemonProcess(root / "d", env=env).start()) as daemon:
        progress(f"faults: fuzzing, {sizes.fuzz_per_method} examples per method")
        r = run_fuzz(daemon, sizes.fuzz_per_method)
        log = daemon.log()
    tracebacks = log.count("Traceback")
    out.tried(
        f"fuzz: random param maps (hypothesis) for each of the {len(r.methods)} methods hello lists",
        r.examples,
        "requests",
        f"{fmt_counts(r.codes)}; codes outside docs/protocol.md §11: {len(r.undocumented)}; hangs "
        f"{len(r.hangs)}; daemon answers ping after: {'yes' if r.alive else 'NO'}; tracebacks in its log "
        f"{tracebacks}",
    )
    out.rows.append(
        Row(
            "fuzz: replies 'internal' (a bug by §11)",
            sum(r.internal.values()),
            "replies",
            aim=ZERO,
            note=fmt_counts(r.internal),
        )
    )
    out.lost(
        "fuzz: stored data lost",
        len(r.lost),
        "items",
        "a keeper agent no fuzz call can name (history, export, agent record) compared before and after"
        + (f": {'; '.join(r.lost)}" if r.lost else ""),
    )
    for defect, count in sorted(r.internal.items()):
        out.notes.append(
            f"fuzz {defect}: {count} replies 'internal', shortest: {r.examples_of[defect][:300]}"
        )
    out.notes += [f"fuzz hang: {h}" for h in r.hangs[:5]]
    out.notes += [f"fuzz undocumented code: {u}" for u in r.undocumented[:5]]
    return out


S = TypeVar("S")  # an area's own Sizes


def run_scenarios(
    area: str, scenarios: Sequence[tuple[str, Callable[[S], Outcome]]], sizes: S, notes: list[str]
) -> tuple[list[Row], list[str]]:
    """Every scenario in turn, its rows and notes gathered; one that raises becomes a failure row, so a
    broken scenario never hides the others' results."""
    rows: list[Row] = []
    for name, scenario in scenarios:
        started = time.perf_counter()
        try:
            outcome = scenario(sizes)
        except Exception as exc:
            outcome = Outcome(
                rows=[
                    Row(f"{name}: scenario failed", 1, "failures", aim=ZERO, note=repr(exc)[:300])
                ]
            )
        rows += outcome.rows
        notes = notes + outcome.notes
        progress(f"{area}: {name} done in {time.perf_counter() - started:.0f} s")
    return rows, notes


# --- the area ---------------------------------------------------------------------------------------

SCENARIOS: tuple[tuple[str, Callable[[Sizes], Outcome]], ...] = (
    ("load", load_scenario),
    ("crash", crash_scenario),
    ("disk full", disk_scenario),
    ("isolation", isolation_scenario),
    ("access", access_scenario),
    ("fuzz", fuzz_scenario),
)


def run(quick: bool) -> Section:
    sizes = QUICK if quick else FULL
    notes = [
        "Every scenario drives a real daemon (scripted provider) and stops by itself. 'lost' rows must be 0: "
        "acknowledged messages missing after the event, stored data changed or damaged, another agent's "
        "memory seen, a method run for a refused peer.",
        "Back-pressure: 'overloaded' is the documented reply when the model queue (llm.max_queue = 16) is full; "
        "the load clients retry after 5 ms.",
    ]
    rows, notes = run_scenarios("faults", SCENARIOS, sizes, notes)
    notes.append(
        "Defects found by these scenarios are listed above with 'DEFECT' or under their fuzz id "
        "(D1…D5, reproductions in tests/xaid/test_fuzz_params.py)."
    )
    return Section(title="Faults and load: what was tried, what was lost", rows=rows, notes=notes)
