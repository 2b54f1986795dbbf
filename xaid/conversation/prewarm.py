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

The opening goes with the head: most sessions open with a greeting ("早。", "Morning."), whose turn
reads no memories (memory.hold_for_openers), so its prompt is the head, the turn's directive (the
tone, the scheduler's suggestion, the language) and the greeting. The directive was 18-60 tokens
read before the first word (half a second to two on two cores); it is known before the user types,
as the scheduler's ``fire.opening`` and the mood as it stands would make it now, and the runner reads
it after the head. Time moves both (a check-in falls due, a mood fades to another band), so
``refresh`` builds the agents' heads and openings again every ``REFRESH_S`` and hands over those
that changed; a guess that misses (another language, a message with content) costs the turn nothing
it did not read before.

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

from ..clock import HOUR_MS, Clock
from ..memory import standing
from ..memory.erase import Eraser, Erasure
from ..mood import tone, tracker
from ..providers.base import ChatMessage
from ..scheduler import fire
from ..settings import Settings
from ..store import Database
from ..store import agents as agents_sql
from ..store import sessions as sessions_sql
from ..store.agents import Agent
from ..text.lang import language
from . import agent_config, prompt
from .agent_config import AgentConfig
from .generation import GenerationQueue, ModelState

log = logging.getLogger(__name__)

AT_START = 8  # agents whose heads are read at start, those that spoke last first
READY_POLL_S = 0.5
REFRESH_S = 300.0  # how often the heads and openings of those agents are built again
LANG_FROM = 6  # the agent's latest user messages that tell an opening's language without a matter


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
        # agent -> the head and opening handed over last (``refresh`` hands only what changed)
        self.handed: dict[str, tuple[str, tuple[ChatMessage, ...]]] = {}
        eraser.on_erased(self._erased)

    def _erased(self, erased: Erasure) -> None:
        self.erasures[erased.agent_id] += 1
        self.handed.pop(erased.agent_id, None)

    def ahead(
        self, conn: apsw.Connection, agent_id: str, now_ms: int
    ) -> tuple[str, tuple[ChatMessage, ...]] | None:
        """Runs on the database thread: the head the agent's next session starts with and the
        opening that follows it if that session opens with a greeting now, or None."""
        agent = agents_sql.get(conn, agent_id)
        if agent is None:
            return None
        cfg = agent_config.read(agent.config)
        head = self._head(conn, agent, cfg, now_ms)
        return head, (ChatMessage("system", self._opening(conn, agent, cfg, now_ms)),)

    def _opening(self, conn: apsw.Connection, agent: Agent, cfg: AgentConfig, now_ms: int) -> str:
        """The directive a session's first turn has when it opens with a greeting at ``now_ms``:
        the one Turns builds (its ``_store_user``, ``_frame`` and ``_context``), from the same
        parts: the mood as it stands, the scheduler's verdict on an opening (nothing recorded),
        and the language of the suggested matter or else of the user's latest messages."""
        config = self.settings.config
        mood = tracker.current(conn, agent.agent_id, now_ms, config.mood) if cfg.mood else None
        verdict = None
        if config.scheduler.enabled and cfg.memory:
            gap = int(config.scheduler.min_gap_hours * HOUR_MS)
            carried = mood.valence if mood is not None else None
            verdict = fire.opening(conn, agent.agent_id, now_ms, carried, gap, record=False)
        if verdict is not None and verdict.item is not None:
            lang = language([verdict.item.topic])
        else:
            lang = language(sessions_sql.latest_user_texts(conn, agent.agent_id, LANG_FROM))
        return prompt.directive(
            agent,
            prompt.Context(
                tone=tone.guidance(mood, lang) if mood is not None else None,
                suggestion=verdict.directive(lang, answer_first=False) if verdict else None,
            ),
            lang,
        )

    def _head(self, conn: apsw.Connection, agent: Agent, cfg: AgentConfig, now_ms: int) -> str:
        agent_id = agent.agent_id
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

    def _reads(self) -> bool:
        """Whether anything is read ahead: llm.prewarm on, a provider that keeps prompts, loaded."""
        return (
            self.settings.config.llm.prewarm
            and getattr(self.queue.provider, "reads_ahead", False)
            and self.queue.state is ModelState.READY
        )

    async def agent(self, agent_id: str, changed_only: bool = False) -> None:
        """Hand the agent's head and opening to the provider (nothing when llm.prewarm is off);
        ``changed_only``: not when they are what was handed over last."""
        if not self._reads():
            return  # a provider that keeps no prompts: not even the database is asked
        seen = self.erasures[agent_id]
        ahead = await self.db.run(self.ahead, agent_id, self.clock.now_ms())
        if ahead is None or self.erasures[agent_id] != seen:
            return  # deleted, or forgotten from while the head was read
        if changed_only and self.handed.get(agent_id) == ahead:
            return
        self.handed[agent_id] = ahead
        self.queue.provider.prewarm(agent_id, *ahead)

    async def refresh(self) -> None:
        """Never ends: every ``REFRESH_S`` the heads and openings of the agents that spoke last
        and have no session open are built again, and handed over where they changed (a check-in
        fell due, the mood faded to another band, a standing episode aged out)."""
        while True:
            await anyio.sleep(REFRESH_S)
            if not self._reads():
                continue
            try:
                open_now = await self.db.run(sessions_sql.open_per_agent)
                for agent_id in await self.db.run(sessions_sql.recent_agents, AT_START):
                    if not open_now.get(agent_id):
                        await self.agent(agent_id, changed_only=True)
            except Exception:  # a busy or full database: this only saves time, try next round
                log.exception("building the agents' heads and openings again failed")

    async def at_start(self) -> None:
        """Once the model is ready: the heads of the agents that spoke last (xaid.memory.service
        calls this after its start-up sweep, and after a maintenance that changed memory)."""
        while self.queue.state in (ModelState.LOADING, ModelState.RESTARTING):
            await anyio.sleep(READY_POLL_S)
        if not self._reads():
            return
        for agent_id in await self.db.run(sessions_sql.recent_agents, AT_START):
            await self.agent(agent_id)
