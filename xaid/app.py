"""The daemon's state while it runs: config, clock, database, model queue, turns, counters.

One object, built once at start-up and handed to every call, so that nothing reaches for a
global and tests can build an App around a temp directory and a manual clock.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from . import __version__, providers
from .clock import Clock, SystemClock, set_zone
from .config import Config
from .generation import GenerationQueue
from .memory.service import Memory
from .mood.classifier import Classifier, RuleClassifier
from .paths import state_dir
from .stats import Stats
from .store import Database
from .turns import Turns

DB_NAME = "xaid.db"


@dataclass(eq=False)
class App:
    config: Config
    db: Database
    queue: GenerationQueue
    clock: Clock = field(default_factory=SystemClock)
    stats: Stats = field(default_factory=Stats)
    classifier: Classifier = field(default_factory=RuleClassifier)
    started: float = field(default_factory=time.monotonic)
    version: str = __version__
    connections: int = 0
    calls_in_flight: int = 0
    shutting_down: bool = False
    backing_up: bool = False  # admin.backup runs one at a time
    turns: Turns = field(init=False)
    memory: Memory = field(init=False)

    def __post_init__(self) -> None:
        self.turns = Turns(self)
        self.memory = Memory(self)

    @classmethod
    def open(cls, config: Config, clock: Clock | None = None) -> App:
        set_zone(config.memory.timezone)
        db = Database(state_dir(config) / DB_NAME, config.storage.synchronous, config.storage.max_db_mb)
        queue = GenerationQueue(providers.build(config.llm, state_dir(config) / "models"), config.llm.max_queue)
        return cls(config=config, db=db, queue=queue, clock=clock or SystemClock())

    def close(self) -> None:
        self.queue.provider.close()
        self.db.close()
