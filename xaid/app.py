"""The composition root: every part of the running daemon, built once, in one place.

``App.open`` opens the store and the model; ``App.assemble`` wires the services from them. Each
service is handed the few collaborators it uses (the database, the clock, the settings holder
that SIGHUP swaps, the generation queue, the live-session registry, the embedder), never the App,
so any of them can be built alone around a temp database and a ``ManualClock``. What keeps an App
is the edge of the daemon: lifespan, the connection, and the methods, which reach the services
through ``call.app``.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from . import __version__, embed, providers
from .clock import Clock, SystemClock, resolve_zone
from .config import Config
from .consolidation import Consolidation
from .conversation import banks
from .conversation.generation import GenerationQueue
from .conversation.prewarm import Prewarm
from .conversation.turns import Turns
from .live import LiveSessions
from .memory.embeddings import Embeddings
from .memory.erase import Eraser, Erasure
from .memory.service import Memory
from .mood.classifier import Classifier, RuleClassifier
from .paths import head_cache_dir, state_dir
from .settings import Settings
from .stats import Stats
from .store import Database

DB_NAME = "xaid.db"


@dataclass(eq=False)
class App:
    settings: Settings
    db: Database
    queue: GenerationQueue
    clock: Clock
    live: LiveSessions
    embeddings: Embeddings
    consolidation: Consolidation
    memory: Memory
    turns: Turns
    classifier: Classifier
    eraser: Eraser
    prewarm: Prewarm
    stats: Stats = field(default_factory=Stats)
    started: float = field(default_factory=time.monotonic)
    version: str = __version__
    connections: int = 0
    calls_in_flight: int = 0
    shutting_down: bool = False
    backing_up: bool = False  # admin.backup runs one at a time

    @property
    def config(self) -> Config:
        """The configuration as of now (SIGHUP replaces ``settings.config``)."""
        return self.settings.config

    @classmethod
    def open(
        cls,
        config: Config,
        clock: Clock | None = None,
        load_embedder: embed.Loader = embed.load,
    ) -> App:
        """``load_embedder`` reads the embedding model (the tests share one loaded model)."""
        db = Database(
            state_dir(config) / DB_NAME, config.storage.synchronous, config.storage.max_db_mb
        )
        queue = GenerationQueue(
            providers.build(config.llm, state_dir(config) / "models", head_cache_dir(config)),
            config.llm.max_queue,
        )
        app = cls.assemble(config, db, queue, clock or SystemClock(), load_embedder=load_embedder)
        app.settings.zone.tz = resolve_zone(config.memory.timezone)
        return app

    @classmethod
    def assemble(
        cls,
        config: Config,
        db: Database,
        queue: GenerationQueue,
        clock: Clock,
        classifier: Classifier | None = None,
        load_embedder: embed.Loader = embed.load,
    ) -> App:
        """The services around an open store and queue; no SQL runs here (``Memory.start`` does it)."""
        settings = Settings(config)
        live = LiveSessions()
        # llama.cpp's saved state of a closed session; the provider of the moment (SIGHUP may replace it)
        live.on_closed(lambda session_id: queue.provider.session_closed(session_id))
        counters: Counter[str] = Counter()  # memory's, shown by ``stats``
        classifier = classifier or RuleClassifier()
        embeddings = Embeddings(db, settings, load_embedder)
        consolidation = Consolidation(db, clock, settings, queue, embeddings, counters)
        eraser = Eraser(db, live)

        def drop_states(erased: Erasure) -> None:
            """llama.cpp's saved copy of a session holds its prompt, forgotten words included."""
            for session_id in erased.sessions:
                queue.provider.session_closed(session_id)
            queue.provider.agent_erased(erased.agent_id)  # its prompt heads hold its profile

        eraser.on_erased(drop_states)
        eraser.on_erased(embeddings.erased)  # the vectors of the agent's latest queries
        prewarm = Prewarm(db, clock, settings, queue, eraser)

        async def consolidate(job_id: int, agent_id: str, session_id: str) -> int | None:
            """One consolidation, then the agent's new head read ahead of time (conversation.prewarm)."""
            episode = await consolidation.run_job(job_id, agent_id, session_id)
            await prewarm.agent(agent_id)
            return episode

        async def after_sweep() -> None:
            """At start (and after a maintenance that changed memory): the meaning banks a turn
            reads embedded first (conversation.banks), then the agents' heads read ahead."""
            await banks.warm(embeddings)
            await prewarm.at_start()

        return cls(
            settings=settings,
            db=db,
            queue=queue,
            clock=clock,
            live=live,
            embeddings=embeddings,
            consolidation=consolidation,
            memory=Memory(
                db, clock, settings, live, embeddings, consolidate, counters, after_sweep
            ),
            turns=Turns(db, clock, settings, queue, live, embeddings, classifier, counters, eraser),
            classifier=classifier,
            eraser=eraser,
            prewarm=prewarm,
        )

    def close(self) -> None:
        self.queue.provider.close()
        self.db.close()
