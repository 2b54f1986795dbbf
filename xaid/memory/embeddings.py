"""The embedder as the daemon uses it: loaded once in the background, shared by turns, methods and
consolidation, and never a reason to fail a request.

Until the model is loaded, callers wait on ``ready``; when it cannot be loaded (or its vector table
cannot be made, say on a full disk), every call answers None and memory works on keywords and time.

The vectors of the latest queries (``embed_query``: a turn's topic, a ``memory.search``) are kept,
per agent and text, because the same words come back: a client that searches again as the user
types or pages, a web page reloaded, a turn retried. Embedding took 3-7 ms of a search's 20 at the
median here and most of its tail under load (perf/RESULTS.md, search). The copies are the agent's
words in another form, so they go with every erase of that agent (``erased``, registered with the
Eraser) and are never looked up under another agent's id.
"""

from __future__ import annotations

import logging
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import anyio
import apsw
import numpy as np
from anyio.abc import TaskGroup

from .. import embed as embedding
from ..embed import Embedder
from ..embed.onnx import EmbedWorker
from ..settings import Settings
from ..store import Database
from ..store.errors import StorageFailed
from . import index, pack, retrieve
from .erase import Erasure

log = logging.getLogger(__name__)

QUERY_VECTORS = (
    256  # the latest queries' vectors kept, all agents together: 512 floats each, ~0.5 MB
)


# The vectors of the code's own texts (embed_fixed), per loaded model.
_FIXED: weakref.WeakKeyDictionary[Embedder, dict[str, np.ndarray]] = weakref.WeakKeyDictionary()
T = TypeVar("T")


class Embeddings:
    def __init__(
        self, db: Database, settings: Settings, load: embedding.Loader = embedding.load
    ) -> None:
        self.db = db
        self.settings = settings
        self.load = load
        self.worker: EmbedWorker | None = None
        self.ready = anyio.Event()
        self.load_error = ""
        # The thresholds of the configured model (read before it loads: readable() needs them).
        self.profile: embedding.EmbedProfile = embedding.profile_for(settings.config.memory)
        self._queries: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        # Bumped by each erase of the agent: a query embedded across an erase is not kept.
        self._erasures: dict[str, int] = {}
        # The prototype banks built from the code's own texts (``bank``), by the function that builds one.
        self._banks: dict[Callable[..., Any], Any] = {}

    async def start(self, tg: TaskGroup) -> None:
        """Load the model, make sure its vector table fits it, start the worker in ``tg``, then the
        vectors into memory (after ``ready``: requests need not wait for that)."""
        try:
            embedder, self.profile = await anyio.to_thread.run_sync(
                self.load, self.settings.config.memory
            )
        except Exception as exc:
            self.load_error = f"embedding model unavailable: {exc}"
            log.error("%s; memory works on keywords and time only", self.load_error)
            embedder = None
        if embedder is not None:
            try:
                rebuild = await self.db.run(index.ensure_vector_table, embedder.dim, embedder.name)
            except (
                StorageFailed
            ) as exc:  # e.g. a full disk: keep serving, on keywords, and try again next start
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

    async def _warm(self, dim: int) -> None:
        """Each agent's rows its searches read (``index.warm_rows``, a chunk per database call) and
        its vectors into memory (one agent per call, so requests interleave: ~0.4 s at 100k
        memories, which would otherwise land on that agent's first turn); then the
        lines of each agent's newest turns as a search shows them (``pack.warm``, a chunk per call:
        ~0.2 s for two years of daily conversation), which would otherwise land on its first searches;
        then the hubness of each agent's vectors (``index.warm_hubs``: ~0.1 s for the two-year agent's
        2,133 vectors), which the first searches measured for their candidates, up to 47 ms each;
        last, what the rules read of each agent's turns (``retrieve.warm``: ~0.1 s for its 8,652
        turns), which the first ~30 searches read of ~40 candidates each."""
        try:
            agent_ids = await self.db.run(
                lambda conn: [
                    r[0] for r in conn.execute("SELECT DISTINCT agent_id FROM memory_items")
                ]
            )
            for agent_id in agent_ids:
                await self._in_chunks(index.warm_rows, agent_id)
                await self.db.run(index.warm_vectors, agent_id, dim)
            for agent_id in agent_ids:
                await self._in_chunks(pack.warm, agent_id)
            for agent_id in agent_ids:
                await self._in_chunks(index.warm_hubs, agent_id, dim)
            for agent_id in agent_ids:
                await self._in_chunks(retrieve.warm, agent_id)
        except StorageFailed as exc:
            log.error("vectors not preloaded: %s", exc.message)

    async def warm_agent(self, agent_id: str) -> None:
        """What the agent's next searches would work out about the memories a consolidation just
        added, worked out now, off the user's path (xaid.memory.service runs it after each job): a
        daemon runs for months, what start-up warmed is soon a small part of an agent's memories,
        and each job's new items make the agent's remembered rows start over (xaid.memory.rows).
        Without it the first searches after a job read their candidates' rows again and drew (a
        line and its tokens) and read (the rules) each new line that met them. The hubness
        (hubs.py) is measured here too, against the agent's vectors as the job left them: left to
        the searches, the first after the agent had grown by a quarter measured all its ~600
        candidates afresh (tens of ms), and the two-year agent of ``perf search``, built in the
        daemon, searched at a p95 of 15.8 ms against 10.8 for the same database after a restart;
        and a line measured when it was new kept a figure taken against fewer lines than the agent
        had later (the associative sets lost a case or two that way). The vectors' float copy is made
        (``index.warm_vectors``) for the same reason. Nothing without an embedding model
        (searches then measure no vectors either)."""
        if self.worker is None:
            return
        try:
            # the rows first: a job's new items moved the agent's generation, so the rows its
            # searches had read start over (xaid.memory.rows), and the warm steps walk them
            await self._in_chunks(index.warm_rows, agent_id)
            await self.db.run(index.warm_vectors, agent_id, self.worker.embedder.dim)
            await self._in_chunks(pack.warm, agent_id)
            await self._in_chunks(retrieve.warm, agent_id)
            await self._in_chunks(index.rewarm_hubs, agent_id, self.worker.embedder.dim)
        except StorageFailed as exc:
            log.warning("memories of %s not warmed: %s", agent_id, exc.message)

    async def _in_chunks(self, step: Callable[..., int | None], *args: Any) -> None:
        """A warm step run to its end, a chunk per database call so requests interleave: ``step``
        takes the connection, ``args`` and where its chunk starts, and returns where the next one
        does, None when done; what is known already is looked up, not worked out again."""
        at: int | None = 0
        while at is not None:
            at = await self.db.run(step, *args, at)

    async def _reindex(self) -> None:
        """Runs before ``ready`` is set, so it calls the worker itself (``embed`` waits for ready)."""
        assert self.worker is not None
        items = [i for i in await self.db.run(index.all_items) if self.readable(i.text)]
        log.info("embedding model changed: re-embedding %d memories", len(items))
        for start in range(0, len(items), 64):
            chunk = items[start : start + 64]
            vectors = await self.worker.embed([i.text for i in chunk])

            def write(
                conn: apsw.Connection,
                chunk: list[index.Item] = chunk,
                vectors: np.ndarray = vectors,
            ) -> None:
                for item, vec in zip(chunk, vectors, strict=True):
                    index.set_vector(conn, item.item_id, item.agent_id, vec)

            await self.db.run(write)

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

    async def embed_query(self, agent_id: str, text: str) -> np.ndarray | None:
        """The vector of a query of ``agent_id`` (``embed_message``), the same array again while the
        text is among the latest queries of that agent. Read only: callers share it."""
        key = (agent_id, text)
        found = self._queries.get(key)
        if found is not None:
            self._queries.move_to_end(key)
            return found
        erasures = self._erasures.get(agent_id, 0)
        vector = await self.embed_message(text)
        if vector is None or self._erasures.get(agent_id, 0) != erasures:
            return vector
        vector.setflags(write=False)
        self._queries[key] = vector
        while len(self._queries) > QUERY_VECTORS:
            self._queries.popitem(last=False)
        return vector

    def erased(self, erased: Erasure) -> None:
        """Memory of an agent was erased: its queries' vectors go, whatever they were about."""
        self._erasures[erased.agent_id] = self._erasures.get(erased.agent_id, 0) + 1
        for key in [k for k in self._queries if k[0] == erased.agent_id]:
            del self._queries[key]

    def queries_held(self, agent_id: str) -> int:
        """How many query vectors of ``agent_id`` are kept (for tests and stats)."""
        return sum(1 for k in self._queries if k[0] == agent_id)

    async def embed_fixed(self, texts: list[str]) -> list[np.ndarray | None]:
        """``embed_readable`` for texts that are the code's own (prototype banks): their vectors
        depend on the loaded model alone, so they are kept per model, not per daemon. One daemon
        embeds them once either way; the test suite's daemons share a model (testkit) and with it
        these vectors, instead of paying ~0.6 s of CPU at each start (conversation.banks)."""
        worker = self.worker
        if worker is None:
            return await self.embed_readable(texts)
        kept = _FIXED.setdefault(worker.embedder, {})
        missing = [t for t in dict.fromkeys(texts) if t not in kept]
        vectors = await self.embed_readable(missing) if missing else []
        for text, vector in zip(missing, vectors, strict=True):
            if vector is not None:  # a text the model cannot read, or a failed batch: not kept
                kept[text] = vector
        return [kept.get(t) for t in texts]

    async def bank(self, texts: list[str], build: Callable[[Sequence[np.ndarray]], T]) -> T | None:
        """The bank ``build`` makes of the vectors of ``texts`` (the code's own prototypes), made
        once per daemon from vectors kept per model (``embed_fixed``); None when the model reads
        not all of them. The readers by meaning (first_words, opener, consolidation's occasions)
        each keep theirs here."""
        found = self._banks.get(build)
        if found is None:
            vectors = await self.embed_fixed(texts)
            if any(v is None for v in vectors):
                return None
            found = self._banks[build] = build([v for v in vectors if v is not None])
        return cast(T, found)

    def bank_made(self, build: Callable[[Sequence[np.ndarray]], T]) -> T | None:
        """The bank ``build`` made already, else None (nothing is embedded for it here)."""
        return cast("T | None", self._banks.get(build))

    async def embed_readable(self, texts: list[str]) -> list[np.ndarray | None]:
        """Vectors for the texts the model can read; None for the rest, which keyword search still finds."""
        readable = [i for i, t in enumerate(texts) if self.readable(t)]
        out: list[np.ndarray | None] = [None] * len(texts)
        found = await self.embed([texts[i] for i in readable]) if readable else None
        if found is not None:
            for i, vec in zip(readable, found, strict=True):
                out[i] = vec
        return out
