"""The composition root: services are wired to shared collaborators and can be built and run without
the daemon around them.

Real SQLite throughout. The language model is the scripted provider (it stands in for llama.cpp; no
step here needs its words), and no embedding model is loaded: ``Embeddings`` is marked ready
without one, the state the daemon is in when its embedder cannot load (memory on keywords and time).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import anyio

from xaid.app import App
from xaid.clock import DAY_MS, ManualClock
from xaid.config import Config
from xaid.conversation.generation import GenerationQueue
from xaid.conversation.turns import ShownBlock
from xaid.providers.scripted import ScriptedProvider
from xaid.store import Database
from xaid.store import agents as agent_sql
from xaid.store import memory as memory_sql
from xaid.store import sessions as session_sql
from xaid.store.agents import Agent
from xaid.store.sessions import Message

START_MS = 1_780_000_000_000  # some day in 2026


def assemble(tmp_path: Path, clock: ManualClock) -> App:
    db = Database(tmp_path / "xaid.db")
    return App.assemble(Config(), db, GenerationQueue(ScriptedProvider(), 4), clock)


def test_building_the_services_runs_no_sql(tmp_path: Path) -> None:
    """Memory used to read the sessions table in its constructor; now that waits for ``start``."""
    db = Database(tmp_path / "xaid.db")
    db.close()  # any statement would fail now
    app = App.assemble(Config(), db, GenerationQueue(ScriptedProvider(), 4), ManualClock(START_MS))
    assert app.memory.db is db and app.turns.db is db


def test_a_reload_reaches_every_service(tmp_path: Path) -> None:
    app = assemble(tmp_path, ManualClock(START_MS))
    fresh = dataclasses.replace(
        Config(), memory=dataclasses.replace(Config().memory, idle_minutes=1.5)
    )
    app.settings.config = fresh  # what lifespan._reload does on SIGHUP
    assert app.config is fresh
    for service in (app.turns, app.memory, app.embeddings, app.consolidation):
        assert service.settings.config.memory.idle_minutes == 1.5, type(service).__name__
    app.close()


def test_closing_a_session_drops_what_turns_kept_for_it(tmp_path: Path) -> None:
    app = assemble(tmp_path, ManualClock(START_MS))
    turns, live = app.turns, app.live
    for sid in ("s1", "s2"):
        turns.shown[sid] = [ShownBlock(1, "memories", frozenset())]
        turns.profiles[sid] = ("a", "profile")
        turns.folds[sid] = 1
        live.touch(sid)
    live.closed("s1")
    assert "s1" not in turns.shown and "s1" not in turns.profiles and "s1" not in turns.folds
    assert "s1" not in live.activity
    assert (
        "s2" in turns.shown
        and "s2" in turns.profiles
        and "s2" in turns.folds
        and "s2" in live.activity
    )
    app.close()


class ClosedSessions(ScriptedProvider):
    """The scripted provider, noting the sessions it is told are closed (llama.cpp drops their state)."""

    def __init__(self) -> None:
        super().__init__()
        self.closed: list[str] = []

    def session_closed(self, session_id: str) -> None:
        self.closed.append(session_id)


def test_closing_a_session_tells_the_provider(tmp_path: Path) -> None:
    provider = ClosedSessions()
    app = App.assemble(
        Config(),
        Database(tmp_path / "xaid.db"),
        GenerationQueue(provider, 4),
        ManualClock(START_MS),
    )
    app.live.closed("s1")
    assert provider.closed == ["s1"]
    app.close()


def test_a_consolidation_runs_on_the_injected_clock(tmp_path: Path) -> None:
    """Close a session through Memory and let its job loop consolidate it, with no socket and no daemon:
    the episode keeps the conversation's time, the bookkeeping takes the manual clock's."""
    clock = ManualClock(START_MS)
    app = assemble(tmp_path, clock)
    said_ms = START_MS - 3 * DAY_MS
    lines = [
        "My sister Ingrid moved to Porto last spring.",
        "我在杭州的一家书店工作。",
        "Ingrid and I are planning a trip to Porto in May.",
    ]

    def seed(conn) -> None:  # type: ignore[no-untyped-def]
        agent_sql.insert(conn, Agent("a1", "Lumen", "", {}, said_ms, said_ms))
        session_sql.insert_session(conn, "s1", "a1", said_ms)
        for i, text in enumerate(lines):
            session_sql.insert_message(
                conn, Message("s1", "a1", "user", text, said_ms + i * 60_000)
            )
            session_sql.insert_message(
                conn, Message("s1", "a1", "assistant", "I see.", said_ms + i * 60_000 + 1)
            )

    async def scenario() -> tuple[int | None, str | None, list[tuple[int, int]]]:
        await app.db.run(seed)
        await app.memory.start()
        app.embeddings.ready.set()  # no embedding model: keywords and time only
        async with anyio.create_task_group() as tg:
            tg.start_soon(app.queue.load)
            tg.start_soon(app.queue.worker)
            tg.start_soon(app.memory.jobs)
            clock.advance(DAY_MS)
            with anyio.fail_after(60):
                episode_id = await app.memory.close_and_consolidate(
                    "s1", "a1", said_ms + 10 * 60_000, wait=True
                )
            tg.cancel_scope.cancel()
        episode = await app.db.run(memory_sql.get_episode, "a1", episode_id) if episode_id else None
        jobs = await app.db.run(
            lambda conn: [
                (r[0], r[1])
                for r in conn.execute(
                    "SELECT created_ms, updated_ms FROM jobs WHERE session_id = 's1'"
                )
            ]
        )
        return episode_id, episode.summary if episode else None, jobs

    episode_id, summary, jobs = anyio.run(scenario)
    app.close()
    assert episode_id is not None and summary
    assert jobs == [(START_MS + DAY_MS, START_MS + DAY_MS)]
