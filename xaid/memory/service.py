"""The memory subsystem as it lives inside the daemon: the consolidation queue and the sweeps.

Everything here runs beside the conversation, never on the reply path: consolidation is a
persisted job taken by one background task, so a burst of closed sessions is worked through in
order, a crash resumes where it stopped, and a turn never waits for it. What a job does is
xaid.consolidation's; the embedder is xaid.memory.embeddings'.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

import anyio
import apsw
from anyio.abc import TaskGroup
from xaiclient.wire import Internal

from .. import heap
from ..clock import DAY_MS, Clock
from ..live import LiveSessions
from ..settings import Settings
from ..store import Database
from ..store import memory as sql
from ..store import sessions as session_sql
from ..store.errors import StorageFailed
from . import forget
from .embeddings import Embeddings

log = logging.getLogger(__name__)
SWEEP_SECONDS = 60.0
MAX_ATTEMPTS = 3
RETRY_SECONDS = 1.0


Consolidate = Callable[[int, str, str], Awaitable[int | None]]  # (job, agent, session) → episode id


class Memory:
    """The consolidation queue and the sweeps. ``consolidate`` runs one job (xaid.consolidation):
    this module decides when, not what."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        settings: Settings,
        live: LiveSessions,
        embeddings: Embeddings,
        consolidate: Consolidate,
        counters: Counter[str],
        swept: Callable[[], Coroutine[Any, Any, None]] | None = None,
    ):
        self.db = db
        self.clock = clock
        self.settings = settings
        self.live = live
        self.embeddings = embeddings
        self.consolidate = consolidate
        self.counters = counters
        # Called once the start-up sweep is done, and after a daily maintenance that changed memory:
        # the agents' prompt heads are built afresh from memory as it stands (conversation.prewarm).
        self.swept = swept
        self._wake = anyio.Event()
        self._done: dict[str, anyio.Event] = {}
        self._started = time.monotonic()
        self._last_maintenance_ms = 0
        self._known_before: int | None = None

    # -- start-up ---------------------------------------------------------------------------
    async def start(self) -> None:
        """Note the sessions that existed before this start; the start-up sweep must not touch newer
        ones, whose timestamps may be replayed from the past. Before the socket accepts (lifespan)."""
        self._known_before = int(
            await self.db.run(
                lambda conn: conn.execute(
                    "SELECT coalesce(max(rowid), 0) FROM sessions"
                ).fetchone()[0]
            )
        )

    async def run(self, tg: TaskGroup) -> None:
        if self._known_before is None:
            await self.start()
        await self.embeddings.start(tg)
        await self._startup_sweep()
        heap.started()  # what start-up built stays out of full collections (xaid/heap.py)
        if self.swept is not None:
            tg.start_soon(self.swept)
        tg.start_soon(self._sweeper)
        await self.jobs()

    # -- consolidation jobs -----------------------------------------------------------------
    async def close_and_consolidate(
        self, session_id: str, agent_id: str, ts_ms: int, wait: bool
    ) -> int | None:
        def close(conn: apsw.Connection) -> str | None:
            session_sql.close_session(conn, session_id, ts_ms)
            sql.enqueue_job(conn, agent_id, session_id, self.clock.now_ms())
            # Closing again is asking again: a job that failed (say, on a full disk) gets a new try.
            conn.execute(
                "UPDATE jobs SET state = 'pending', attempts = 0 WHERE session_id = ? AND state = 'failed'",
                (session_id,),
            )
            return sql.job_state(conn, session_id)

        done = self._done.setdefault(session_id, anyio.Event())
        # The caller saw no turn running; from here until the close commits none may start (Turns.run),
        # and one that had read the session as open finds it closed when it writes (require_open).
        self.live.closing.add(session_id)
        try:
            state = await self.db.run(close)
        finally:
            self.live.closing.discard(session_id)
        self.live.closed(session_id)
        self._wake.set()
        if state != "pending":
            self._done.pop(session_id, None)
        elif wait:
            await done.wait()
        if not wait:
            return None
        state = await self.db.run(sql.job_state, session_id)
        if state == "failed":
            raise Internal(f"consolidation of {session_id!r} failed; see the daemon log")
        return await self.db.run(sql.episode_for_session, session_id)

    async def jobs(self) -> None:
        """Never ends: a job that fails is retried, then parked as 'failed' (retried at the next
        start); a failure to even record that (a full disk) waits and tries again."""
        while True:
            # A fresh event before looking, not after: a job queued while the query runs sets this one,
            # where an event made after an empty answer would miss that wake-up and leave the job waiting.
            self._wake = anyio.Event()
            try:
                jobs = await self.db.run(sql.pending_jobs)
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
            await self.consolidate(job_id, agent_id, session_id)
        except Exception as exc:
            log.exception("consolidation of %s failed", session_id)
            attempts = await self.db.run(sql.job_attempts, job_id)
            state = "failed" if attempts + 1 >= MAX_ATTEMPTS else "pending"
            await self.db.run(sql.finish_job, job_id, state, self.clock.now_ms(), str(exc)[:500])
            if state == "pending":
                await anyio.sleep(RETRY_SECONDS)
                return False
        if (event := self._done.pop(session_id, None)) is not None:
            event.set()
        # what the next searches would work out about the new memories, now (the caller waiting on
        # the close has its answer already; the next job waits the few ms this takes)
        await self.embeddings.warm_agent(agent_id)
        return True

    # -- sweeps: idle sessions, the forgetting curve ----------------------------------------
    async def _startup_sweep(self) -> None:
        """Sessions found open after a restart and idle past the limit are closed and consolidated;
        closed sessions that never got a job (e.g. from before memory existed) get one."""
        idle_ms = int(self.settings.config.memory.idle_minutes * 60_000)
        now = self.clock.now_ms()

        def sweep(conn: apsw.Connection) -> int:
            stale: list[tuple[Any, ...]] = conn.execute(
                "SELECT session_id, agent_id, last_ms FROM sessions WHERE closed_ms IS NULL AND last_ms < ? "
                "AND rowid <= ?",
                (now - idle_ms, self._known_before),
            ).fetchall()
            for session_id, agent_id, last_ms in stale:
                session_sql.close_session(conn, session_id, last_ms)
                sql.enqueue_job(conn, agent_id, session_id, now)
            # a new start, a new try for what failed before (say, on a full disk)
            conn.execute("UPDATE jobs SET state = 'pending', attempts = 0 WHERE state = 'failed'")
            orphans: list[tuple[Any, ...]] = conn.execute(
                "SELECT s.session_id, s.agent_id FROM sessions s LEFT JOIN jobs j ON j.session_id = s.session_id "
                "WHERE s.closed_ms IS NOT NULL AND j.job_id IS NULL AND s.rowid <= ?",
                (self._known_before,),
            ).fetchall()
            for session_id, agent_id in orphans:
                sql.enqueue_job(conn, agent_id, session_id, now)
            return len(stale) + len(orphans)

        try:
            if count := await self.db.run(sweep):
                log.info("queued consolidation of %d session(s) found at start-up", count)
            await self.maintenance()
        except StorageFailed as exc:
            log.error("start-up sweep skipped: %s", exc.message)

    async def _sweeper(self) -> None:
        while True:
            await anyio.sleep(SWEEP_SECONDS)
            idle_s = (
                self.settings.config.memory.idle_minutes * 60
            )  # read each time: SIGHUP may change it
            now = time.monotonic()
            try:
                open_sessions = await self.db.run(
                    lambda conn: conn.execute(
                        "SELECT session_id, agent_id FROM sessions WHERE closed_ms IS NULL"
                    ).fetchall()
                )
                for session_id, agent_id in open_sessions:
                    last = self.live.activity.get(session_id, self._started)
                    if now - last >= idle_s and session_id not in self.live.active:
                        await self.close_and_consolidate(
                            session_id, agent_id, self.clock.now_ms(), False
                        )
                if self.clock.now_ms() - self._last_maintenance_ms >= DAY_MS:
                    changed = await self.maintenance()
                    if any(changed.values()) and self.swept is not None:
                        await self.swept()
            except StorageFailed as exc:  # a full disk: try again at the next sweep
                log.error("idle sweep skipped: %s", exc.message)

    async def maintenance(self, at_ms: int | None = None) -> dict[str, int]:
        """The forgetting curve and the transcript retention, at start and daily on the daemon's clock
        (or at ``at_ms``: memory.maintain replays)."""
        now = self.clock.now_ms() if at_ms is None else at_ms
        if at_ms is None:
            self._last_maintenance_ms = now
        cfg = self.settings.config.memory
        result = await self.db.run(forget.apply_curve, now, cfg)
        while await self.db.run(forget.transcripts_due, now, cfg.keep_transcripts_days):
            result["messages_deleted"] += await self.db.run(
                forget.prune_transcripts, now, cfg.keep_transcripts_days
            )
        if any(result.values()):  # counts only, never text
            log.info("maintenance: %s", " ".join(f"{k}={v}" for k, v in result.items()))
        return result
