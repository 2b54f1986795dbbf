"""One conversational turn: persist the user's words, generate, stream, run tools, persist the reply.

The invariant every path keeps: what the user said is stored before the model sees it, and the
session's history is always something a chat template can read back. A cancelled or vanished
client leaves the partial reply stored as ``interrupted``; a tool call without an answer gets a
tool message saying so.
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio
import apsw
from xaiclient.wire import ErrorCode, XaiError

from .. import clock
from ..clock import Clock
from ..errors import Emit
from ..live import LiveSessions
from ..memory import compress, forget, forget_request, pack, persona, retrieve
from ..memory.embeddings import Embeddings
from ..memory.forget_request import ForgetRequest
from ..mood import tone, tracker
from ..mood.classifier import Classifier
from ..mood.state import MoodState
from ..providers.base import Completion, GenerateRequest, ToolCall
from ..scheduler import fire
from ..settings import Settings
from ..store import Database
from ..store import sessions as sql
from ..store.agents import Agent
from ..store.sessions import Message, Session
from ..text.lang import language
from . import agent_config, prompt
from .generation import GenerationQueue
from .opening import OpeningGuard, fix_head
from .reply import Timings, TurnReply

MAX_TOOL_ROUNDS = 4
LATER_TURN_SHARE = 4  # after a session's first memories, a turn adds at most 1/4 of the budget anew
CANCEL_GRACE_S = 5.0


@dataclass
class PendingTool:
    call: ToolCall
    done: anyio.Event = field(default_factory=anyio.Event)
    result: Any = None


@dataclass
class UserTurn:
    text: str
    ts_ms: int
    ref: str | None = None
    speaker: str | None = None
    explain: bool = False
    started: float = field(default_factory=time.perf_counter)

    def at(self) -> int:
        """The time of a later step of this turn on the turn's own clock: its ``ts`` plus the time
        spent since, so replayed history keeps its order and its day."""
        return self.ts_ms + int((time.perf_counter() - self.started) * 1000)


@dataclass(frozen=True, slots=True)
class ShownBlock:
    """Memories shown at one turn, kept in place for the rest of the session (see xaid.conversation.prompt)."""

    message_id: int  # the user message they were shown before
    text: str
    keys: frozenset[tuple[str, int]]


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What a forget request in the conversation deleted (xaid.memory.forget_request)."""

    request: ForgetRequest
    deleted: int
    message_ids: tuple[int, ...]

    def to_wire(self) -> dict[str, Any]:
        # The topic's words are the ones the user just typed; what "that" was is not echoed back.
        return {
            "kind": self.request.kind,
            "what": self.request.what,
            "deleted": self.deleted,
            "message_ids": list(self.message_ids),
        }


@dataclass
class _Progress:
    parts: list[str] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    queued_ms: float = 0.0
    first_token_ms: float | None = None


def _session_view(
    conn: apsw.Connection, session_id: str, every: int
) -> tuple[list[tuple[int, str]], list[Message]]:
    """The session's Layer A chunks (folding what is due) and all of its messages."""
    chunks, _unfolded = compress.ensure_chunks(conn, session_id, every)
    return chunks, sql.messages_after(conn, session_id, 0)


class Turns:
    """The turns in flight, one per session at most, and the tool calls they wait on."""

    def __init__(
        self,
        db: Database,
        clock: Clock,
        settings: Settings,
        queue: GenerationQueue,
        live: LiveSessions,
        embeddings: Embeddings,
        classifier: Classifier,
        counters: Counter[str],
    ):
        self.db = db
        self.clock = clock
        self.settings = settings
        self.queue = queue
        self.live = live
        self.embeddings = embeddings
        self.classifier = classifier
        self.counters = counters
        live.on_closed(self.closed)
        self.tools: dict[tuple[str, str], PendingTool] = {}
        # In memory only, like llama.cpp's cache that it serves: after a restart both start afresh.
        self.shown: dict[str, list[ShownBlock]] = {}
        # The profile as of a session's first turn here: it sits in the prompt's head, which stays
        # byte-identical for the session (xaid.conversation.prompt); a newer profile waits for the next session.
        # A forget request drops the snapshot at once: what the user had deleted must not stay in the head.
        self.profiles: dict[str, tuple[str, str | None]] = {}  # session id -> (agent id, profile)

        self.folds: dict[
            str, int
        ] = {}  # Layer A chunks the session's prompt shows instead of their messages

    def closed(self, session_id: str) -> None:
        self.shown.pop(session_id, None)
        self.profiles.pop(session_id, None)
        self.folds.pop(session_id, None)

    def forgot(self, agent_id: str) -> None:
        """Memory of ``agent_id`` was deleted: its open sessions take the profile afresh next turn."""
        for sid in [sid for sid, (agent, _) in self.profiles.items() if agent == agent_id]:
            del self.profiles[sid]

    def _prune_shown(
        self, session_id: str, uptos: Sequence[int], history: Sequence[Message]
    ) -> None:
        """Memories shown with messages that a chunk now stands in for (or that were deleted) go with
        those messages."""
        folds = self.folds.get(session_id, 0)
        cut = uptos[folds - 1] if folds and folds <= len(uptos) else 0
        live = {m.message_id for m in history if (m.message_id or 0) > cut}
        self.shown[session_id] = [b for b in self.shown.get(session_id, []) if b.message_id in live]

    def tool_result(self, session_id: str, call_id: str, result: Any) -> None:
        pending = self.tools.get((session_id, call_id))
        if pending is None:
            raise XaiError(
                ErrorCode.NOT_FOUND,
                f"no tool call {call_id!r} is waiting in session {session_id!r}",
            )
        pending.result = result
        pending.done.set()

    async def run(self, agent: Agent, session: Session, turn: UserTurn, emit: Emit) -> TurnReply:
        active = self.live.active
        if session.session_id in active:
            raise XaiError(
                ErrorCode.BUSY, f"session {session.session_id!r} is already generating a reply"
            )
        if session.session_id in self.live.closing:
            raise XaiError(
                ErrorCode.CONFLICT, f"session {session.session_id!r} is closed; open a new one"
            )
        finished = anyio.Event()
        active[session.session_id] = finished
        try:
            return await self._run(agent, session, turn, emit)
        finally:
            del active[session.session_id]
            finished.set()

    async def _recall(
        self, agent: Agent, turn: UserTurn, with_profile: bool
    ) -> tuple[list[retrieve.Hit], str | None]:
        """This turn's memories (L1 by time, L2 by relevance) and, when the session has not taken it
        yet (``with_profile``), the user's profile (L3).

        One step after another, on purpose: the embedder takes both cores of a small machine for
        its few milliseconds, and reading the keyword indexes beside it made both slower (the
        memory-on turn added 10 ms at the median instead of 8)."""
        cfg = self.settings.config.memory
        about = await self.db.run(retrieve.topic, agent.agent_id, turn.text)
        vector = await self.embeddings.embed_message(about) if about.strip() else None

        def read(conn: apsw.Connection) -> tuple[list[retrieve.Hit], str | None]:
            # read only: the hits are marked referenced with the reply, off the path to the first token
            hits, _tokens = retrieve.search(
                conn,
                agent.agent_id,
                turn.text,
                vector,
                turn.ts_ms,
                k=retrieve.turn_k(cfg.budget_tokens),
                budget_tokens=cfg.budget_tokens,
                recent_days=cfg.recent_days,
                profile=self.embeddings.profile,
                touch=False,
                fill=False,
                fusion=cfg.fusion,
                lang=language([turn.text]),
            )
            return hits, persona.current_text(
                conn, agent.agent_id, turn.ts_ms
            ) if with_profile else None

        return await self.db.run(read)

    async def _store_user(
        self, agent: Agent, msg: Message, request: ForgetRequest | None = None
    ) -> tuple[Message, MoodState | None, fire.Verdict | None, Forgotten | None]:
        """The user's words, the mood they moved and, on a session's first turn, the scheduler's
        verdict: one transaction, so a suggestion is recorded exactly when its turn is. A request to
        forget is stored as a placeholder and carried out in the same transaction."""
        cfg = self.settings.config
        agent_cfg = agent_config.read(agent.config)
        reading = self.classifier.classify(msg.text) if agent_cfg.mood else None
        if request is not None:
            msg = dataclasses.replace(msg, text=forget_request.placeholder(request))

        def write(
            conn: apsw.Connection,
        ) -> tuple[Message, MoodState | None, fire.Verdict | None, Forgotten | None]:
            sql.require_open(conn, msg.session_id)
            stored = sql.insert_message(conn, msg)
            sql.count_live_turn(conn, msg.session_id)
            mood = None
            at_ms = clock.for_state(msg.ts_ms, self.clock)  # the message keeps its own time
            if reading is not None:
                mood = tracker.observe(
                    conn,
                    agent.agent_id,
                    reading,
                    at_ms,
                    cfg.mood,
                    stored.message_id,
                    clock.state_ceiling(self.clock),
                )
            verdict = None
            forgotten = None
            if request is not None:
                if request.kind == "topic":
                    deleted, ids = forget.forget_terms(conn, agent.agent_id, request.terms)
                else:
                    deleted, ids = forget.forget_previous(
                        conn, agent.agent_id, msg.session_id, stored.message_id or 0
                    )
                forgotten = Forgotten(request, deleted, tuple(ids))
                verdict = fire.Verdict(None, "the user asked to forget something")
            elif cfg.scheduler.enabled and agent_cfg.memory:
                said = reading.valence if reading is not None and reading.confidence > 0 else None
                verdict = fire.evaluate(
                    conn,
                    agent.agent_id,
                    msg.session_id,
                    msg.text,
                    at_ms,
                    said,
                    mood.valence if mood is not None else None,
                    int(cfg.scheduler.min_gap_hours * clock.HOUR_MS),
                )
            return stored, mood, verdict, forgotten

        with anyio.CancelScope(shield=True):
            stored = await self.db.run(write)
        return stored

    async def _store(
        self, msg: Message, referenced: Sequence[retrieve.Hit] = (), ts_ms: int = 0
    ) -> Message:
        """Store one message of the turn; with the reply, mark the turn's memories referenced."""

        def write(conn: apsw.Connection) -> Message:
            stored = sql.insert_message(conn, msg)
            retrieve.mark_referenced(conn, referenced, ts_ms)
            return stored

        with anyio.CancelScope(shield=True):  # an acknowledged step is never half-written
            stored = await self.db.run(write)
        return stored

    async def _run(self, agent: Agent, session: Session, turn: UserTurn, emit: Emit) -> TurnReply:
        sid, cfg = session.session_id, self.settings.config
        start = time.perf_counter()
        self.queue.check_capacity()  # refuse before storing, so a retry does not store the words twice
        agent_cfg = agent_config.read(agent.config)
        remember = agent_cfg.memory
        # Asked to forget: whatever memory is set to, the user decides what is kept.
        asked = forget_request.parse(turn.text)
        user, mood, verdict, forgotten = await self._store_user(
            agent,
            Message(sid, agent.agent_id, "user", turn.text, turn.ts_ms, turn.ref, turn.speaker),
            asked,
        )
        if forgotten is not None:
            self._count_forgotten(forgotten)
            await self.db.run_outside_transaction(
                forget.checkpoint
            )  # the words leave the -wal file too
        recall_start = time.perf_counter()
        hits: list[retrieve.Hit]
        if (
            forgotten is not None
        ):  # nothing is recalled for a request to forget, least of all what it names
            profile = (
                await self.db.run(persona.current_text, agent.agent_id, turn.ts_ms)
                if remember
                else None
            )
            hits = []
        else:
            # The profile is read once a session (below, it is kept as the session's first turn saw it).
            hits, profile = (
                await self._recall(agent, turn, sid not in self.profiles)
                if remember
                else ([], None)
            )
        memory_ms = (time.perf_counter() - recall_start) * 1000 if remember else 0.0
        if forgotten is not None:
            self.forgot(agent.agent_id)
        profile = self.profiles.setdefault(sid, (agent.agent_id, profile))[1]
        self.live.touch(sid)
        tools = agent_cfg.tools
        warnings: list[str] = []
        if tools and not self.queue.provider.supports_tools:
            warnings.append(
                f"provider {self.queue.provider.name} cannot call tools with this model's chat template; "
                "the reply is generated without tools (llama_cpp: set llm.chat_format = 'chatml-function-calling')"
            )
            await emit("notice", {"code": "tools_unsupported", "message": warnings[-1]})
            tools = ()
        progress = _Progress()
        budget = max(256, cfg.llm.n_ctx - agent_cfg.reply_tokens(cfg.llm.max_tokens))
        fresh: list[retrieve.Hit] = []
        for _round in range(MAX_TOOL_ROUNDS + 1):
            chunks, history = await self.db.run(_session_view, sid, cfg.memory.compress_every)
            uptos = tuple(upto for upto, _ in chunks)
            if _round == 0:  # memories folded into "Earlier" with their turns are no longer shown
                lang = (
                    forgotten.request.lang
                    if forgotten is not None
                    else language([m.text for m in history if m.role == "user"])
                )
                guidance = tone.guidance(mood, lang) if mood is not None else None
                self._prune_shown(sid, uptos, history)
                if forgotten is not None and forgotten.request.kind == "topic":
                    holds = forget.term_matcher(forgotten.request.terms)
                    self.shown[sid] = [b for b in self.shown[sid] if not holds(b.text)]
                present = {key for block in self.shown[sid] for key in block.keys}
                fresh = [h for h in hits if not h.keys <= present]
                if (
                    present
                ):  # a later turn: what was recalled before is in the conversation already, and
                    # every new memory is prompt the model reads afresh (~250 tokens/s on a Pi for the 135M)
                    fresh = pack.within(
                        fresh, cfg.memory.budget_tokens // LATER_TURN_SHARE, retrieve.LINE_TOKENS
                    )
            context = prompt.Context(
                profile=profile,
                tone=guidance,
                earlier=tuple(text for _, text in chunks),
                folded_upto=uptos,
                memories=retrieve.render(fresh, lang) if fresh else None,
                suggestion=verdict.directive(lang) if verdict else None,
                forgotten=forget_request.instruction(forgotten.request, forgotten.deleted)
                if forgotten is not None
                else None,
                shown=tuple((b.message_id, b.text) for b in self.shown.get(sid, [])),
                lang=lang,
            )
            # Layer A's chunks stand in for their messages only once these no longer fit, and then stay:
            # until then the prompt keeps extending the previous one (xaid.conversation.prompt).
            before = self.folds.get(sid, 0)
            folds = prompt.folds_needed(agent, history, budget, context, before)
            if (
                folds > before
            ):  # when folding at all, fold down to half the budget: the next re-read is far off
                folds = prompt.folds_needed(agent, history, budget // 2, context, folds)
            self.folds[sid] = folds
            context = dataclasses.replace(context, folds=self.folds[sid])
            self._prune_shown(sid, uptos, history)
            messages = prompt.build(agent, history, budget, context)
            request = GenerateRequest(
                messages,
                tools,
                agent_cfg.reply_tokens(cfg.llm.max_tokens),
                agent_cfg.sampling_temperature(cfg.llm.temperature),
                session=sid,
                stop=prompt.STOP,
                repeat_penalty=cfg.llm.repeat_penalty,
                no_copy=turn.text,
                no_copy_tokens=cfg.llm.no_copy_tokens,
            )
            completion = await self._generate(agent, sid, request, emit, progress, start, turn)
            if not completion.tool_calls:
                break
            if _round == MAX_TOOL_ROUNDS:
                raise XaiError(
                    ErrorCode.PROVIDER_ERROR,
                    f"the model kept calling tools after {MAX_TOOL_ROUNDS} rounds",
                )
            await self._store(
                Message(
                    sid,
                    agent.agent_id,
                    "assistant",
                    completion.text,
                    turn.at(),
                    tool_calls=[c.to_wire() for c in completion.tool_calls],
                )
            )
            progress.parts.clear()
            for call in completion.tool_calls:
                await self._run_tool(agent, sid, call, emit, turn)
        reply = await self._store(
            Message(sid, agent.agent_id, "assistant", completion.text, turn.at()), hits, turn.ts_ms
        )
        if (
            forgotten is not None
        ):  # the deleted text leaves the keyword index files too, after the reply
            await self.db.run(forget.optimize_indexes)
        if fresh and user.message_id is not None:
            self.shown.setdefault(sid, []).append(
                ShownBlock(
                    user.message_id,
                    retrieve.render(fresh, lang),
                    frozenset(k for h in fresh for k in h.keys),
                )
            )
        timings = Timings(
            memory_ms,
            progress.queued_ms,
            progress.first_token_ms,
            (time.perf_counter() - start) * 1000,
        )
        self.queue.speed.turn(progress.first_token_ms)
        explained = None
        if turn.explain:
            explained = {
                "system_prompt": messages[0].content,
                "directive": prompt.directive(agent, context, lang),
                "lang": lang,
                "memories": [h.to_wire() for h in hits],
                "memories_new": [h.to_wire() for h in fresh],
                "profile": profile,
                "earlier": list(context.earlier[: context.folds]),
                "folded_upto": context.folded_upto[context.folds - 1] if context.folds else 0,
                "mood": mood.to_wire() if mood is not None else None,
                "tone": guidance,
                "suggestion": context.suggestion,
                "suggestion_item": verdict.item.item_id if verdict and verdict.item else None,
                "suggestion_reason": verdict.reason if verdict else "the scheduler is off",
                "forgotten": forgotten.to_wire() if forgotten is not None else None,
            }
        return TurnReply(
            completion.text,
            reply.message_id,
            user.message_id,
            completion.finish_reason,
            progress.prompt_tokens,
            progress.completion_tokens,
            timings,
            tuple(warnings),
            explained,
        )

    def _count_forgotten(self, forgotten: Forgotten) -> None:
        counters = self.counters
        counters["forget_requests"] += 1
        counters[f"forget_requests_{forgotten.request.kind}"] += 1
        counters["forget_requests_deleted"] += forgotten.deleted
        if not forgotten.deleted:
            counters["forget_requests_unmatched"] += 1

    async def _generate(
        self,
        agent: Agent,
        sid: str,
        request: GenerateRequest,
        emit: Emit,
        progress: _Progress,
        start: float,
        turn: UserTurn,
    ) -> Completion:
        job = self.queue.submit(agent.agent_id, request)
        opening = OpeningGuard(agent.name)
        try:
            async with job.pieces:
                async for piece in job.pieces:
                    if progress.first_token_ms is None:
                        progress.first_token_ms = (time.perf_counter() - start) * 1000
                    progress.parts.append(piece)
                    if out := opening.feed(piece):
                        await emit("text", {"delta": out})
            if rest := opening.finish():
                await emit("text", {"delta": rest})
            completion = await job.result()
            completion = dataclasses.replace(completion, text=fix_head(completion.text, agent.name))
        except BaseException:
            job.cancelled.set()
            with anyio.CancelScope(shield=True), anyio.move_on_after(CANCEL_GRACE_S):
                await job.finished.wait()
                partial = fix_head(
                    job.completion.text if job.completion else "".join(progress.parts), agent.name
                )
                if partial:
                    await self.db.run(
                        sql.insert_message,
                        Message(
                            sid,
                            agent.agent_id,
                            "assistant",
                            partial,
                            turn.at(),
                            status="interrupted",
                        ),
                    )
            raise
        progress.queued_ms += (job.started_ns - job.queued_ns) / 1e6 if job.started_ns else 0.0
        progress.prompt_tokens += completion.prompt_tokens
        progress.completion_tokens += completion.completion_tokens
        return completion

    async def _run_tool(
        self, agent: Agent, sid: str, call: ToolCall, emit: Emit, turn: UserTurn
    ) -> None:
        key = (sid, call.call_id)
        pending = self.tools[key] = PendingTool(call)
        outcome = "(no result: the client did not answer)"
        try:
            await emit("tool_call", call.to_wire())
            with anyio.move_on_after(self.settings.config.llm.tool_timeout):
                await pending.done.wait()
            if not pending.done.is_set():
                raise XaiError(
                    ErrorCode.TIMEOUT, f"no session.tool_result for {call.call_id!r} in time"
                )
            result = pending.result
            outcome = (
                result
                if isinstance(result, str)
                else json.dumps(result, ensure_ascii=False, default=str)
            )
        finally:
            del self.tools[key]
            await self._store(
                Message(sid, agent.agent_id, "tool", outcome, turn.at(), tool_call_id=call.call_id)
            )
