"""An agent's prompt head read ahead of time, so that a session's first turn reads only what follows.

The head (xaid.conversation.prompt: who the agent is, the rules, the profile, the standing block of
xaid.memory.standing) changes only when the agent's memory does: after a consolidation, or an edit
of the agent. Once it has changed, the next session's first turn would read all of it before its
first word (hundreds of tokens, seconds on two cores). So the daemon builds the head as that turn
will (``standing.session_head`` and ``prompt.system_prompt``, the same bytes) and hands it to the
provider, whose runner reads it while the model is idle and keeps its state in the head cache
(xaid/providers/runner.py, llama_cpp.py). The runner gives way to every turn; this module only
decides when and what.

When: after every consolidation of the agent, and for the agents that spoke last once the start-up
sweep is done and after a daily maintenance that changed memory (a new runner holds nothing, the
forgetting curve may have taken an episode of the standing block, a profile may have dropped a plan
whose day passed).

Forgetting wins. A head read from the database before a forget and handed over after it would
write the forgotten words back to disk: each erase of an agent bumps its count here (``on_erased``
runs on the event loop, as this does), and a head whose agent was erased meanwhile is dropped. A
head handed over before the erase reaches the runner before the erase's own frame, which drops
it, waiting or written.
"""

from __future__ import annotations

import logging
from collections import Counter

import anyio
import apsw

from ..clock import Clock
from ..memory import standing
from ..memory.erase import Eraser, Erasure
from ..settings import Settings
from ..store import Database
from ..store import agents as agents_sql
from ..store import sessions as sessions_sql
from . import agent_config, prompt
from .generation import GenerationQueue, ModelState

log = logging.getLogger(__name__)

AT_START = 8  # agents whose heads are read at start, those that spoke last first
READY_POLL_S = 0.5


class Prewarm:
    def __init__(
        self,
        db: Database,
        clock: Clock,
        settings: Settings,
        queue: GenerationQueue,
        eraser: Eraser,
    ):
        self.db = db
        self.clock = clock
        self.settings = settings
        self.queue = queue
        self.erasures: Counter[str] = Counter()
        eraser.on_erased(self._erased)

    def _erased(self, erased: Erasure) -> None:
        self.erasures[erased.agent_id] += 1

    def head(self, conn: apsw.Connection, agent_id: str, now_ms: int) -> str | None:
        """Runs on the database thread: the head the agent's next session starts with, or None."""
        agent = agents_sql.get(conn, agent_id)
        if agent is None:
            return None
        cfg = agent_config.read(agent.config)
        profile, stands = (
            standing.session_head(
                conn, agent_id, now_ms, self.settings.config.memory.standing_tokens
            )
            if cfg.memory
            else (None, None)
        )
        context = prompt.Context(
            profile=profile,
            standing=stands.text if stands else None,
            instructions=cfg.system_prompt,
        )
        return prompt.system_prompt(agent, context)

    async def agent(self, agent_id: str) -> None:
        """Hand the agent's head to the provider (nothing when llm.prewarm is off)."""
        provider = self.queue.provider
        if (
            not self.settings.config.llm.prewarm
            or not getattr(provider, "reads_ahead", False)
            or self.queue.state is not ModelState.READY
        ):
            return  # a provider that keeps no prompts: not even the database is asked
        seen = self.erasures[agent_id]
        head = await self.db.run(self.head, agent_id, self.clock.now_ms())
        if head is None or self.erasures[agent_id] != seen:
            return  # deleted, or forgotten from while the head was read
        provider.prewarm(agent_id, head)

    async def at_start(self) -> None:
        """Once the model is ready: the heads of the agents that spoke last (xaid.memory.service
        calls this after its start-up sweep, and after a maintenance that changed memory)."""
        while self.queue.state in (ModelState.LOADING, ModelState.RESTARTING):
            await anyio.sleep(READY_POLL_S)
        if (
            self.queue.state is not ModelState.READY
            or not self.settings.config.llm.prewarm
            or not getattr(self.queue.provider, "reads_ahead", False)
        ):
            return
        for agent_id in await self.db.run(sessions_sql.recent_agents, AT_START):
            await self.agent(agent_id)
