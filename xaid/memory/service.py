"""The memory subsystem as it lives inside the daemon: the embedder, the job queue, the sweeps.

Everything here runs beside the conversation, never on the reply path: consolidation is a
persisted job taken by one background task, so a burst of closed sessions is worked through in
order, a crash resumes where it stopped, and a turn never waits for it.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from typing import TYPE_CHECKING, Any

import anyio
import apsw
import numpy as np
from anyio.abc import TaskGroup
from xaiclient.wire import ErrorCode, XaiError

from .. import embed as embedding
from ..clock import DAY_MS
from ..embed.onnx import EmbedWorker
from ..providers.base import ChatMessage, GenerateRequest
from ..store import memory as sql
from ..store import sessions as session_sql
from ..store.errors import StorageFailed
from . import episodes, forget, index

if TYPE_CHECKING:
    from ..app import App

log = logging.getLogger(__name__)
SWEEP_SECONDS = 60.0
MAX_ATTEMPTS = 3
RETRY_SECONDS = 1.0


class Memory:
    def __init__(self, app: App):
        self.app = app
        self.worker: EmbedWorker | None = None
        self.ready = anyio.Event()
        self.load_error = ""
        # The thresholds of the configured model (read before it loads: readable() needs them).
        self.profile: embedding.EmbedProfile = embedding.profile_for(app.config.memory)
        self.counters: Counter[str] = Counter()
        self.activity: dict[str, float] = {}  # session → monotonic time of its last turn in this run
        self._wake = anyio.Event()
        self._done: dict[str, anyio.Event] = {}
        self._started = time.monotonic()
        self._last_maintenance_ms = 0
        # Sessions that existed before this start; the start-up sweep must not touch newer ones,
        # whose timestamps may be replayed from the past.
        self._known_before = int(app.db.call(
            lambda conn: conn.execute("SELECT coalesce(max(rowid), 0) FROM sessions").get))

    # -- start-up ---------------------------------------------------------------------------
    async def run(self, tg: TaskGroup) -> None:
        cfg = self.app.config.memory
        try:
            embedder, self.profile = await anyio.to_thread.run_sync(embedding.load, cfg)
        except Exception as exc:
            self.load_error = f"embedding model unavailable: {exc}"
            log.error("%s; memory works on keywords and time only", self.load_error)
            embedder = None
        if embedder is not None:
            try:
                rebuild = await self.app.db.run(index.ensure_vector_table, embedder.dim, embedder.name)
            except StorageFailed as exc:  # e.g. a full disk: keep serving, on keywords, and try again next start
                self.load_error = f"vector table unavailable: {exc.message}"
                log.error("%s; memory works on keywords and time only", self.load_error)
            else:
                self.worker = EmbedWorker(embedder)
                tg.start_soon(self.worker.run)
                if rebuild:
                    await self._reindex()
        self.ready.set()
        if embedder is not None:
            await self._warm(embedder.dim)
        await self._startup_sweep()
        tg.start_soon(self._sweeper)
        await self._jobs()

    async def _warm(self, dim: int) -> None:
        """Each agent's vectors into memory, one agent per database call so requests interleave:
        ~0.4 s at 100k memories, which would otherwise land on that agent's first turn."""
        try:
            agent_ids = await self.app.db.run(
                lambda conn: [r[0] for r in conn.execute("SELECT DISTINCT agent_id FROM memory_items")])
            for agent_id in agent_ids:
                await self.app.db.run(index.warm, agent_id, dim)
        except StorageFailed as exc:
            log.error("vectors not preloaded: %s", exc.message)

    async def _reindex(self) -> None:
        """Runs before ``ready`` is set, so it calls the worker itself (``embed`` waits for ready)."""
        assert self.worker is not None
        items = [i for i in await self.app.db.run(index.all_items) if self.readable(i.text)]
        log.info("embedding model changed: re-embedding %d memories", len(items))
        for start in range(0, len(items), 64):
            chunk = items[start : start + 64]
            vectors = await self.worker.embed([i.text for i in chunk])

            def write(conn: apsw.Connection, chunk: list[index.Item] = chunk, vectors: np.ndarray = vectors) -> None:
                for item, vec in zip(chunk, vectors, strict=True):
                    index.set_vector(conn, item.item_id, item.agent_id, vec)

            await self.app.db.run(write)

    # -- services for the rest of the daemon ------------------------------------------------
    async def embed(self, texts: list[str]) -> np.ndarray | None:
        """Vectors for ``texts``; None when no embedding model could be loaded."""
        await self.ready.wait()
        if self.worker is None or not texts:
            return None if self.worker is None else np.zeros((0, 0), dtype=np.float32)
        return await self.worker.embed(texts)

    def readable(self, text: str) -> bool:
        """Whether the embedding model can read ``text``. The default MiniLM is English-only: a mostly
        Chinese text gets a vector near every other Chinese text, which search ignores anyway
        (retrieve drops the vector of a Chinese query), so embedding or storing it is work for nothing.
        A multilingual profile ("use", or ``memory.embed_multilingual``) reads everything."""
        return self.profile.multilingual or not index.mostly_cjk(text)

    async def embed_message(self, text: str) -> np.ndarray | None:
        """The vector of a turn's message, straight away; None without an embedding model or when the
        model cannot read the message (search would drop that vector)."""
        await self.ready.wait()
        if self.worker is None or not self.readable(text):
            return None
        return await self.worker.embed_now(text)

    async def embed_readable(self, texts: list[str]) -> list[np.ndarray | None]:
        """Vectors for the texts the model can read; None for the rest, which keyword search still finds."""
        readable = [i for i, t in enumerate(texts) if self.readable(t)]
        out: list[np.ndarray | None] = [None] * len(texts)
        found = await self.embed([texts[i] for i in readable]) if readable else None
        if found is not None:
            for i, vec in zip(readable, found, strict=True):
                out[i] = vec
        return out

    async def ask(self, prompt: str, max_tokens: int, agent_id: str) -> str | None:
        """One short LLM call for the memory's own decisions; None when the model is unavailable."""
        self.counters["llm_calls"] += 1
        request = GenerateRequest((ChatMessage("user", prompt),), (), max_tokens, 0.0)
        try:
            job = self.app.queue.submit(f"memory:{agent_id}", request)
            async with job.pieces:
                async for _ in job.pieces:
                    pass
            return (await job.result()).text
        except XaiError as exc:
            log.info("memory LLM call skipped: %s", exc.message)
            return None

    def touch_session(self, session_id: str) -> None:
        self.activity[session_id] = time.monotonic()

    # -- consolidation jobs -----------------------------------------------------------------
    async def close_and_consolidate(self, session_id: str, agent_id: str, ts_ms: int, wait: bool) -> int | None:
        def close(conn: apsw.Connection) -> str | None:
            session_sql.close_session(conn, session_id, ts_ms)
            sql.enqueue_job(conn, agent_id, session_id, self.app.clock.now_ms())
            # Closing again is asking again: a job that failed (say, on a full disk) gets a new try.
            conn.execute("UPDATE jobs SET state = 'pending', attempts = 0 WHERE session_id = ? AND state = 'failed'",
                         (session_id,))
            return sql.job_state(conn, session_id)

        done = self._done.setdefault(session_id, anyio.Event())
        # The caller saw no turn running; from here until the close commits none may start (Turns.run),
        # and one that had read the session as open finds it closed when it writes (require_open).
        self.app.turns.closing.add(session_id)
        try:
            state = await self.app.db.run(close)
        finally:
            self.app.turns.closing.discard(session_id)
        self.activity.pop(session_id, None)
        self.app.turns.closed(session_id)
        self._wake.set()
        if state != "pending":
            self._done.pop(session_id, None)
        elif wait:
            await done.wait()
        if not wait:
            return None
        state = await self.app.db.run(sql.job_state, session_id)
        if state == "failed":
            raise XaiError(ErrorCode.INTERNAL, f"consolidation of {session_id!r} failed; see the daemon log")
        return await self.app.db.run(sql.episode_for_session, session_id)

    async def _jobs(self) -> None:
        """Never ends: a job that fails is retried, then parked as 'failed' (retried at the next
        start); a failure to even record that (a full disk) waits and tries again."""
        while True:
            # A fresh event before looking, not after: a job queued while the query runs sets this one,
            # where an event made after an empty answer would miss that wake-up and leave the job waiting.
            self._wake = anyio.Event()
            try:
                jobs = await self.app.db.run(sql.pending_jobs)
                for job_id, agent_id, session_id in jobs:
                    if not await self._one(job_id, agent_id, session_id):
                        break
            except StorageFailed as exc:
                log.error("the consolidation queue cannot reach the database: %s", exc.message)
                await anyio.sleep(SWEEP_SECONDS)
                continue
            if not jobs:
                await self._wake.wait()

    async def _one(self, job_id: int, agent_id: str, session_id: str) -> bool:
        """Run one job; False when it failed and should be retried after a pause."""
        try:
            await episodes.run_job(self, job_id, agent_id, session_id)
        except Exception as exc:
            log.exception("consolidation of %s failed", session_id)
            attempts = await self.app.db.run(sql.job_attempts, job_id)
            state = "failed" if attempts + 1 >= MAX_ATTEMPTS else "pending"
            await self.app.db.run(sql.finish_job, job_id, state, self.app.clock.now_ms(), str(exc)[:500])
            if state == "pending":
                await anyio.sleep(RETRY_SECONDS)
                return False
        if (event := self._done.pop(session_id, None)) is not None:
            event.set()
        return True

    # -- sweeps: idle sessions, the forgetting curve ----------------------------------------
    async def _startup_sweep(self) -> None:
        """Sessions found open after a restart and idle past the limit are closed and consolidated;
        closed sessions that never got a job (e.g. from before memory existed) get one."""
        idle_ms = int(self.app.config.memory.idle_minutes * 60_000)
        now = self.app.clock.now_ms()

        def sweep(conn: apsw.Connection) -> int:
            stale: list[tuple[Any, ...]] = conn.execute(
                "SELECT session_id, agent_id, last_ms FROM sessions WHERE closed_ms IS NULL AND last_ms < ? "
                "AND rowid <= ?", (now - idle_ms, self._known_before)).fetchall()
            for session_id, agent_id, last_ms in stale:
                session_sql.close_session(conn, session_id, last_ms)
                sql.enqueue_job(conn, agent_id, session_id, now)
            # a new start, a new try for what failed before (say, on a full disk)
            conn.execute("UPDATE jobs SET state = 'pending', attempts = 0 WHERE state = 'failed'")
            orphans: list[tuple[Any, ...]] = conn.execute(
                "SELECT s.session_id, s.agent_id FROM sessions s LEFT JOIN jobs j ON j.session_id = s.session_id "
                "WHERE s.closed_ms IS NOT NULL AND j.job_id IS NULL AND s.rowid <= ?", (self._known_before,)).fetchall()
            for session_id, agent_id in orphans:
                sql.enqueue_job(conn, agent_id, session_id, now)
            return len(stale) + len(orphans)

        try:
            if count := await self.app.db.run(sweep):
                log.info("queued consolidation of %d session(s) found at start-up", count)
            await self.maintenance()
        except StorageFailed as exc:
            log.error("start-up sweep skipped: %s", exc.message)

    async def _sweeper(self) -> None:
        while True:
            await anyio.sleep(SWEEP_SECONDS)
            idle_s = self.app.config.memory.idle_minutes * 60  # read each time: SIGHUP may change it
            now = time.monotonic()
            try:
                open_sessions = await self.app.db.run(
                    lambda conn: conn.execute("SELECT session_id, agent_id FROM sessions WHERE closed_ms IS NULL"
                                              ).fetchall())
                for session_id, agent_id in open_sessions:
                    last = self.activity.get(session_id, self._started)
                    if now - last >= idle_s and session_id not in self.app.turns.active:
                        await self.close_and_consolidate(session_id, agent_id, self.app.clock.now_ms(), False)
                if self.app.clock.now_ms() - self._last_maintenance_ms >= DAY_MS:
                    await self.maintenance()
            except StorageFailed as exc:  # a full disk: try again at the next sweep
                log.error("idle sweep skipped: %s", exc.message)

    async def maintenance(self, at_ms: int | None = None) -> dict[str, int]:
        """The forgetting curve and the transcript retention, at start and daily on the daemon's clock
        (or at ``at_ms``: memory.maintain replays)."""
        now = self.app.clock.now_ms() if at_ms is None else at_ms
        if at_ms is None:
            self._last_maintenance_ms = now
        cfg = self.app.config.memory
        result = await self.app.db.run(forget.apply_curve, now, cfg)
        while await self.app.db.run(forget.transcripts_due, now, cfg.keep_transcripts_days):
            result["messages_deleted"] += await self.app.db.run(forget.prune_transcripts, now,
                                                                cfg.keep_transcripts_days)
        if any(result.values()):  # counts only, never text
            log.info("maintenance: %s", " ".join(f"{k}={v}" for k, v in result.items()))
        return result
